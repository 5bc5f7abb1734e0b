"""Issue 29, Major 4: the picker. Filters accept the headers the table shows (x16, slots, gb, with units) and name
an unknown term; Tab leaves the list and Down in the search box enters it; the default order is one a buyer means."""

from __future__ import annotations

from gui_helpers import pick, sort_by, tick
from PySide6.QtCore import Qt

from rigplan.gui.mainwindow import MainWindow
from rigplan.model import Kind


def type_search(qtbot, w: MainWindow, text: str) -> None:  # noqa: ANN001
    w.picker.search.clear()
    qtbot.keyClicks(w.picker.search, text)
    qtbot.keyClick(w.picker.search, Qt.Key.Key_Return)


def shown_rows(w: MainWindow) -> list[int]:
    p = w.picker.proxy
    return [p.mapToSource(p.index(r, 0)).row() for r in range(p.rowCount())]


def _shown(w: MainWindow, header: str) -> list[object]:
    model = w.picker.model_for(w.picker.kind)
    col = next(n for n, c in enumerate(model.columns) if c[0] == header)
    return [model._values[r][col] for r in shown_rows(w)]


def test_filters_take_the_table_headers(qtbot, window: MainWindow) -> None:  # noqa: ANN001
    tick(qtbot, window.picker.compatible_only, False)
    pick(qtbot, window.picker.kind_box, data=Kind.MOTHERBOARD)
    everything = window.picker.proxy.rowCount()
    type_search(qtbot, window, "x16>=2")
    x16 = _shown(window, "x16")
    assert 0 < len(x16) < everything and all(v is not None and v >= 2 for v in x16)
    type_search(qtbot, window, "slots>=4")
    slots = _shown(window, "Slots")
    assert 0 < len(slots) < everything and all(v >= 4 for v in slots)  # the board's memory slots, as shown
    assert "No field" not in window.picker.empty_hint.text()
    pick(qtbot, window.picker.kind_box, data=Kind.MEMORY)
    for text in ("gb>=128", "gb >= 128GB", "GB>=128 gb"):
        type_search(qtbot, window, text)
        gb = _shown(window, "GB")
        assert gb and all(v >= 128 for v in gb), text
    pick(qtbot, window.picker.kind_box, data=Kind.CASE)
    type_search(qtbot, window, "gpu_max>=400")
    assert all(v >= 400 for v in _shown(window, "GPU max"))


def test_an_unknown_term_is_named(qtbot, window: MainWindow) -> None:  # noqa: ANN001
    pick(qtbot, window.picker.kind_box, data=Kind.MOTHERBOARD)
    type_search(qtbot, window, "x16>=2 pcie5>=1")
    hint = window.picker.empty_hint
    assert hint.isVisible() and "'pcie5'" in hint.text() and "not applied" in hint.text() and "x16" in hint.text()
    assert all(v >= 2 for v in _shown(window, "x16"))  # the known term still applies


def test_tab_leaves_the_list_and_down_enters_it(qtbot, window: MainWindow) -> None:  # noqa: ANN001
    p = window.picker
    pick(qtbot, p.kind_box, data=Kind.CPU)
    p.search.setFocus()
    qtbot.waitUntil(p.search.hasFocus)
    qtbot.keyClick(p.search, Qt.Key.Key_Down)
    assert p.view.hasFocus() and p.view.currentIndex().row() == 0
    qtbot.keyClick(p.view, Qt.Key.Key_Tab)
    assert not p.view.hasFocus()
    p.view.setFocus()
    qtbot.keyClick(p.view, Qt.Key.Key_Backtab)
    assert not p.view.hasFocus()


def test_default_order_and_the_users_choice_kept(qtbot, window: MainWindow) -> None:  # noqa: ANN001
    from PySide6.QtCore import QSettings

    p = window.picker
    tick(qtbot, p.compatible_only, False)
    pick(qtbot, p.kind_box, data=Kind.CPU)
    model = p.model_for(Kind.CPU)
    first = [p.proxy.index(r, model.price_col).data(Qt.ItemDataRole.UserRole) for r in range(20)]
    assert all(v is not None for v in first) and first == sorted(first)  # priced parts, lowest price first
    pick(qtbot, p.kind_box, data=Kind.GPU)
    gpu = p.model_for(Kind.GPU)
    col = next(n for n, c in enumerate(gpu.columns) if c[0] == "Speed/$1k")
    top = [p.proxy.index(r, col).data(Qt.ItemDataRole.UserRole) for r in range(10)]
    assert all(v is not None for v in top) and top == sorted(top, reverse=True)  # most speed per money first
    sort_by(qtbot, p.view, 2, Qt.SortOrder.DescendingOrder)  # the user sorts GPUs by VRAM
    window.doc.undo_stack.setClean()
    window.save_settings()
    again = MainWindow(
        window.catalog,
        window.costs.offers,
        window.costs.perf,
        QSettings(window.settings.store.fileName(), QSettings.Format.IniFormat),
    )
    qtbot.addWidget(again, before_close_func=lambda w: w.doc.undo_stack.setClean())
    again.show()
    qtbot.waitExposed(again)
    pick(qtbot, again.picker.kind_box, data=Kind.GPU)
    header = again.picker.view.horizontalHeader()
    assert (header.sortIndicatorSection(), header.sortIndicatorOrder()) == (2, Qt.SortOrder.DescendingOrder)
