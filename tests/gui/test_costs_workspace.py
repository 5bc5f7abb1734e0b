"""The Costs tab as a user meets it (issue 13 items 1, 3 and 4): real window, real offers, real charts."""

from __future__ import annotations

from pathlib import Path

import pytest
from gui_helpers import check_cell, choose, click_cell, open_costs, pick, show_tab, sort_by, type_into
from PySide6.QtCore import QPoint, QPointF, QSettings, Qt
from PySide6.QtWidgets import QFileDialog

from rigplan.cloud.offers import OfferCatalog
from rigplan.costs.perf import PerfTable
from rigplan.files import load
from rigplan.gui.costs.chart_style import DAYS_PER_MONTH
from rigplan.gui.costs.offers_model import COL_OD, COL_PROVIDER, COL_WORK, is_trainer, work_per_dollar
from rigplan.gui.mainwindow import MainWindow
from rigplan.model import Kind, Pricing

DATA = Path(__file__).resolve().parents[1] / "data"


@pytest.fixture
def costs_window(window: MainWindow, examples_dir: Path, qtbot) -> MainWindow:  # noqa: ANN001
    window.resize(1280, 720)
    window.files.open_path(examples_dir / "2x-rtx-4090.rigplan", ask=False)
    show_tab(qtbot, window.tabs, "Costs")
    window.costs.ensure_charts()
    chart = window.costs.chart("breakeven")
    # Laid out: the plot has the share of the window test_chart_sizes.py asks of it.
    qtbot.waitUntil(lambda: chart.plot_rect().width() >= 0.4 * 1280 and chart.plot_rect().height() >= 0.3 * 720)
    return window


def test_the_chart_takes_most_of_the_window_and_findings_step_aside(costs_window: MainWindow, qtbot) -> None:  # noqa: ANN001
    w = costs_window
    chart = w.costs.chart("breakeven").widget
    area = chart.width() * chart.height()
    assert area > 0.35 * w.width() * w.height()
    # with its side table (legend, show/hide boxes, read-out) the chart has well over half the window
    table = w.costs.compare
    assert area + table.width() * table.height() > 0.5 * w.width() * w.height()
    assert chart.height() > w.costs.offers_panel.height()
    assert not w.findings_dock.isVisible()  # the Costs tab has the full height
    show_tab(qtbot, w.tabs, "Parts")
    assert w.findings_dock.isVisible()
    choose(qtbot, w, w.menus.findings)  # View > Findings off
    assert not w.findings_dock.isVisible()
    show_tab(qtbot, w.tabs, "Costs")
    show_tab(qtbot, w.tabs, "Parts")
    assert not w.findings_dock.isVisible()  # the user's choice holds
    show_tab(qtbot, w.tabs, "Costs")
    w.costs.show_assumptions(False)
    assert not w.costs.form.isVisible()
    qtbot.mouseClick(w.costs.side.button, Qt.MouseButton.LeftButton)
    assert w.costs.form.isVisible()
    # folded at first on a 1280 px window, the panel opens at its full width, not squeezed to nothing by the splitter
    qtbot.waitUntil(lambda: w.costs.side.width() > 0)
    assert w.costs.side.width() >= w.costs.form.sizeHint().width()


def test_window_never_opens_larger_than_the_screen(catalog, offers, perf, tmp_path: Path, qtbot) -> None:  # noqa: ANN001
    settings = QSettings(str(tmp_path / "big.ini"), QSettings.Format.IniFormat)
    w = MainWindow(catalog, offers, perf, settings)
    qtbot.addWidget(w, before_close_func=lambda w: w.doc.undo_stack.setClean())
    screen = w.screen().availableGeometry()
    assert w.width() <= screen.width() and w.height() <= screen.height()
    w.resize(screen.width() * 2, screen.height() * 2)
    w.save_settings()
    again = MainWindow(catalog, offers, perf, settings)
    qtbot.addWidget(again, before_close_func=lambda w: w.doc.undo_stack.setClean())
    assert again.width() <= screen.width() and again.height() <= screen.height()


def test_default_comparison_is_the_best_work_per_dollar_per_provider(
    costs_window: MainWindow, offers: OfferCatalog, perf: PerfTable
) -> None:
    w = costs_window
    chosen = [offers.get(c.offer) for c in w.costs.comparison]
    assert sorted(o.provider for o in chosen) == ["aws", "azure", "gcp", "lambda"]
    eff = w.doc.build.assumptions.scaling_cloud  # None: the measured median per interconnect
    for o in chosen:
        assert o.snapshot == "current" and o.vram_gb_each >= 18  # the 24 GB cards' class
        assert "Radeon" not in (o.gpu_model or "")
        rivals = [
            x
            for x in offers.offers
            if x.provider == o.provider
            and x.snapshot == "current"
            and x.gpu_count == o.gpu_count
            and (x.vram_gb_each or 0) >= 18
            and is_trainer(x)
        ]
        assert work_per_dollar(o, perf, eff) >= max(work_per_dollar(x, perf, eff) for x in rivals) - 1e-9
    # Lambda's two-GPU A6000 is the 2-GPU rival with the most work per dollar there
    assert any(o.gpu_count == 2 for o in chosen)


def test_offers_table_filters_and_sorts(costs_window: MainWindow, qtbot) -> None:  # noqa: ANN001
    panel = costs_window.costs.offers_panel
    pick(qtbot, panel.provider_box, "GCP")
    shown = [panel.proxy.index(r, COL_PROVIDER).data() for r in range(panel.proxy.rowCount())]
    assert shown and set(shown) == {"GCP"}  # the filter applies to charted offers too (issue 40: they stayed on top)
    sort_by(qtbot, panel.view, COL_OD, Qt.SortOrder.AscendingOrder)
    prices = [panel.proxy.index(r, COL_OD).data(Qt.ItemDataRole.UserRole) for r in range(panel.proxy.rowCount())]
    known = [p for p in prices if p is not None]
    assert known == sorted(known) and prices[: len(known)] == known  # unknown prices last
    pick(qtbot, panel.pricing_box, data=Pricing.SPOT)
    offers = panel.model.offers
    for r in range(panel.proxy.rowCount()):
        o = offers[panel.proxy.mapToSource(panel.proxy.index(r, 0)).row()]
        assert o.spot_usd_h  # the spot filter keeps only offers with a spot price, charted ones too


def test_axes_show_currency_and_thousands(costs_window: MainWindow) -> None:
    chart = costs_window.costs.chart("breakeven")
    assert chart.widget.getAxis("left").tickStrings([0, 10000, 25000], 1, 5000) == ["$0", "$10,000", "$25,000"]
    assert chart.widget.getAxis("bottom").tickStrings([1000, 2500], 1, 500) == ["1,000", "2,500"]


def test_breakeven_labels_do_not_overlap(costs_window: MainWindow) -> None:
    chart = costs_window.costs.chart("breakeven")
    boxes = [t.sceneBoundingRect() for _, t in chart.markers if t.isVisible()]
    assert len(boxes) >= 3
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert not a.intersects(b)


def test_readout_on_the_hours_axis_reads_that_hour_and_follows_the_assumptions(costs_window: MainWindow, qtbot) -> None:  # noqa: ANN001
    v = costs_window.costs
    pick(qtbot, v.axis_box, "x: hours of work")
    v.hover_at(1000.0)
    r = v.report
    day = 1000.0 / costs_window.doc.build.assumptions.hours_per_day  # 1,000 h at 8 h a day: day 125
    own = r.upfront + r.own_slope_per_day * day
    col = v.compare.column_texts(3)
    assert v.compare.horizontalHeaderItem(3).text() == "At 1,000 h"
    assert col[0] == costs_window.money_short(own)
    assert col[1:] == [costs_window.money_short(o.slope_per_day * day) for o in r.offers]
    v.hover_at(-50.0)  # left of the origin: month/hour 0, never negative
    assert v.compare.horizontalHeaderItem(3).text() == "At 0 h"
    v.hover_at(1000.0)
    open_costs(qtbot, costs_window)  # the Assumptions panel opened by its button, to type in
    type_into(qtbot, v.form.spins["electricity_per_kwh"], "0.6")  # the read-out follows at once
    own = v.report.upfront + v.report.own_slope_per_day * day
    assert v.compare.column_texts(3)[0] == costs_window.money_short(own)
    pick(qtbot, v.axis_box, "x: calendar months")
    # a real pointer over the plot sets the read-out (the chart's mouse signal is rate-limited)
    be = v.chart("breakeven")
    target = be.widget.getPlotItem().vb.mapViewToScene(QPointF(12.0, 1000.0))
    qtbot.mouseMove(be.widget.viewport(), be.widget.mapFromScene(target))
    qtbot.waitUntil(lambda: v.compare.horizontalHeaderItem(3).text().startswith("At month 12"), timeout=2000)
    totals = v.totals_at(12.0 * 1)
    assert abs(totals[0] - (r.upfront + v.report.own_slope_per_day * 12 * DAYS_PER_MONTH)) < 0.02 * totals[0] + 50


def test_show_hide_an_offer_and_choose_the_sensitivity_offer(costs_window: MainWindow, qtbot) -> None:  # noqa: ANN001
    v = costs_window.costs
    names = v.names()
    assert set(names) <= set(v.curve_data())
    check_cell(qtbot, v.compare, 2, 0, False)
    assert names[1] not in v.curve_data() and names[0] in v.curve_data()
    assert not v.chart("breakeven").markers[1][1].isVisible()
    check_cell(qtbot, v.compare, 2, 0, True)
    assert names[1] in v.curve_data()
    show_tab(qtbot, v.chart_tabs, "Sensitivity")
    pick(qtbot, v.sens_box, v.sens_box.itemText(2))
    title = v.chart("tornado").widget.getPlotItem().titleLabel.text
    assert names[2] in title
    show_tab(qtbot, v.chart_tabs, "Cost breakdown")
    bottom = v.chart("breakdown").plot.getAxis("bottom")
    assert bottom.height() >= 3 * v.fontMetrics().lineSpacing()  # three-line labels are not clipped (issue 29)
    first = v.chart("breakdown").tick_names[1]
    assert first == "\n".join([*names[0].split(" ", 1), v.comparison[0].pricing.value])


def test_pricing_change_and_comparison_travel_with_the_file(
    costs_window: MainWindow, tmp_path: Path, monkeypatch, catalog, offers, perf, qtbot
) -> None:  # noqa: ANN001
    w = costs_window
    v = w.costs
    box = v.compare.cellWidget(3, 1)  # the third offer's pricing
    spot = box.findData(Pricing.SPOT)
    if spot < 0:
        box = next(
            v.compare.cellWidget(r, 1)
            for r in range(1, v.compare.rowCount())
            if v.compare.cellWidget(r, 1).findData(Pricing.SPOT) >= 0
        )
        spot = box.findData(Pricing.SPOT)
    pick(qtbot, box, data=Pricing.SPOT)
    assert any(c.pricing is Pricing.SPOT for c in w.doc.build.comparison)
    target = tmp_path / "shared.rigplan.yaml"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    choose(qtbot, w, w.menus.save_as)
    text = target.read_text()
    assert "format_version: 2" in text and "comparison:" in text and "pricing: spot" in text
    assert load(target).comparison == w.doc.build.comparison
    other = MainWindow(catalog, offers, perf, QSettings(str(tmp_path / "o.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(other, before_close_func=lambda x: x.doc.undo_stack.setClean())
    other.files.open_path(target, ask=False)
    assert other.costs.comparison == v.comparison
    assert other.costs.breakeven_text() == v.breakeven_text()


def test_a_version_1_file_opens_with_the_default_comparison(window: MainWindow) -> None:
    assert window.files.open_path(DATA / "v1" / "budget-1-gpu-v1.rigplan.yaml", ask=False)
    assert window.doc.build.comparison is None and not window.isWindowModified()
    assert len(window.costs.comparison) == 4
    assert window.doc.build.first(Kind.GPU) is not None


def test_at_most_eight_offers_on_the_chart(costs_window: MainWindow, qtbot) -> None:  # noqa: ANN001
    v = costs_window.costs
    view = v.offers_panel.view

    def first_unticked() -> int:  # charted offers move to the top: look again after each tick
        model = view.model()
        states = [model.index(r, 0).data(Qt.ItemDataRole.CheckStateRole) for r in range(model.rowCount())]
        return next(r for r, state in enumerate(states) if Qt.CheckState(state) == Qt.CheckState.Unchecked)

    for _ in range(8):  # the user ticks offers until eight are charted
        if len(v.comparison) < 8:
            check_cell(qtbot, view, first_unticked(), 0, True)
    assert len(v.comparison) == 8
    row = first_unticked()
    click_cell(qtbot, view, row, 0)  # a ninth: refused, its box stays empty
    qtbot.keyClick(view, Qt.Key.Key_Space)
    assert Qt.CheckState(view.model().index(row, 0).data(Qt.ItemDataRole.CheckStateRole)) == Qt.CheckState.Unchecked
    assert len(v.comparison) == 8
    assert "at most 8" in v.notice.text() and not v.notice.isHidden()
    _ = QPoint


def test_offers_table_opens_with_the_most_work_per_dollar_first(costs_window: MainWindow) -> None:
    panel = costs_window.costs.offers_panel
    work = [panel.proxy.index(r, COL_WORK).data(Qt.ItemDataRole.UserRole) for r in range(panel.proxy.rowCount())]
    charted = {c.offer for c in costs_window.costs.comparison}
    offers = panel.model.offers
    free = [
        w
        for r, w in enumerate(work)
        if offers[panel.proxy.mapToSource(panel.proxy.index(r, 0)).row()].id not in charted
    ]
    rated = [w for w in free if w]
    assert rated and free[: len(rated)] == rated == sorted(rated, reverse=True)  # unknown speed last


def test_breakeven_labels_do_not_overlap_with_the_assumptions_open(costs_window: MainWindow, qtbot) -> None:  # noqa: ANN001
    """On a 1280 px window the open assumptions panel leaves the chart narrow: the labels take more rows."""
    costs_window.costs.show_assumptions(True)
    chart = costs_window.costs.chart("breakeven")
    qtbot.waitUntil(lambda: chart.widget.width() < 600)

    def laid_out() -> None:
        boxes = [t.sceneBoundingRect() for _, t in chart.markers if t.isVisible()]
        assert len(boxes) >= 3
        for i, a in enumerate(boxes):
            for b in boxes[i + 1 :]:
                assert not a.intersects(b)
        # the plot's right end (the horizon and the resale) stays inside the narrow chart: a short title there
        assert chart.plot_rect().right() <= chart.widget.width()

    qtbot.waitUntil(laid_out)  # retried while the labels are placed again for the narrower chart


def test_a_summary_longer_than_its_lines_shows_whole_lines_only(qtbot) -> None:  # noqa: ANN001
    from rigplan.gui.widgets.livetext import LiveText

    text = LiveText("<b>Owning</b> " + "words of a long summary " * 40, lines=3, rich=True)
    qtbot.addWidget(text)
    text.resize(400, text.height())
    text.show()
    qtbot.waitExposed(text)
    text.grab()  # painted: wrapped at its width
    shown = text._full_lines_height(text.height(), text._shown)
    line = text.fontMetrics().lineSpacing()
    assert text.height() - line < shown <= text.height()  # three whole lines, no half of a fourth


def test_the_folded_assumptions_panel_is_remembered(costs_window: MainWindow, catalog, offers, perf, qtbot) -> None:  # noqa: ANN001
    costs_window.costs.show_assumptions(False)
    costs_window.save_settings()
    again = MainWindow(catalog, offers, perf, costs_window.settings)
    qtbot.addWidget(again, before_close_func=lambda w: w.doc.undo_stack.setClean())
    again.resize(1920, 1080)  # wide enough that the panel would show by default
    again.show()
    show_tab(qtbot, again.tabs, "Costs")
    qtbot.waitUntil(lambda: getattr(again.costs, "_sized", False))
    assert again.costs.side.isHidden()
