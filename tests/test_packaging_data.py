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


def test_every_cli_command_module_is_a_hidden_import() -> None:
    """The CLI imports its command modules by name (rigplan.cli.main.COMMAND_MODULES), which PyInstaller cannot
    follow: each must be listed, or the frozen `rigplan-cli` lacks that command."""
    from rigplan.cli.main import COMMAND_MODULES

    spec = (ROOT / "packaging" / "rigplan.spec").read_text()
    missing = [m for m in COMMAND_MODULES if f'"rigplan.cli.{m}"' not in spec]
    assert missing == []


def test_gpuhunt_licence_ships() -> None:
    """gpuhunt is MPL-2.0: its licence travels with the bundle. The spec copies gpuhunt's metadata folder
    (PyInstaller's copy_metadata collects the whole .dist-info), and that folder holds the MPL-2.0 text."""
    from importlib.metadata import distribution

    spec = (ROOT / "packaging" / "rigplan.spec").read_text()
    assert 'copy_metadata("gpuhunt")' in spec
    dist = distribution("gpuhunt")
    licences = [f for f in dist.files or () if ".dist-info/" in str(f) and "LICENSE" in f.name.upper()]
    assert licences, "gpuhunt's metadata no longer carries its licence: ship it another way"
    assert "Mozilla Public License" in licences[0].read_text(encoding="utf-8")
