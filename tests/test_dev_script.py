"""`bash scripts/dev test` installs every system package a test needs: each program a test looks up with
shutil.which (and skips without) comes from a Debian package in the script's test list, so on a bare system the test
runs instead of skipping. The whole claim is proven by packaging/linux/bare_debian_test.sh (docs/packaging.md)."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Program -> the Debian 12 package that ships it (`dpkg -S`); a new program in a test needs a line here.
PROVIDED_BY = {
    "pdftotext": "poppler-utils",
    "pdfimages": "poppler-utils",
    "update-mime-database": "shared-mime-info",
    "gio": "libglib2.0-bin",
    "desktop-file-validate": "desktop-file-utils",
    "appstreamcli": "appstream",
    "git": "git",
    "useradd": "passwd",
}
# Programs the tests find in the venv, installed from pyproject.toml's test extras (not Debian packages).
FROM_PYPI = {"radon"}


def debs(script: str, name: str) -> set[str]:
    """The package names of NAME="..." in scripts/dev, with $OTHER expanded."""
    value = re.search(rf'^{name}="([^"]*)"', script, re.M)
    assert value, f"{name} is not set in scripts/dev"
    out: set[str] = set()
    for word in value.group(1).split():
        out |= debs(script, word[1:]) if word.startswith("$") else {word}
    return out


def test_every_program_a_test_looks_up_is_installed_by_dev_test() -> None:
    script = (ROOT / "scripts" / "dev").read_text("utf-8")
    wanted = debs(script, "QT_DEBS") | debs(script, "TEST_DEBS")
    used = set()
    for path in (ROOT / "tests").rglob("*.py"):
        used |= set(re.findall(r'shutil\.which\("([^"]+)"\)', path.read_text("utf-8")))
    assert used, "no test looks a program up any more: this test has nothing to check"
    unknown = used - set(PROVIDED_BY) - FROM_PYPI
    assert not unknown, f"tests look up {sorted(unknown)}: add their Debian packages to PROVIDED_BY and TEST_DEBS"
    extras = (ROOT / "pyproject.toml").read_text("utf-8").split("[project.optional-dependencies]")[1].split("\n[")[0]
    assert all(f'"{p}' in extras for p in used & FROM_PYPI), "a program the tests run is not in the test extras"
    missing = {p: PROVIDED_BY[p] for p in used - FROM_PYPI if PROVIDED_BY[p] not in wanted}
    assert not missing, f"scripts/dev test does not install {missing}"
    # The X11 libraries the packaging test loads (libxcb, libxkbcommon-x11) are installed for tests, not only for run.
    assert debs(script, "X11_DEBS") <= wanted and "libxkbcommon-x11-0" in wanted
    assert re.search(r"^\s*test\)\n\s*ensure_debs test$", script, re.M)


@pytest.mark.skipif(os.name != "posix", reason="scripts/dev is a bash script")
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
