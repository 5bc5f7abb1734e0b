"""The Costs tab: the break-even chart first (with its side table), the cloud offers table under it, and the
assumptions in a collapsible side panel.

The offers on the chart belong to the build (Build.comparison, saved in the file): ticking an offer asks the window
for a new comparison (comparison_changed), which comes back through set_build. A build that has none shows the best
work-per-dollar offer per provider for its GPUs (offers_model.default_comparison).

pyqtgraph is imported only when the charts are first built (after the main window has painted): importing it
costs ~300 ms, which the user should not wait for before seeing the window.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QTabWidget, QVBoxLayout, QWidget

from rigplan.cloud.offers import OfferCatalog
from rigplan.costs.analysis import cost_build, sensitivity
from rigplan.costs.fx import NoRate, rate_for
from rigplan.costs.model import CostReport, compute
from rigplan.costs.perf import PerfTable
from rigplan.exports.plan import unpriced_other
from rigplan.gui.costs.assumptions_form import AssumptionsForm
from rigplan.gui.costs.chart_style import OWN_COLOR, repaint_axes
from rigplan.gui.costs.compare_table import CompareTable
from rigplan.gui.costs.costs_text import (
    axis_x,
    breakeven_cells,
    compare_rows,
    currency_note,
    curve_tips,
    form_hints,
    instance_hours,
    model_lines,
    no_rate_html,
    offer_inputs,
    offer_names,
    summary_html,
    summary_tip,
    totals_at,
)
from rigplan.gui.costs.offers_model import default_comparison
from rigplan.gui.costs.offers_panel import OffersPanel
from rigplan.gui.costs.panes import size_panes
from rigplan.gui.widgets.livetext import LiveText
from rigplan.gui.widgets.money import Money
from rigplan.gui.widgets.side_panel import SidePanel
from rigplan.gui.widgets.splitter import splitter
from rigplan.gui.widgets.wheel_guard import guard_wheel
from rigplan.gui.workload.tab import follow
from rigplan.model import Build, Kind, Pricing
from rigplan.model.build import MAX_COMPARED, ChartOffer

if TYPE_CHECKING:
    from rigplan.gui.workload.panel import WorkloadPanel


class CostsView(QWidget):
    assumptions_changed = Signal(object)  # Assumptions (from the form, always valid)
    comparison_changed = Signal(list)  # list[ChartOffer]: the offers the user wants on the chart
    workload_changed = Signal(object)  # WorkloadSpec: the Workload tab's model and task (issue 28)

    def __init__(self, offers: OfferCatalog, perf: PerfTable, money: Money) -> None:
        super().__init__()
        self.offers, self.perf, self.money = offers, perf, money
        self.money_short = money.short
        money.listeners.append(self._currency_changed)
        self.build, self.errors = Build(), 0
        self.report: CostReport | None = None
        self.comparison: list[ChartOffer] = []
        self.by_months = True
        self._defaults: dict[tuple[Any, ...], list[ChartOffer]] = {}
        self._drawn: list[ChartOffer] = []  # the comparison's offers drawn: a price and a known speed (report.offers)
        self._names: dict[str, str] = {}  # each compared offer's one name, by id (costs_text.offer_names)
        self._unknown: list[ChartOffer] = []  # priced, speed unknown (report.speed_unknown): hours only, no curve
        self._rows_key: tuple[Any, ...] = ()
        self._hover_x: float | None = None
        self._charts: dict[str, Any] = {}
        self.workload: WorkloadPanel | None = None  # the Workload tab, made with the charts
        self._charts_ready = False
        self._stale = False
        self._sens_offer: str | None = None
        self.assumptions_wanted: bool | None = None  # the assumptions panel shown or folded, as last left
        self._sized = False  # the panes get their first sizes at the first resize

        self.form = AssumptionsForm()
        self.form.set_assumptions(self.build.assumptions)
        self.form.changed.connect(self.assumptions_changed.emit)
        self.side = SidePanel("Assumptions", self.form)

        self.summary = LiveText("Add parts and offers to see when owning beats renting.", lines=3, rich=True)
        self.summary.setAccessibleName("Break-even summary")
        self.axis_box = QComboBox()
        self.axis_box.addItems(["x: calendar months", "x: hours of work"])
        self.axis_box.setAccessibleName("Chart x axis")
        self.axis_box.currentIndexChanged.connect(self._axis_changed)
        self.notice = QLabel(wordWrap=True)  # a long one wraps: the window never grows past the screen
        self.notice.setStyleSheet("color: #b8860b")
        self.notice.hide()
        self.compare = CompareTable()
        self.compare.visibility_changed.connect(self._redraw)
        self.compare.pricing_changed.connect(self._pricing_changed)
        self.chart_tabs = QTabWidget()
        self.chart_tabs.setAccessibleName("Cost charts")
        self._placeholder = QLabel("Loading charts...", alignment=Qt.AlignmentFlag.AlignCenter)
        self.chart_tabs.addTab(self._placeholder, "Break-even")
        self.sens_box = QComboBox()
        self.sens_box.setAccessibleName("Offer for the sensitivity chart")
        self.sens_box.currentIndexChanged.connect(self._sens_chosen)
        self.offers_panel = OffersPanel(offers, perf, money)
        self.offers_panel.toggled.connect(self._offer_toggled)

        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(self.side.button, 0, Qt.AlignmentFlag.AlignTop)
        top.addWidget(self.summary, 1)
        top.addWidget(self.axis_box, 0, Qt.AlignmentFlag.AlignTop)
        horizontal, vertical = Qt.Orientation.Horizontal, Qt.Orientation.Vertical
        self.chart_split = splitter(horizontal, self.chart_tabs, self.compare, stretch=(1,), keep=(0,))
        upper = QWidget()
        ul = QVBoxLayout(upper)
        ul.setContentsMargins(0, 0, 0, 0)
        ul.addLayout(top)
        ul.addWidget(self.notice)
        ul.addWidget(self.chart_split, 1)
        self.vsplit = splitter(vertical, upper, self.offers_panel, stretch=(3, 1), keep=(0,))
        self.splitter = splitter(horizontal, self.side, self.vsplit, stretch=(0, 1), keep=(1,))
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.splitter)
        guard_wheel(self)

    def resizeEvent(self, event: Any) -> None:  # noqa: N802
        super().resizeEvent(event)
        # The chart gets most of the room: the offers table a third of the height, the side table what it needs.
        self._first_sizes()

    def _first_sizes(self) -> None:
        if not self._sized and self.isVisible() and self.width() > 0 and self.height() > 0:
            self._sized = True
            size_panes(self)

    def show_assumptions(self, on: bool) -> None:
        self.side.fold(on)

    # --- the comparison ------------------------------------------------------------------------------------------

    def default_comparison(self, build: Build) -> list[ChartOffer]:
        a = build.assumptions
        key = (tuple((i.part.id, i.quantity) for i in build.of_kind(Kind.GPU)), a.scaling_cloud, a.precision)
        if key not in self._defaults:
            self._defaults[key] = default_comparison(self.offers, self.perf, build)
        return self._defaults[key]

    def _request(self, new: list[ChartOffer]) -> None:
        self.comparison = new
        self._refresh_comparison()
        self.recompute()
        self.comparison_changed.emit(new)

    def _offer_toggled(self, offer_id: str, on: bool, pricing: Pricing) -> None:
        now = [c for c in self.comparison if c.offer != offer_id]
        if on:
            if len(now) >= MAX_COMPARED:
                self._notice(f"The chart holds at most {MAX_COMPARED} offers: untick one first.")
                return
            now.append(ChartOffer(offer=offer_id, pricing=pricing))
        self._notice("" if on else f"{self._names.get(offer_id, offer_id)} is off the chart; tick it to bring it back.")
        self._request(now)

    def _pricing_changed(self, offer_id: str, pricing: Pricing) -> None:
        if pricing is None:
            return
        p = Pricing(pricing)
        new = [ChartOffer(offer=c.offer, pricing=p) if c.offer == offer_id else c for c in self.comparison]
        if new != self.comparison:
            self._request(new)

    def _notice(self, text: str) -> None:
        self.notice.setText(text)
        self.notice.setVisible(bool(text))

    def names(self) -> list[str]:
        """The drawn offers' names, as the summary, the chart's labels, the side table and the bars say them."""
        return [self._names.get(c.offer, c.offer) for c in self._drawn]

    def _refresh_comparison(self) -> None:
        self.offers_panel.model.set_comparison(self.comparison)

    def _refresh_rows(self) -> None:
        """The side table and the sensitivity chart's offers: called when the drawn offers change."""
        drawn = self._drawn
        # Named as the chart's labels name them ("Lambda 2x B200", the instance only when two would read the same);
        # the tooltip keeps the full label, region and price date.
        unknown = self.report.speed_unknown if self.report else []
        rows = compare_rows(self.offers, self.comparison, drawn, self._names, unknown)
        self.compare.set_rows(OWN_COLOR, rows)
        self.sens_box.blockSignals(True)
        self.sens_box.clear()
        for c, name in zip(drawn, self.names(), strict=True):
            self.sens_box.addItem(name, c.offer)
        index = self.sens_box.findData(self._sens_offer) if self._sens_offer else 0
        self.sens_box.setCurrentIndex(max(index, 0))
        self.sens_box.blockSignals(False)

    # --- model -------------------------------------------------------------------------------------------------------

    def set_offers(self, offers: OfferCatalog) -> None:
        """New cloud prices (Cloud prices > Update): table, default comparison and chart afresh; old caches first."""
        self.offers, self.comparison, self._rows_key = offers, [], ()
        self._defaults.clear()
        self.offers_panel.set_catalog(offers)
        self.set_build(self.build)

    def _currency_changed(self) -> None:  # prices and axes show the new currency now, not after a resize
        self.offers_panel.model.currency_changed()
        repaint_axes([getattr(c, "widget", None) for c in self._charts.values()])

    def set_build(self, build: Build, errors: int = 0) -> None:
        if build.items == self.build.items and (note := currency_note(self.build.assumptions, build.assumptions)):
            self._notice(note)  # said, not only in a tooltip
        self.build, self.errors = build, errors  # the checks' errors: no break-even date is promised with them
        if self.form.assumptions != build.assumptions:
            self.form.set_assumptions(build.assumptions)
        self.offers_panel.model.set_efficiency(build.assumptions.scaling_cloud)
        comparison = list(build.comparison) if build.comparison is not None else self.default_comparison(build)
        if comparison != self.comparison:
            self.comparison = comparison
            self._refresh_comparison()
        self.recompute()

    def recompute(self) -> None:
        a = self.build.assumptions
        try:
            rate_for(a)
        except NoRate:  # a file asking for a currency without a reference rate: say so, compute nothing
            self.report = None
            self.summary.setText(no_rate_html(a.currency))
            self.compare.set_column(2, ["" for _ in range(len(self.comparison) + 1)])
            return
        costing = cost_build(self.build, self.perf)
        inputs, drawn, unknown, skipped = offer_inputs(self.offers, self.comparison, a, self.perf, costing)
        self.report = compute(costing.own, inputs, a)
        self.report.notes[:0] = list(costing.notes) + skipped
        self._drawn, self._unknown = drawn, unknown
        self._names = offer_names(self.offers, self.comparison)  # one name per offer on every surface (issue 29)
        self._inputs = [i for i in inputs if i.speedup is not None]  # in the order of _drawn (sensitivity)
        self._costing = costing
        self.form.set_hints(form_hints(self.build, costing, self.perf, self.report))
        key = (tuple(self.comparison), tuple(drawn), tuple(unknown))
        if key != self._rows_key:
            self._rows_key = key
            self._refresh_rows()
        lines, more = model_lines(self.report, costing, inputs, a, self.money, self._names)
        other = unpriced_other(self.build, self.report.unpriced)  # "... and 1 other item without a price"
        html = summary_html(self.report, self.names(), self.money, a.horizon_years, lines, other, self.errors)
        self.summary.setText(html)
        self.summary.setToolTip(summary_tip(lines, more, self.report.notes))
        follow(self.chart_tabs, self.workload, self.build, self.offers, self.comparison)
        self._update_table()
        if self._charts_ready:
            self._update_charts()

    def _update_table(self) -> None:
        assert self.report is not None
        texts = breakeven_cells(self.report, self.by_months)
        rows = {c.offer: n for n, c in enumerate(self._drawn)}
        hours = instance_hours(self.report)
        cells = [texts[rows[c.offer]] if c.offer in rows else hours.get(c.offer, "not drawn") for c in self.comparison]
        self.compare.set_column(2, ["", *cells])
        self.hover_at(self._hover_x)

    def breakeven_text(self) -> str:
        return self.summary.text() + " " + " ".join(self.compare.column_texts(2))

    def totals_at(self, x: float) -> list[float]:
        """Cumulative cost of owning, then of each drawn offer, at x on the current axis (clamped to the chart)."""
        assert self.report is not None
        return totals_at(self.report, self.by_months, x)

    def hover_at(self, x: float | None) -> None:
        """Fill the side table's last column with the totals at x (None: at the horizon)."""
        if self.report is None or not len(self.report.days):
            return
        end = float(axis_x(self.report, self.by_months)[-1])
        self._hover_x = x
        at = end if x is None else min(max(x, 0.0), end)
        totals = self.totals_at(at)
        head = f"At month {at:,.1f}" if self.by_months else f"At {at:,.0f} h"
        rows = {c.offer: n for n, c in enumerate(self._drawn)}
        texts = [self.money_short(totals[0])]
        texts += [self.money_short(totals[rows[c.offer] + 1]) if c.offer in rows else "" for c in self.comparison]
        title = head if x is not None else ("At the end" if self.by_months else f"{head}, end")
        self.compare.set_column(3, texts, title)
        vline = self._charts["breakeven"].vline if self._charts_ready else None
        if vline is not None:
            vline.setVisible(x is not None)
            if x is not None:
                vline.setValue(at)

    def ensure_charts(self) -> None:
        if self._charts_ready:
            return
        import pyqtgraph as pg

        from rigplan.gui.costs.charts import BreakEvenChart
        from rigplan.gui.costs.side_charts import BreakdownChart, TornadoChart

        be = BreakEvenChart(self.money_short)
        bd = BreakdownChart(self.money_short)
        tornado = TornadoChart()
        row = QHBoxLayout()
        row.addWidget(QLabel("Offer:"))
        row.addWidget(self.sens_box, 1)
        tornado.container.layout().insertLayout(0, row)  # type: ignore[union-attr]
        self._charts = {"breakeven": be, "breakdown": bd, "tornado": tornado}
        self._mouse_proxy = pg.SignalProxy(be.widget.scene().sigMouseMoved, rateLimit=30, slot=self._mouse)
        self.chart_tabs.removeTab(0)
        self._placeholder.deleteLater()
        self.chart_tabs.addTab(be.widget, "Break-even")
        self.chart_tabs.addTab(bd.widget, "Cost breakdown")
        self.chart_tabs.addTab(tornado.container, "Sensitivity")
        from rigplan.gui.workload.tab import add_tab  # the planner's data loads with the charts, not at start

        self.workload = add_tab(self.chart_tabs, self.build, self.offers, self.comparison)
        self.workload.workloadChanged.connect(self.workload_changed.emit)
        self.chart_tabs.currentChanged.connect(lambda _: self.recompute())  # redraws the chart shown (and Workload)
        guard_wheel(self)
        self._charts_ready = True
        self._update_charts()

    def _mouse(self, ev: Any) -> None:
        be = self._charts["breakeven"]
        pos = ev[0]
        vb = be.widget.getPlotItem().vb
        if self.report is None or not vb.sceneBoundingRect().contains(pos):
            return
        self.hover_at(vb.mapSceneToView(pos).x())

    def _axis_changed(self, index: int) -> None:
        self.by_months = index == 0
        self._hover_x = None
        if self.report is not None:
            self._update_table()
        if self._charts_ready:
            self._update_charts()

    def _sens_chosen(self, _: int) -> None:
        self._sens_offer = self.sens_box.currentData()
        if self._charts_ready:
            self._update_charts()

    def _redraw(self) -> None:
        if self._charts_ready:
            self._update_charts()

    def _update_charts(self) -> None:
        if self.report is None:  # nothing computed (a currency without a rate): nothing to draw
            return
        if not self.isVisible():
            self._stale = True  # drawn when the tab is shown (showEvent)
            return
        self._stale = False
        names = self.names()
        tab = self.chart_tabs.currentIndex()
        if tab == 0:
            shown = self.compare.shown()
            flags = [shown.get(c.offer, True) for c in self._drawn]
            tips, labels = curve_tips(self.offers, self._drawn, self._names), names
            self._charts["breakeven"].update(self.report, self.by_months, flags, labels, tips)
        elif tab == 1:  # the breakdown and sensitivity charts are only drawn while on screen
            self._charts["breakdown"].update(self.report, names)
        else:
            n = max(self.sens_box.currentIndex(), 0)
            bars = sensitivity(self._costing.own, self._inputs[n], self.build.assumptions) if self._inputs else []
            horizon = float(self.report.days[-1]) if len(self.report.days) else 0.0
            self._charts["tornado"].update(bars, horizon, names[n] if names else "")

    def showEvent(self, event: Any) -> None:  # noqa: N802
        super().showEvent(event)
        QTimer.singleShot(0, self._first_sizes)  # once the layout has given the splitters their sizes
        if self._charts_ready and self._stale:
            self._update_charts()

    def chart(self, name: str) -> Any:
        """The chart objects (breakeven, breakdown, tornado), once built."""
        return self._charts[name]

    def curve_data(self) -> dict[str, tuple[list[float], list[float]]]:
        """What the break-even chart shows, by curve name ("own", then the offers' short names)."""
        if not self._charts_ready:
            return {}
        be = self._charts["breakeven"]
        out = {"own": be.own.getData()}
        for name, curve in zip(self.names(), be.curves, strict=False):
            if curve.isVisible():
                out[name] = curve.getData()
        return {k: ([] if x is None else list(x), [] if y is None else list(y)) for k, (x, y) in out.items()}
