"""The GUI package stays easy to live in: modules of one job and a few hundred lines, no import cycles between the
charts and the costs view (issue 13, item 9)."""

from __future__ import annotations

import ast
from pathlib import Path

import rigplan.gui

GUI = Path(rigplan.gui.__file__).parent
MAX_LINES = 400


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
    return names


def test_no_gui_module_is_over_400_lines() -> None:
    sizes = {str(p.relative_to(GUI)): len(p.read_text().splitlines()) for p in GUI.rglob("*.py")}
    assert len(sizes) > 10
    too_big = {name: n for name, n in sizes.items() if n > MAX_LINES}
    assert not too_big, f"split these: {too_big}"


def test_charts_do_not_import_the_costs_view() -> None:
    """The view draws through the charts module; the charts take their colours from chart_style, not the view."""
    assert "rigplan.gui.costs.costs_view" not in _imports(GUI / "costs" / "charts.py")
    assert "rigplan.gui.costs.chart_style" in _imports(GUI / "costs" / "charts.py")


def test_file_reading_and_writing_lives_in_the_files_controller() -> None:
    """The window's open/save code is in one module (the file watcher and the changed-on-disk dialog hook in there)."""
    readers = {p.name for p in GUI.rglob("*.py") if {"rigplan.files"} & _imports(p)}
    assert "files_controller.py" in readers
    assert "mainwindow.py" not in readers
