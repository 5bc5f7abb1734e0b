"""`bash scripts/dev test` installs every system package a test needs: each program a test looks up with
shutil.which (and skips without) comes from a Debian package in the script's test list, so on a bare system the test
runs instead of skipping. The whole claim is proven by packaging/linux/bare_debian_test.sh (docs/packaging.md)."""

from __future__ import annotations

import re
from pathlib import Path

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
}


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
    unknown = used - set(PROVIDED_BY)
    assert not unknown, f"tests look up {sorted(unknown)}: add their Debian packages to PROVIDED_BY and TEST_DEBS"
    missing = {p: PROVIDED_BY[p] for p in used if PROVIDED_BY[p] not in wanted}
    assert not missing, f"scripts/dev test does not install {missing}"
    # The X11 libraries the packaging test loads (libxcb, libxkbcommon-x11) are installed for tests, not only for run.
    assert debs(script, "X11_DEBS") <= wanted and "libxkbcommon-x11-0" in wanted
    assert re.search(r"^\s*test\)\n\s*ensure_debs test$", script, re.M)
