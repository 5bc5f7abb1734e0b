"""Drive the window as a user does: click a table cell where it is drawn, type into a widget, press a shortcut by its
key sequence. Each goes through Qt's event path (viewport mouse events, key events to the focused widget), so a
test built on them fails when a signal is disconnected or a shortcut is lost, where emitting the signal by hand or
triggering the action would still pass.

    from gui_helpers import click_cell, press, type_text
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPoint, Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QAbstractItemView, QApplication, QTreeWidget, QTreeWidgetItem, QWidget


def cell_center(view: QAbstractItemView, index: QModelIndex) -> QPoint:
    """The centre of the cell on the view's viewport, scrolled into view first; fails if the cell is not drawn."""
    view.scrollTo(index)
    rect = view.visualRect(index)
    assert rect.isValid() and view.viewport().rect().contains(rect.center()), f"cell {index} is not on screen"
    return rect.center()


def click_cell(
    qtbot,  # noqa: ANN001 - pytest-qt's fixture
    view: QAbstractItemView,
    row: int | QTreeWidgetItem,
    column: int = 0,
    *,
    double: bool = False,
    button: Qt.MouseButton = Qt.MouseButton.LeftButton,
) -> None:
    """Click (or double-click) the cell at (row, column) of `view` at its position on screen. `row` may be a
    QTreeWidget's item."""
    if isinstance(row, QTreeWidgetItem):
        assert isinstance(view, QTreeWidget)
        index = view.indexFromItem(row, column)
    else:
        model = view.model()
        assert model is not None
        index = model.index(row, column)
    assert index.isValid(), f"no cell at {row}, {column}"
    pos = cell_center(view, index)
    if double:
        # Qt's view acts on the second press of a double click: press, release, then the double-click event.
        qtbot.mouseClick(view.viewport(), button, pos=pos)
        qtbot.mouseDClick(view.viewport(), button, pos=pos)
    else:
        qtbot.mouseClick(view.viewport(), button, pos=pos)


def type_text(qtbot, widget: QWidget, text: str, *, clear: bool = True, enter: bool = False) -> None:  # noqa: ANN001
    """Focus `widget` and type `text` key by key (select-all and delete first with `clear`); Return after with
    `enter`."""
    widget.setFocus()
    if clear:
        qtbot.keyClick(widget, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
        qtbot.keyClick(widget, Qt.Key.Key_Delete)
    qtbot.keyClicks(widget, text)
    if enter:
        qtbot.keyClick(widget, Qt.Key.Key_Return)


def press(qtbot, widget: QWidget, sequence: str) -> None:  # noqa: ANN001
    """Press a shortcut as the user types it ("F1", "Ctrl+S", "Ctrl+Shift+Z") on `widget`, which gets the focus
    first (a window-wide shortcut fires from any widget of the window)."""
    keys = QKeySequence(sequence)
    assert keys.count() == 1, f"one key combination, not {sequence!r}"
    combo = keys[0]
    widget.activateWindow()
    widget.setFocus()
    QApplication.processEvents()
    qtbot.keyClick(widget, combo.key(), combo.keyboardModifiers())
