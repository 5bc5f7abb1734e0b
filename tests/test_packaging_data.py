"""Every data file the app reads at run time from parts/ ships in the frozen bundle (a missing one breaks the
installed app only: the source checkout has them all)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_runtime_data_files_are_in_the_pyinstaller_spec() -> None:
    spec = (ROOT / "packaging" / "rigplan.spec").read_text()
    read = set()
    for path in (ROOT / "app" / "rigplan").rglob("*.py"):
        read |= set(re.findall(r'parts_dir\(\) / "([a-z_]+\.(?:yaml|json))"', path.read_text()))
    assert {"platforms.yaml", "gpu_perf.yaml"} <= read
    missing = sorted(name for name in read if f'PARTS / "{name}"' not in spec)
    assert missing == []
    assert '(PARTS.parent / "examples").glob("*.rigplan")' in spec
