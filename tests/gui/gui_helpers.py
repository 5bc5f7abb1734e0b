"""Drive the window as a user does: click a table cell where it is drawn, type into a widget, press a shortcut by its
key sequence. Each goes through Qt's event path (viewport mouse events, key events to the focused widget), so a
test built on them fails when a signal is disconnected or a shortcut is lost, where emitting the signal by hand or
triggering the action would still pass.

    from gui_helpers import choose, click, click_cell, edit_cell, pick, press, run_dialog, tick, type_into, ...

`choose` opens the menus of the menu bar (or a button's menu) with the mouse down to an action and clicks it, so the
action must be in a menu, visible and enabled, as the user sees it; `click` presses a button where it is drawn.
`pick` opens a combo box with a click and picks an item with the keys; `type_into` types a value into a spin box or
line edit and leaves it with Tab or Return (so editingFinished fires as for a user); `tick` clicks a check box on or
off; `show_tab` clicks a tab's title on its tab bar; `edit_cell` double-clicks a table cell, types and commits with
Return; `check_cell` ticks a checkable cell with a click and Space; `sort_by` clicks a column header; `paste_into`
pastes with Ctrl+V; `run_dialog` stands in for a dialog's exec(): it shows the dialog and lets the test press its
buttons. Each scrolls its widget into view in a scroll area first and fails when the widget is hidden or disabled, as
it would be for the user. A direct setter stays only where no user input is meant (set-up, a value no one can type),
with a comment saying so.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QModelIndex, QPoint, Qt
from PySide6.QtGui import QAction, QKeySequence, QTextCursor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QAbstractSpinBox,
    QApplication,
    QCheckBox,
    QComboBox,
    QDialog,
    QLineEdit,
    QMainWindow,
    QMenu,
    QMenuBar,
    QRadioButton,
    QScrollArea,
    QStyle,
    QStyleOptionButton,
    QTabWidget,
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


def edit_cell(qtbot, view: QAbstractItemView, row: int, column: int, text: str) -> None:  # noqa: ANN001
    """Type `text` into a table cell as the user does: a double-click opens its editor (F2 is the window's Rename),
    select all, type, Return commits. Fails when the cell opens no editor."""
    _activate(qtbot, view)
    click_cell(qtbot, view, row, column, double=True)
    qtbot.waitUntil(lambda: view.state() == QAbstractItemView.State.EditingState, timeout=2000)
    editor = QApplication.focusWidget()
    assert editor is not None and view.isAncestorOf(editor), "the cell's editor did not take the focus"
    qtbot.keyClick(editor, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(editor, text)
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: view.state() != QAbstractItemView.State.EditingState, timeout=2000)


def check_cell(
    qtbot,  # noqa: ANN001 - pytest-qt's fixture
    view: QAbstractItemView,
    row: int,
    column: int = 0,
    on: bool = True,
) -> None:
    """Tick (or untick) a checkable cell as the user does from the keyboard: click the cell, then Space when the
    click left it in the other state. Fails unless the cell ends in the state asked for."""
    model = view.model()
    assert model is not None
    index = model.index(row, column)
    want = Qt.CheckState.Checked if on else Qt.CheckState.Unchecked

    def state() -> Qt.CheckState:
        return Qt.CheckState(index.data(Qt.ItemDataRole.CheckStateRole))

    click_cell(qtbot, view, row, column)
    if state() != want:
        qtbot.keyClick(view, Qt.Key.Key_Space)
    assert state() == want, f"cell {row}, {column} did not turn {'on' if on else 'off'}"


def sort_by(qtbot, view: QAbstractItemView, column: int, order: Qt.SortOrder) -> None:  # noqa: ANN001
    """Sort a table by clicking its column's header (a second click when the first sorted the other way)."""
    header = view.horizontalHeader()  # type: ignore[attr-defined]
    assert header.isVisible() and header.isSectionHidden(column) is False, f"column {column} is not on screen"
    for _ in range(2):
        x = header.sectionViewportPosition(column) + header.sectionSize(column) // 2
        assert 0 <= x < header.viewport().width(), f"column {column} is scrolled out of view"
        qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, header.height() // 2))
        if header.sortIndicatorSection() == column and header.sortIndicatorOrder() == order:
            return
    raise AssertionError(f"clicking header {column} did not sort {order}")


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


def reveal(widget: QWidget) -> None:
    """Scroll `widget` into view in every scroll area that holds it (the user scrolls to a field before using it)."""
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QScrollArea):
            parent.ensureWidgetVisible(widget)
        parent = parent.parentWidget()


def click(qtbot, widget: QWidget) -> None:  # noqa: ANN001
    """Click a button (or any widget) in its middle with the left mouse button; it must be shown and enabled, as the
    user needs it to be."""
    reveal(widget)
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


def tick(qtbot, box: QCheckBox, on: bool = True) -> None:  # noqa: ANN001
    """Click the check box so it ends `on` (no click when it already is); fails when the click does not toggle it."""
    if box.isChecked() != on:
        click(qtbot, box)
    assert box.isChecked() == on, f"{box.text()!r} did not turn {'on' if on else 'off'} when clicked"


def _activate(qtbot, widget: QWidget) -> None:  # noqa: ANN001
    """Make `widget`'s window the active one (as the user's click on it does), so the keyboard focus can go there."""
    window = widget.window()
    if not window.isActiveWindow():
        window.activateWindow()
        qtbot.waitUntil(window.isActiveWindow, timeout=2000)


def _focus(qtbot, widget: QWidget) -> None:  # noqa: ANN001
    """Give `widget` the keyboard focus with the window active, as a click or Tab would."""
    reveal(widget)
    assert widget.isVisible(), f"{widget!r} is not on screen"
    assert widget.isEnabled(), f"{widget!r} is disabled"
    _activate(qtbot, widget)
    widget.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(widget.hasFocus, timeout=2000)


def type_into(qtbot, widget: QAbstractSpinBox | QLineEdit, text: object, *, leave: str = "Tab") -> None:  # noqa: ANN001
    """Type `text` into a spin box or line edit as the user does: focus it, select what it holds (a spin box's
    prefix and suffix stay), type key by key, then leave with Tab (moves the focus on) or Return (stays; in a dialog
    Return also presses the default button). Fails unless editingFinished fires, as it does for the user."""
    assert leave in ("Tab", "Return"), leave
    _focus(qtbot, widget)
    qtbot.keyClick(widget, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)  # select all
    if isinstance(widget, QLineEdit):
        qtbot.keyClick(widget, Qt.Key.Key_Delete)
    key = Qt.Key.Key_Tab if leave == "Tab" else Qt.Key.Key_Return
    with qtbot.waitSignal(widget.editingFinished, timeout=2000):
        qtbot.keyClicks(widget, str(text))
        qtbot.keyClick(widget, key)


def paste_into(qtbot, widget: QWidget, text: str) -> None:  # noqa: ANN001
    """Paste `text` as the user does: it goes on the clipboard, the widget gets the focus, Ctrl+A then Ctrl+V."""
    QApplication.clipboard().setText(text)
    _focus(qtbot, widget)
    qtbot.keyClick(widget, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(widget, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)


def pick(qtbot, combo: QComboBox, text: str | None = None, *, data: object = None) -> None:  # noqa: ANN001
    """Pick the item shown as `text` (or holding `data`) in a combo box as the user does: click the box to open
    its list, move to the item with the arrow keys, press Return. Fails when the item is missing or disabled."""
    index = combo.findText(text) if text is not None else combo.findData(data)
    assert index >= 0, f"no item {text if text is not None else data!r} in the box (has {_items(combo)})"
    reveal(combo)
    assert combo.isVisible(), f"{combo!r} is not on screen"
    assert combo.isEnabled(), f"{combo!r} is disabled"
    view = combo.view()
    qtbot.mouseClick(combo, Qt.MouseButton.LeftButton, pos=combo.rect().center())
    qtbot.waitUntil(view.isVisible, timeout=2000)
    qtbot.keyClick(view, Qt.Key.Key_Home)
    for _ in range(combo.count()):
        row = view.currentIndex().row()
        if row == index:
            break
        qtbot.keyClick(view, Qt.Key.Key_Down if row < index else Qt.Key.Key_Up)
        assert view.currentIndex().row() != row, f"the arrow keys cannot reach item {index} (disabled?)"
    qtbot.keyClick(view, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not view.isVisible(), timeout=2000)
    QApplication.processEvents()  # the platform's queued activation of the list, now hidden, arrives here
    _activate(qtbot, combo)  # the window gets its activation back, as a desktop's window manager gives it
    assert combo.currentIndex() == index, f"picked {combo.currentText()!r}, wanted item {index}"


def _items(combo: QComboBox) -> list[str]:
    return [combo.itemText(i) for i in range(combo.count())]


def show_tab(qtbot, tabs: QTabWidget, title: str) -> None:  # noqa: ANN001
    """Click the tab titled `title` (its mnemonic '&' ignored) on the tab bar."""
    bar = tabs.tabBar()
    titles = [tabs.tabText(i).replace("&", "") for i in range(tabs.count())]
    assert title in titles, f"no tab {title!r} (has {titles})"
    index = titles.index(title)
    assert bar.isVisible(), "the tab bar is not on screen"
    rect = bar.tabRect(index)
    assert rect.isValid() and bar.rect().contains(rect.center()), f"tab {title!r} is not drawn"
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=rect.center())
    assert tabs.currentIndex() == index, f"tab {title!r} did not open"


def open_costs(qtbot, window: QMainWindow, *, assumptions: bool = True) -> None:  # noqa: ANN001
    """Click the main window's Costs tab and, with `assumptions`, open its Assumptions panel by its button when the
    tab folded it on first show (a folded panel's fields take no click or key)."""
    show_tab(qtbot, window.tabs, "Costs")  # type: ignore[attr-defined]
    costs = window.costs  # type: ignore[attr-defined]
    qtbot.waitUntil(lambda: costs._sized, timeout=5000)  # the tab's first layout, which may fold the panel
    if assumptions and costs.side.isHidden():
        click(qtbot, costs.side.button)
    assert not assumptions or costs.form.isVisible()


def run_dialog(qtbot, dialog: QDialog, drive: Callable[[QDialog], object]) -> int:  # noqa: ANN001
    """A stand-in for `dialog.exec()` (monkeypatch it in): show the dialog, let `drive` use it as the user does (it
    must end by pressing a button that closes it), return its result. Fails if `drive` leaves it open."""
    dialog.show()
    qtbot.waitExposed(dialog)
    drive(dialog)
    qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=5000)
    return dialog.result()


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
