"""The core runs without Qt: importing every non-GUI module must not pull in PySide6."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import rigplan


def test_core_modules_do_not_import_qt() -> None:
    modules = [
        m.name
        for m in pkgutil.walk_packages(rigplan.__path__, "rigplan.")
        if not m.name.startswith(("rigplan.gui", "rigplan._"))
    ]
    assert len(modules) > 10
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "bad = sorted(m for m in sys.modules if m.startswith(('PySide6', 'pyqtgraph', 'shiboken')))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "", f"Qt imported by the core: {out.stdout}"


def test_no_core_module_names_qt_even_lazily() -> None:
    """A lazy `from PySide6 ...` inside a function would escape the import test above: Qt code lives in gui/."""
    from pathlib import Path

    root = Path(rigplan.__file__).parent
    offenders = sorted(
        str(p.relative_to(root))
        for p in root.rglob("*.py")
        if "gui" not in p.relative_to(root).parts and ("PySide6" in p.read_text() or "pyqtgraph" in p.read_text())
    )
    assert offenders == []
