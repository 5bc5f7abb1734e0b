"""The part picker's friction points (issue 13 item 6), driven through the real widgets and the real catalog."""

from __future__ import annotations

from pathlib import Path

from gui_helpers import click_cell, pick, sort_by, tick
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QStyle

from rigplan.gui.mainwindow import MainWindow
from rigplan.model import Kind


def type_search(qtbot, w: MainWindow, text: str) -> None:  # noqa: ANN001
    w.picker.search.clear()
    qtbot.keyClicks(w.picker.search, text)
    qtbot.keyClick(w.picker.search, Qt.Key.Key_Return)


def shown_rows(w: MainWindow) -> list[int]:
    p = w.picker.proxy
    return [p.mapToSource(p.index(r, 0)).row() for r in range(p.rowCount())]


def test_numeric_filters_like_the_cli_where(qtbot, window: MainWindow) -> None:  # noqa: ANN001
    pick(qtbot, window.picker.kind_box, data=Kind.GPU)
    type_search(qtbot, window, "vram>=16 length<=330 price<=800")
    cols = window.catalog.table(Kind.GPU).columns
    rows = shown_rows(window)
    assert 0 < len(rows) < len(window.catalog.table(Kind.GPU))
    for i in rows:
        assert cols["vram_gb"][i] >= 16 and cols["length_mm"][i] <= 330 and cols["price"][i]["amount"] <= 800
    # the CLI's own filter gives the same parts
    cli = window.catalog.search(Kind.GPU, "", ["vram_gb>=16", "length_mm<=330", "price.amount<=800"])
    compatible = {window.catalog.table(Kind.GPU).part(i).id for i in rows}
    assert compatible <= {p.id for p in cli}
    tick(qtbot, window.picker.compatible_only, False)
    assert {window.catalog.table(Kind.GPU).part(i).id for i in shown_rows(window)} == {p.id for p in cli}
    type_search(qtbot, window, "rtx vram >= 24gb")  # spaces and units are fine
    assert all(cols["vram_gb"][i] >= 24 and "rtx" in cols["name"][i].lower() for i in shown_rows(window))
    type_search(qtbot, window, "colour=red")
    assert "No field called 'colour'" in window.picker.empty_hint.text() and window.picker.empty_hint.isVisible()


def test_search_and_sort_are_kept_per_slot(qtbot, window: MainWindow) -> None:  # noqa: ANN001
    p = window.picker
    pick(qtbot, p.kind_box, data=Kind.GPU)
    type_search(qtbot, window, "4090")
    gpu_rows = shown_rows(window)
    sort_by(qtbot, p.view, 1, Qt.SortOrder.DescendingOrder)  # VRAM
    pick(qtbot, p.kind_box, data=Kind.CPU)
    assert p.search.text() == "" and p.proxy.rowCount() > 100  # not the GPU search, not an empty list
    type_search(qtbot, window, "ryzen")
    pick(qtbot, p.kind_box, data=Kind.GPU)
    assert p.search.text() == "4090" and sorted(shown_rows(window)) == sorted(gpu_rows)
    header = p.view.horizontalHeader()
    assert header.sortIndicatorSection() == 1 and header.sortIndicatorOrder() == Qt.SortOrder.DescendingOrder
    pick(qtbot, p.kind_box, data=Kind.CPU)
    assert p.search.text() == "ryzen"


def test_parts_that_would_add_an_error_are_marked(qtbot, window: MainWindow, examples_dir: Path) -> None:  # noqa: ANN001
    window.files.open_path(examples_dir / "budget-1-gpu.rigplan", ask=False)  # an AM5 board
    p = window.picker
    pick(qtbot, p.kind_box, data=Kind.CPU)
    type_search(qtbot, window, "5800X")  # AM4: does not fit
    assert p.proxy.rowCount() == 0
    tick(qtbot, p.compatible_only, False)
    assert p.proxy.rowCount() > 0
    index = p.proxy.index(0, 0)
    assert not index.data(Qt.ItemDataRole.DecorationRole).isNull()
    tip = index.data(Qt.ItemDataRole.ToolTipRole)  # issue 29: the rule and both sockets, not "an error"
    assert "Would add to this build: [" in tip and "AM4" in tip and "AM5" in tip, tip
    type_search(qtbot, window, "7600")  # AM5: fits, no mark
    fits = [p.proxy.index(r, 0) for r in range(p.proxy.rowCount())]
    assert any(ix.data(Qt.ItemDataRole.DecorationRole) is None for ix in fits)


def test_add_button_enter_and_readable_names(qtbot, window: MainWindow) -> None:  # noqa: ANN001
    p = window.picker
    pick(qtbot, p.kind_box, data=Kind.GPU)
    type_search(qtbot, window, "4090 strix")
    assert not p.add_button.isEnabled()
    click_cell(qtbot, p.view, 0)
    assert p.add_button.isEnabled() and p.add_button.isVisible()
    qtbot.mouseClick(p.add_button, Qt.MouseButton.LeftButton)
    assert window.doc.build.count(Kind.GPU) == 1
    p.view.setFocus()
    qtbot.keyClick(p.view, Qt.Key.Key_Return)
    assert window.doc.build.count(Kind.GPU) == 2
    name = p.proxy.index(0, 0)
    assert name.data(Qt.ItemDataRole.ToolTipRole) == name.data()  # the full name, however narrow the column
    assert p.view.textElideMode() == Qt.TextElideMode.ElideRight and p.view.wordWrap()  # issue 40: two lines
    assert p.view.columnWidth(0) >= p.view.width() * 0.3


def test_findings_use_standard_icons_not_emoji(qtbot, window: MainWindow, examples_dir: Path) -> None:  # noqa: ANN001
    window.files.open_path(examples_dir / "broken" / "cpu-socket.rigplan", ask=False)
    tree = window.findings
    items = [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())]
    errors = [i for i in items if i.toolTip(0).startswith("Error:")]
    assert errors
    critical = tree.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxCritical).pixmap(16).toImage()
    for item in errors:
        assert not item.icon(0).isNull()
        assert item.icon(0).pixmap(16).toImage() == critical  # the style's own error icon
        assert not any(ch in item.text(0) for ch in "⛔⚠ℹ")
