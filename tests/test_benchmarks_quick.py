"""Every script under benchmarks/ runs in its quick mode, so none can rot (issue 13 item 8). The figures are not
asserted here (timings belong to the scripts and docs/performance.md); each must run and print its figure and
its target side by side."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = sorted(p for p in (ROOT / "benchmarks").glob("*.py") if not p.name.startswith("_"))  # _x.py: shared code


def test_every_benchmark_is_covered() -> None:
    assert {p.name for p in SCRIPTS} >= {"catalog_load.py", "compat_filter.py", "costs.py", "gui.py"}


@pytest.mark.slow
@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_benchmark_runs_in_quick_mode(script: Path) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT / "app")}
    out = subprocess.run(
        [sys.executable, str(script), "--quick"], capture_output=True, text=True, env=env, timeout=300, cwd=ROOT
    )
    assert out.returncode == 0, out.stderr[-3000:]
    text = out.stdout
    assert "Traceback" not in out.stderr
    assert "target" in text.lower() and re.search(r"\d\s?(?:ms|s)\b|\bms\b", text), text
    assert text.strip().splitlines()[-1].strip().endswith(("PASS", "OVER TARGET")), text
