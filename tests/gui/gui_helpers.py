"""Drive the window as a user does: click a table cell where it is drawn, type into a widget, press a shortcut by its
key sequence. Each goes through Qt's event path (viewport mouse events, key events to the focused widget), so a
test built on them fails when a signal is disconnected or a shortcut is lost, where emitting the signal by hand or
triggering the action would still pass.

    from gui_helpers import choose, click, click_cell, click_link, press, type_text

`choose` opens the menus of the menu bar (or a button's menu) with the mouse down to an action and clicks it, so the
action must be in a menu, visible and enabled, as the user sees it; `click` presses a button where it is drawn.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPoint, Qt
from PySide6.QtGui import QAction, QKeySequence, QTextCursor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QCheckBox,
    QMainWindow,
    QMenu,
    QMenuBar,
    QRadioButton,
    QStyle,
    QStyleOptionButton,
    QTextBrowser,
    QTreeWidget,
    QTreeWidgetItem,
    QWidget,
)


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


def click(qtbot, widget: QWidget) -> None:  # noqa: ANN001
    """Click a button (or any widget) in its middle with the left mouse button; it must be shown and enabled, as the
    user needs it to be."""
    assert widget.isVisible(), f"{widget!r} is not on screen"
    assert widget.isEnabled(), f"{widget!r} is disabled"
    pos = widget.rect().center()
    if isinstance(widget, QCheckBox | QRadioButton):  # its box, not the middle of a wide widget's empty space
        opt = QStyleOptionButton()
        widget.initStyleOption(opt)
        element = (
            QStyle.SubElement.SE_CheckBoxIndicator
            if isinstance(widget, QCheckBox)
            else QStyle.SubElement.SE_RadioButtonIndicator
        )
        pos = widget.style().subElementRect(element, opt, widget).center()
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton, pos=pos)


def _menu_trail(menu: QMenu, action: QAction) -> list[QMenu] | None:
    """The menus from `menu` down to the one that holds `action` (submenus opened on the way)."""
    for a in menu.actions():
        if a is action:
            return [menu]
        sub = a.menu()
        if isinstance(sub, QMenu) and a.isVisible():
            trail = _menu_trail(sub, action)
            if trail is not None:
                return [menu, *trail]
    return None


def _open(qtbot, menu: QMenu) -> None:  # noqa: ANN001
    qtbot.waitUntil(menu.isVisible, timeout=2000)
    qtbot.waitExposed(menu)


def choose(qtbot, owner: QMainWindow | QMenuBar | QMenu, action: QAction) -> None:  # noqa: ANN001
    """Pick `action` with the mouse: click its top menu's title on the menu bar (or open the given popup menu where a
    button would), then each submenu's entry, then the action itself, each where it is drawn. Fails if the action
    is in no menu, hidden or disabled. An action that opens a modal dialog returns when the dialog closes, as the
    click does for the user."""
    assert action.isVisible() and action.isEnabled(), f"{action.text()!r} is hidden or disabled"
    bar = owner.menuBar() if isinstance(owner, QMainWindow) else owner
    if isinstance(bar, QMenuBar):
        assert bar.isVisible(), "the menu bar is not on screen (show the window first)"
        trail = None
        for top in bar.actions():
            sub = top.menu()
            if isinstance(sub, QMenu) and top.isVisible():
                trail = _menu_trail(sub, action)
                if trail is not None:
                    break
        assert trail is not None, f"{action.text()!r} is in no menu of the menu bar"
        rect = bar.actionGeometry(trail[0].menuAction())
        assert rect.isValid(), f"menu {trail[0].title()!r} is not on the menu bar"
        qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=rect.center())
    else:
        trail = _menu_trail(bar, action)
        assert trail is not None, f"{action.text()!r} is not in menu {bar.title()!r}"
        trail[0].popup(QPoint(0, 0))  # a button's menu opens at the button: where does not matter here
    _open(qtbot, trail[0])
    for parent, sub in zip(trail, trail[1:], strict=False):
        qtbot.mouseClick(parent, Qt.MouseButton.LeftButton, pos=parent.actionGeometry(sub.menuAction()).center())
        _open(qtbot, sub)
    last = trail[-1]
    rect = last.actionGeometry(action)
    assert rect.isValid() and last.rect().contains(rect.center()), f"{action.text()!r} is not drawn in its menu"
    qtbot.mouseClick(last, Qt.MouseButton.LeftButton, pos=rect.center())


def click_link(qtbot, view: QTextBrowser, href: str) -> None:  # noqa: ANN001
    """Click the first link to `href` in a text browser where it is drawn (scrolled into view first)."""
    doc = view.document()
    block = doc.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            frag = it.fragment()
            if frag.isValid() and frag.charFormat().anchorHref() == href:
                cursor = QTextCursor(doc)
                cursor.setPosition(frag.position() + min(1, frag.length() - 1))
                view.setTextCursor(cursor)
                view.ensureCursorVisible()
                pos = view.cursorRect(cursor).center()
                assert view.viewport().rect().contains(pos), f"link {href!r} is not on screen"
                qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=pos)
                return
            it += 1
        block = block.next()
    raise AssertionError(f"no link to {href!r} in the page")
