"""Issue 29: "Other" line items in the Parts tab's build table (added and edited in a real dialog, quantity and price
typed in the table, removed, each undoable), counted in the total; and the save prompt's mnemonics."""

from __future__ import annotations

import pytest
from gui_helpers import choose, click, edit_cell, pick, show_tab, type_into
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from rigplan.files import load
from rigplan.gui.files.files_controller import save_changes_prompt
from rigplan.gui.mainwindow import MainWindow
from rigplan.gui.parts.other_items import OtherItemDialog
from rigplan.model.other import OtherCategory

I5_13400F = "22546c6c-9af1-4646-a9af-0ede3444c6b7"


def _fill(qtbot, **fields: str | int | float) -> list[str]:  # noqa: ANN001
    """When the dialog opens (modal): type the fields as a user would, press OK; returns the warnings shown."""
    seen: list[str] = []

    def act() -> None:
        dlg = QApplication.activeModalWidget()
        if not isinstance(dlg, OtherItemDialog):  # the timer can fire while the click that opens it is processed
            QTimer.singleShot(10, act)
            return
        for name, value in fields.items():
            widget = getattr(dlg, name)
            if name == "category":
                pick(qtbot, widget, data=value)
            else:
                type_into(qtbot, widget, str(value))
        click(qtbot, dlg.buttons.button(dlg.buttons.StandardButton.Ok))
        if dlg.isVisible():  # refused: the dialog stays open with what was typed; the test then cancels
            seen.append(f"still open; name={dlg.name.text()!r} price={dlg.price.text()!r}")
            dlg.reject()

    QTimer.singleShot(0, act)
    return seen


def _row(window: MainWindow, index: int) -> list[str]:
    t, r = window.build_panel.table, window.build_panel.other_row(index)
    return [t.item(r, c).text() for c in range(4)]


def test_add_edit_undo_an_other_item(qtbot, window: MainWindow, monkeypatch) -> None:  # noqa: ANN001
    cpu = window.catalog.get(I5_13400F)
    assert cpu is not None and cpu.price is not None
    window.doc.add_part(cpu)
    window.doc.undo_stack.setClean()
    _fill(qtbot, name="Arctic P14 case fan", category="fan", quantity=3, price="9.99", source="shop", watts=1.5)
    qtbot.mouseClick(window.build_panel.add_other, Qt.MouseButton.LeftButton)
    item = window.doc.build.other[0]
    assert (item.name, item.category.value, item.quantity, item.watts) == ("Arctic P14 case fan", "fan", 3, 1.5)
    assert item.price is not None and (item.price.amount, item.price.currency, item.price.source) == (
        9.99,
        "USD",
        "shop",
    )
    assert _row(window, 0) == ["Case fans", "Arctic P14 case fan", "3", window.money(9.99)]
    assert f"Total: {window.money(cpu.price.amount + 3 * 9.99)}" in window.build_panel.total.text()
    assert "Case fans listed: 4.5 W, in the PSU load." in window.build_panel.power_note.text()  # fed by the PSU
    assert window.isWindowModified()
    # The quantity typed in the table: one more undoable command.
    table, r = window.build_panel.table, window.build_panel.other_row(0)
    edit_cell(qtbot, table, r, 2, "4")
    assert window.doc.build.other[0].quantity == 4
    assert f"Total: {window.money(cpu.price.amount + 4 * 9.99)}" in window.build_panel.total.text()
    # A price typed in the table, and a bad one refused with a message, the old price kept.
    edit_cell(qtbot, table, r, 3, "$12.50")
    assert window.doc.build.other[0].price.amount == 12.5  # type: ignore[union-attr]
    warned: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: warned.append(a[2]))
    edit_cell(qtbot, table, r, 3, "-5")
    assert warned and "from 0 to" in warned[0]
    assert window.doc.build.other[0].price.amount == 12.5  # type: ignore[union-attr]
    assert _row(window, 0)[3] == window.money(12.5)
    # Edit in the dialog (double-click the name), then undo each step back to the clean build.
    _fill(qtbot, name="Windows 11 Pro", category="os", price="199")
    table.scrollToItem(table.item(r, 1))
    rect = table.visualItemRect(table.item(r, 1))
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())  # a double-click's press
    qtbot.mouseDClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert _row(window, 0) == ["Operating system", "Windows 11 Pro", "4", window.money(199.0)]
    for _ in range(4):  # edit, price, quantity, add
        choose(qtbot, window, window.menus.undo)  # Edit > Undo
    assert window.doc.build.other == () and not window.isWindowModified()
    assert table.rowCount() == len(window.build_panel._rows)  # the Other row is gone with its item
    choose(qtbot, window, window.menus.redo)  # Edit > Redo
    assert _row(window, 0)[1] == "Arctic P14 case fan"
    # Removing it (select its row, then the Remove button under the table) is undoable too.
    table.scrollToItem(table.item(r, 0))
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=table.visualItemRect(table.item(r, 0)).center())
    qtbot.mouseClick(window.build_panel.remove, Qt.MouseButton.LeftButton)
    assert window.doc.build.other == ()
    choose(qtbot, window, window.menus.undo)  # Edit > Undo
    assert window.doc.build.other[0].name == "Arctic P14 case fan"


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"name": "   ", "price": "10"}, "Give the item a name"),
        ({"name": "UPS", "price": "-20"}, "Not added"),
        ({"name": "UPS", "price": "nan"}, "Not added"),
        ({"name": "UPS", "price": "1e308"}, "Not added"),
    ],
)
def test_bad_input_is_refused_and_loses_nothing(qtbot, window: MainWindow, monkeypatch, fields, message) -> None:  # noqa: ANN001
    warned: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: warned.append(a[2]))
    seen = _fill(qtbot, **fields)
    window.other_items.add()
    assert len(warned) == 1 and message in warned[0]
    assert seen and repr(fields["price"]) in seen[0]  # the dialog stayed open with the typed price
    assert window.doc.build.other == () and not window.isWindowModified()


def test_other_items_save_and_reopen(qtbot, window: MainWindow, tmp_path) -> None:  # noqa: ANN001
    _fill(qtbot, name="APC Back-UPS 1500", category="ups", price="249.99")
    window.other_items.add()
    path = tmp_path / "with-ups.rigplan"
    assert window.files.write(path, as_new=True)
    saved = load(path)
    assert saved.other[0].name == "APC Back-UPS 1500" and saved.other[0].watts is None  # not given stays unknown
    assert "format_version: 4" in path.read_text("utf-8")
    assert not window.isWindowModified()


@pytest.mark.parametrize(
    ("key", "button"),
    [
        (Qt.Key.Key_S, QMessageBox.StandardButton.Save),
        (Qt.Key.Key_D, QMessageBox.StandardButton.Discard),
        (Qt.Key.Key_C, QMessageBox.StandardButton.Cancel),
    ],
)
def test_save_prompt_mnemonics(qtbot, window: MainWindow, key: Qt.Key, button) -> None:  # noqa: ANN001
    box = save_changes_prompt(window, "My build")
    assert [box.button(b).text() for b in (box.StandardButton.Save, box.StandardButton.Discard)] == [
        "&Save",
        "&Don't Save",
    ]
    box.open()
    box.activateWindow()  # mnemonics are shortcuts of the active window
    qtbot.waitUntil(lambda: QApplication.activeWindow() is box)
    qtbot.keyClick(box, key, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(lambda: not box.isVisible())
    assert box.standardButton(box.clickedButton()) == button


def test_keyboard_delete_and_shortcut(qtbot, window: MainWindow) -> None:  # noqa: ANN001
    """Ctrl+Shift+O opens the dialog; Delete on an Other row removes that item (undoably), not a part."""
    _fill(qtbot, name="PCIe 4.0 riser cable", category="cable", price="45.99")
    qtbot.keyClick(window, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: len(window.doc.build.other) == 1)
    table = window.build_panel.table
    window.activateWindow()  # the dialog had it; Delete is a shortcut of the focused table in the active window
    table.setFocus()
    qtbot.waitUntil(table.hasFocus)
    table.setCurrentCell(window.build_panel.other_row(0), 1)
    qtbot.keyClick(table, Qt.Key.Key_Delete)
    assert window.doc.build.other == ()
    choose(qtbot, window, window.menus.undo)  # Edit > Undo
    assert window.doc.build.other[0].category is OtherCategory.CABLE


def test_edit_menu_entry_hint_and_unpriced_wording(qtbot, window: MainWindow) -> None:  # noqa: ANN001
    """Edit > Add other item... with the button's shortcut; a build of Other items only is not "empty" (no start
    hint); unpriced Other items are counted as other items, not as parts (issue 29)."""
    edit = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Edit")
    entry = next(a for a in edit.actions() if a.text() == "Add &other item...")
    assert entry.shortcut().toString() == "Ctrl+Shift+O"
    assert window.build_header.start.isVisibleTo(window)  # a new, empty build shows how to start
    _fill(qtbot, name="Windows 11 Pro", category="os")  # no price
    choose(qtbot, window, entry)  # Edit > Add other item...
    qtbot.waitUntil(lambda: len(window.doc.build.other) == 1)
    assert not window.build_header.start.isVisibleTo(window)
    assert "(1 other item without a price)" in window.build_panel.total.text()
    window.doc.add_part(window.catalog.get(I5_13400F).model_copy(update={"price": None}))
    assert "(1 part and 1 other item without a price)" in window.build_panel.total.text()
    show_tab(qtbot, window.tabs, "Costs")
    assert "1 part and 1 other item without a price" in window.costs.summary.text()
