"""The core runs without Qt: importing every module outside rigplan.gui and the render seam (rigplan.render) must not
pull in PySide6."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import rigplan


def test_core_modules_do_not_import_qt() -> None:
    modules = [
        m.name
        for m in pkgutil.walk_packages(rigplan.__path__, "rigplan.")
        if not m.name.startswith(("rigplan.gui", "rigplan.render", "rigplan._"))
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
    """A lazy `from PySide6 ...` inside a function would escape the import test above: Qt code lives in gui/ and in
    the one named render seam (render/, PDF and chart images for the GUI and the CLI)."""
    from pathlib import Path

    root = Path(rigplan.__file__).parent
    offenders = sorted(
        str(p.relative_to(root))
        for p in root.rglob("*.py")
        if p.relative_to(root).parts[0] not in {"gui", "render"}
        and ("PySide6" in p.read_text() or "pyqtgraph" in p.read_text())
    )
    assert offenders == []


def test_the_cli_draws_through_the_render_seam_never_the_gui() -> None:
    """`rigplan export --format pdf|png|svg` draws with rigplan.render; nothing in cli/ or render/ imports the GUI."""
    import ast
    from pathlib import Path

    root = Path(rigplan.__file__).parent
    importers = set()
    for p in [*(root / "cli").rglob("*.py"), *(root / "render").rglob("*.py")]:
        for node in ast.walk(ast.parse(p.read_text())):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            names += [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if any(n == "rigplan.gui" or n.startswith("rigplan.gui.") for n in names):
                importers.add(str(p.relative_to(root)))
    assert importers == set()
    assert "rigplan.render" in (root / "cli" / "export.py").read_text()
