"""scripts/dev, the README's run command, as a newcomer meets it (issue 29)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(shutil.which("bash") is None or os.name != "posix", reason="scripts/dev is a bash script")
def test_run_without_a_display_says_so_in_one_place() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    done = subprocess.run(
        ["bash", "scripts/dev", "run"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 2
    lines = [ln for ln in done.stderr.splitlines() if "no display" in ln]
    assert len(lines) == 1 and "DISPLAY" in lines[0]
    assert "xcb" not in done.stderr and "Aborted" not in done.stderr  # never Qt's own abort


def test_the_frozen_entry_sets_a_utf8_locale_when_none_is_set() -> None:
    code = (ROOT / "packaging" / "rigplan_entry.py").read_text("utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("LANG", "LC_ALL", "LC_CTYPE")}
    env["PYTHONCOERCECLOCALE"] = "0"  # as in the frozen app: no PEP 538 coercion to hide the gap
    probe = code.replace("from rigplan.__main__ import main  # noqa: E402", "main = None").replace(
        'if __name__ == "__main__":\n    sys.exit(main())', 'print(os.environ.get("LC_CTYPE"))'
    )
    done = subprocess.run(["python3", "-c", probe], env=env, capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "C.UTF-8"
