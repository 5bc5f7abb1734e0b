"""Issue 29's cut-offs at 1280x720, each asserted on what the user sees: the picker's Price column inside the
table's viewport for every slot, a long finding wrapped (not cut with "..."), the offers table showing at least five
whole rows, the Costs summary of a build with no GPU inside its three lines, the breakdown chart's bar names whole,
and the search box readable at about 860 px wide."""

from __future__ import annotations

from pathlib import Path

import pytest
from gui_helpers import pick, show_tab
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QTextDocument

from rigplan.gui.mainwindow import MainWindow
from rigplan.model import Kind

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "2x-rtx-4090.rigplan"


@pytest.fixture
def small(window: MainWindow, qtbot) -> MainWindow:  # noqa: ANN001
    window.resize(1280, 720)
    window.files.open_path(EXAMPLE, ask=False)
    qtbot.wait(50)
    return window


@pytest.mark.parametrize("kind", [Kind.GPU, Kind.CPU, Kind.MOTHERBOARD, Kind.PSU, Kind.CASE, Kind.MEMORY])
def test_the_price_column_is_in_view(small: MainWindow, kind: Kind, qtbot) -> None:  # noqa: ANN001
    p = small.picker
    pick(qtbot, p.kind_box, data=kind)
    qtbot.wait(20)
    header = p.view.horizontalHeader()
    col = p.proxy.sourceModel().price_col if hasattr(p.proxy.sourceModel(), "price_col") else None
    col = (
        col
        if col is not None
        else next(
            c for c in range(p.proxy.columnCount()) if p.proxy.headerData(c, Qt.Orientation.Horizontal) == "Price"
        )
    )
    left = header.sectionViewportPosition(col)
    assert left >= 0 and left + header.sectionSize(col) <= p.view.viewport().width(), (left, p.view.viewport().width())
    # and wide enough for its prices: the widest shown price is not elided
    fm = p.view.fontMetrics()
    prices = [str(p.proxy.index(r, col).data()) for r in range(min(50, p.proxy.rowCount()))]
    assert prices and max(fm.horizontalAdvance(t) for t in prices) <= header.sectionSize(col) - 8


def test_a_long_finding_wraps_instead_of_eliding(small: MainWindow, qtbot) -> None:  # noqa: ANN001
    f = small.findings
    items = [f.topLevelItem(i) for i in range(f.topLevelItemCount())]
    long = max(items, key=lambda it: len(it.text(0)))
    fm = f.fontMetrics()
    assert fm.horizontalAdvance(long.text(0)) > f.columnWidth(0)  # the example has a finding longer than a line
    qtbot.waitUntil(lambda: f.visualItemRect(long).height() >= 2 * fm.lineSpacing())
    text_width = f.columnWidth(0) - f.indentation() - 28
    needed = fm.boundingRect(QRect(0, 0, text_width, 10_000), Qt.TextFlag.TextWordWrap, long.text(0)).height()
    assert f.visualItemRect(long).height() >= needed


def test_the_offers_table_shows_five_rows(small: MainWindow, qtbot) -> None:  # noqa: ANN001
    show_tab(qtbot, small.tabs, "Costs")
    small.costs.ensure_charts()
    qtbot.wait(50)
    v = small.costs.offers_panel.view
    assert v.viewport().height() // v.rowHeight(0) >= 5


def test_the_summary_of_a_build_without_gpu_fits(small: MainWindow, qtbot) -> None:  # noqa: ANN001
    build = small.doc.build
    small.doc.edit(build.model_copy(update={"items": [i for i in build.items if i.kind is not Kind.GPU]}), "no GPU")
    show_tab(qtbot, small.tabs, "Costs")
    small.costs.ensure_charts()
    qtbot.wait(50)
    s = small.costs.summary
    assert "unknown" in s.text()
    doc = QTextDocument()
    doc.setDocumentMargin(0)
    doc.setDefaultFont(s.font())
    doc.setHtml(s.text())
    doc.setTextWidth(s.width())
    assert doc.size().height() <= s.height(), (doc.size().height(), s.height(), s.text())


def test_the_breakdown_names_every_bar_whole(small: MainWindow, qtbot) -> None:  # noqa: ANN001
    show_tab(qtbot, small.tabs, "Costs")
    small.costs.ensure_charts()
    show_tab(qtbot, small.costs.chart_tabs, "Cost breakdown")
    qtbot.wait(100)
    axis = small.costs.chart("breakdown").plot.getAxis("bottom")
    ticks = axis._tickLevels[0]  # what the axis draws: (x, text) per bar
    assert len(ticks) == len(axis.bars) >= 4
    for (_, text), lines in zip(ticks, axis.bars, strict=True):
        assert "…" not in text
        assert text.replace("\n", "").replace(" ", "") == "".join(lines).replace(" ", "")  # wrapped, not cut


def test_the_search_box_stays_readable_at_860_px(small: MainWindow, qtbot) -> None:  # noqa: ANN001
    small.resize(860, 720)
    qtbot.wait(50)
    box = small.picker.search
    assert box.width() >= box.fontMetrics().horizontalAdvance("4090 vram>=24") + 40
