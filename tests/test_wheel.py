"""An installed wheel, run from another folder, finds its parts catalog and resources."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    # Build from a copy of the tracked sources so the test never writes into the work tree (build/, *.egg-info).
    src = out / "src"
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=False).stdout.split()
    if not files:
        pytest.skip("not a git checkout")
    for rel in files:
        dst = src / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        if (ROOT / rel).is_file():
            dst.write_bytes((ROOT / rel).read_bytes())
    res = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out), str(src)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert res.returncode == 0, res.stderr[-2000:]
    (whl,) = out.glob("rigplan-*.whl")
    return whl


def test_wheel_carries_the_data(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "rigplan/_parts/catalog.json" in names
    assert {f"rigplan/_parts/{k}.yaml" for k in ("cpu", "gpu", "psu", "case")} <= names


def test_installed_wheel_finds_its_catalog(wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    res = subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), str(wheel)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert res.returncode == 0, res.stderr[-2000:]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {**os.environ, "PYTHONPATH": str(target), "RIGPLAN_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("RIGPLAN_PARTS_DIR", None)
    code = (
        "import json, rigplan\n"
        "from rigplan.catalog import load_catalog\n"
        "from rigplan.paths import parts_dir\n"
        "c = load_catalog()\n"
        "print(json.dumps({'file': rigplan.__file__, 'parts': str(parts_dir()), 'n': len(c), 'source': c.source}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=elsewhere, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    info = json.loads(out.stdout)
    assert info["file"].startswith(str(target))
    assert info["parts"].startswith(str(target))
    assert info["n"] == 26088 + 30  # OpenDB and the workstation supplement
    assert info["source"] == "bundled"  # the shipped compiled catalog matched the shipped YAML
