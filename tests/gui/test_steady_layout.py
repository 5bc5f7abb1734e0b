"""Issue 40, major 1: the Parts tab never moves under the pointer, and removing a line needs its own deliberate
click (or Delete), undoable and said aloud. Driven with real clicks at the cells' positions on a 1280x720 window."""

from __future__ import annotations

from pathlib import Path

from gui_helpers import choose
from PySide6.QtCore import Qt

from rigplan.gui.mainwindow import MainWindow
from rigplan.model import Kind


def _row(window: MainWindow, label: str) -> int:
    t = window.build_panel.table
    return next(r for r in range(t.rowCount()) if t.item(r, 0).text() == label)


def _geometry(window: MainWindow) -> tuple[int, ...]:
    t = window.build_panel.table
    return (t.width(), *(t.columnViewportPosition(c) for c in range(t.columnCount())))


def test_double_click_on_gpu_quantity_keeps_the_gpus_and_the_layout(
    qtbot, window: MainWindow, examples_dir: Path
) -> None:  # noqa: ANN001
    window.resize(1280, 720)
    window.files.open_path(examples_dir / "2x-rtx-4090.rigplan", ask=False)
    table = window.build_panel.table
    table.setCurrentCell(_row(window, "CPU"), 0)  # the picker shows CPUs: no add/replace choice yet
    qtbot.wait(200)
    before = _geometry(window)
    gpus = window.doc.build.count(Kind.GPU)
    assert gpus == 2
    pos = table.visualItemRect(table.item(_row(window, "GPU"), 2)).center()
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=pos)  # first click: the GPU row...
    qtbot.wait(200)
    assert window.picker.target.offers_choice()  # ...shows "Add another GPU / Replace GPU n"
    assert _geometry(window) == before  # and nothing moved (it narrowed the table by 132 px before)
    qtbot.mouseDClick(table.viewport(), Qt.MouseButton.LeftButton, pos=pos)  # second click: a double-click
    qtbot.wait(200)
    assert window.doc.build.count(Kind.GPU) == gpus
    assert _geometry(window) == before
    assert table.state() == table.State.EditingState  # the quantity editor, as a double-click on it means
    assert table.columnCount() == 4  # no remove cell anywhere a double-click can land


def test_remove_button_and_delete_remove_the_selected_line_undoably(
    qtbot, window: MainWindow, examples_dir: Path
) -> None:  # noqa: ANN001
    window.files.open_path(examples_dir / "2x-rtx-4090.rigplan", ask=False)
    panel, table = window.build_panel, window.build_panel.table
    table.setCurrentCell(-1, -1)
    assert not panel.remove.isEnabled()
    row = _row(window, "GPU")
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=table.visualItemRect(table.item(row, 1)).center())
    assert panel.remove.isEnabled() and "RTX 4090" in panel.remove.toolTip()
    qtbot.mouseClick(panel.remove, Qt.MouseButton.LeftButton)
    assert window.doc.build.count(Kind.GPU) == 0
    said = window.statusBar().currentMessage()
    assert said.startswith("Remove NVIDIA Founders Edition GeForce RTX 4090") and "Ctrl+Z" in said
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.doc.build.count(Kind.GPU) == 2
    # Delete on the focused table removes the selected line too
    row = _row(window, "Power supply")
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=table.visualItemRect(table.item(row, 0)).center())
    table.setFocus()
    qtbot.keyClick(table, Qt.Key.Key_Delete)
    assert window.doc.build.first(Kind.PSU) is None
    choose(qtbot, window, window.menus.undo)  # Edit > Undo
    assert window.doc.build.first(Kind.PSU) is not None


def test_power_bar_without_a_psu_is_empty_and_says_so(qtbot, window: MainWindow, examples_dir: Path) -> None:  # noqa: ANN001
    window.files.open_path(examples_dir / "2x-rtx-4090.rigplan", ask=False)
    table = window.build_panel.table
    bar = window.build_panel.power
    assert bar.text() == "1,422 W to size for, of a 1,600 W PSU" and bar.value() == 1422
    table.setCurrentCell(_row(window, "Power supply"), 1)
    qtbot.mouseClick(window.build_panel.remove, Qt.MouseButton.LeftButton)
    power = window.report.power
    assert power is not None and power.psu_w is None
    assert bar.text() == f"{power.sizing_w:,.0f} W to size for; no PSU chosen yet"
    assert bar.value() == 0  # nothing drawn against a PSU that is not there
