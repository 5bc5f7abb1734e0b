"""What a build change does to the part picker on screen: only the rows whose warning mark changed are announced, the
rows are not repainted when nothing they show changed, and the list, its order, selection and scroll stay put.

A part change used to repaint every visible row of the picker (the benchmark's p95 went from 6.6-15.2 ms to 29.7 ms,
docs/performance.md); these pin the behaviour that kept the fix honest. No timing here: benchmarks/gui.py measures.
"""

from __future__ import annotations

from pathlib import Path

from gui_helpers import pick
from PySide6.QtCore import QEvent, QObject, QPoint, Qt
from PySide6.QtTest import QSignalSpy
from PySide6.QtWidgets import QApplication

from rigplan.gui.mainwindow import MainWindow
from rigplan.model import Kind
from rigplan.rules import compatible

DECORATION = Qt.ItemDataRole.DecorationRole


class PaintCount(QObject):
    """Counts the paint events a widget receives."""

    def __init__(self, widget: QObject) -> None:
        super().__init__()
        self.n = 0
        widget.installEventFilter(self)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802
        if event.type() == QEvent.Type.Paint:
            self.n += 1
        return False


def settle(qtbot) -> None:  # noqa: ANN001
    for _ in range(3):
        QApplication.processEvents()
    qtbot.wait(20)


def undo(qtbot, w: MainWindow) -> None:  # noqa: ANN001
    """Edit > Undo with the keyboard: the build change under test, made as a user makes it."""
    qtbot.keyClick(w, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)


def marked(w: MainWindow) -> set[int]:
    """Source rows of the parts the picker shows with the warning sign."""
    p = w.picker.proxy
    return {p.mapToSource(p.index(r, 0)).row() for r in range(p.rowCount()) if p.index(r, 0).data(DECORATION)}


def incompatible(w: MainWindow) -> set[int]:
    table = w.catalog.table(w.picker.kind)
    return set(range(len(table))) - set(compatible(w.doc.build, w.picker.kind, w.catalog))


def shown_rows(w: MainWindow) -> list[int]:
    p = w.picker.proxy
    return [p.mapToSource(p.index(r, 0)).row() for r in range(p.rowCount())]


def cpus_with_all_shown(qtbot, w: MainWindow, examples: Path) -> None:  # noqa: ANN001
    w.files.open_path(examples / "budget-1-gpu.rigplan", ask=False)  # an AM5 board: AM4 and Intel CPUs are marked
    pick(qtbot, w.picker.kind_box, data=Kind.CPU)
    qtbot.mouseClick(w.picker.compatible_only, Qt.MouseButton.LeftButton)  # untick: every CPU, the misfits marked
    assert not w.picker.compatible_only.isChecked()
    settle(qtbot)


def test_no_mark_changed_nothing_announced_or_repainted(qtbot, window: MainWindow, examples_dir: Path) -> None:  # noqa: ANN001
    w = window
    cpus_with_all_shown(qtbot, w, examples_dir)
    before = marked(w)
    assert before == incompatible(w) and 0 < len(before) < w.picker.proxy.rowCount()
    drive = w.catalog.table(Kind.STORAGE).part(0)
    w.doc.add_part(drive)  # a drive changes nothing a CPU is checked against
    settle(qtbot)
    assert incompatible(w) == before  # the premise: the same CPUs would add an error
    spy = QSignalSpy(w.picker.proxy.dataChanged)
    paints = PaintCount(w.picker.view.viewport())
    undo(qtbot, w)  # the drive goes: a build change
    settle(qtbot)
    assert drive.id not in {i.part.id for i in w.doc.build.items}
    assert spy.count() == 0  # no row's mark changed: nothing announced (it was one range over every row)
    assert paints.n == 0  # and the picker's rows were not repainted (they were, in full, on every change)
    assert marked(w) == before


def test_only_rows_whose_mark_changed_are_announced(qtbot, window: MainWindow, examples_dir: Path) -> None:  # noqa: ANN001
    w = window
    cpus_with_all_shown(qtbot, w, examples_dir)
    with_board = marked(w)
    w.doc.remove_item(w.doc.index_of_kind(Kind.MOTHERBOARD))
    settle(qtbot)
    without_board = marked(w)
    assert without_board == incompatible(w) and without_board != with_board
    spy = QSignalSpy(w.picker.proxy.dataChanged)
    undo(qtbot, w)  # the AM5 board is back: the AM4 and Intel CPUs are marked again
    settle(qtbot)
    p = w.picker.proxy
    changed = {p.mapFromSource(p.sourceModel().index(s, 0)).row() for s in with_board ^ without_board}
    announced: set[int] = set()
    longest = 0
    for n in range(spy.count()):
        top, bottom, roles = spy.at(n)
        longest = max(longest, bottom.row() - top.row() + 1)
        assert top.column() == bottom.column() == 0 and set(roles) == {DECORATION, Qt.ItemDataRole.ToolTipRole}
        span = set(range(top.row(), bottom.row() + 1))
        assert span <= changed, "a range announced a row whose mark did not change"
        assert not span & announced
        announced |= span
    assert announced == changed
    assert longest < p.rowCount()  # it was one range over every row
    assert marked(w) == incompatible(w) == with_board  # the marks on screen are exactly the misfits
    tip = p.index(shown_rows(w).index(min(with_board)), 0).data(Qt.ItemDataRole.ToolTipRole)
    assert "Would add to this build: [" in tip


def test_selection_scroll_and_order_are_kept(qtbot, window: MainWindow, examples_dir: Path) -> None:  # noqa: ANN001
    w = window
    w.files.open_path(examples_dir / "budget-1-gpu.rigplan", ask=False)
    p, view = w.picker, w.picker.view
    pick(qtbot, p.kind_box, data=Kind.CPU)
    settle(qtbot)
    assert p.compatible_only.isChecked()
    order = shown_rows(w)
    assert set(order) == set(compatible(w.doc.build, Kind.CPU, w.catalog))  # the filter: fitting CPUs only
    bar = view.verticalScrollBar()
    assert bar.maximum() > 0
    below = bar.rect().bottomLeft() + QPoint(bar.width() // 2, -bar.width() - 4)  # the trough above the down arrow
    for _ in range(100):  # clicks in the trough page down, as the user scrolls to the middle of the list
        if bar.value() >= bar.maximum() // 2:
            break
        qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=below)
    settle(qtbot)
    row = view.rowAt(view.viewport().height() // 2)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=view.visualRect(p.proxy.index(row, 0)).center())
    chosen, scrolled = p.current_part(), bar.value()
    assert chosen is not None and scrolled > 0
    header = view.horizontalHeader()
    sort = (header.sortIndicatorSection(), header.sortIndicatorOrder())
    w.doc.set_quantity(w.doc.index_of_kind(Kind.GPU), 2)  # a second GPU: one CPU has too few lanes and is hidden
    settle(qtbot)
    assert len(shown_rows(w)) == len(order) - 1
    undo(qtbot, w)  # and back, with the keyboard
    settle(qtbot)
    assert w.doc.build.items[w.doc.index_of_kind(Kind.GPU)].quantity == 1
    assert shown_rows(w) == order  # same rows, same order
    assert p.current_part() is not None and p.current_part().id == chosen.id
    assert [view.selectionModel().selectedRows()[0].row()] == [row]
    assert bar.value() == scrolled
    assert (header.sortIndicatorSection(), header.sortIndicatorOrder()) == sort


def test_prices_are_repainted_in_the_new_currency(qtbot, window: MainWindow, examples_dir: Path) -> None:  # noqa: ANN001
    w = window
    w.files.open_path(examples_dir / "budget-1-gpu.rigplan", ask=False)
    p = w.picker
    pick(qtbot, p.kind_box, data=Kind.CPU)
    settle(qtbot)
    price = p.proxy.index(0, p.proxy.sourceModel().price_col)
    assert price.data().startswith("$")
    w.doc.set_assumptions(w.doc.build.assumptions.model_copy(update={"currency": "EUR"}))
    settle(qtbot)
    assert price.data().startswith("€")
    paints = PaintCount(p.view.viewport())
    undo(qtbot, w)  # back to dollars: the rows on screen are repainted with them
    settle(qtbot)
    assert w.doc.build.assumptions.currency == "USD" and price.data().startswith("$")
    assert paints.n >= 1
