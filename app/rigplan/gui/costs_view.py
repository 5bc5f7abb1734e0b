"""The Costs tab: offers to compare, the assumptions, and three pyqtgraph charts (break-even, breakdown, tornado).

pyqtgraph is imported only when the charts are first built (after the main window has painted): importing it
costs ~300 ms, which the user should not wait for before seeing the window.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QSortFilterProxyModel, Qt, Signal
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListView,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from rigplan.costs.analysis import CostInputError, cost_build, offer_input, sensitivity
from rigplan.costs.model import CostReport, compute
from rigplan.costs.offers import Offer, OfferCatalog
from rigplan.costs.perf import PerfTable
from rigplan.gui.assumptions_form import AssumptionsForm
from rigplan.gui.chart_style import COLORS
from rigplan.gui.livetext import LiveText
from rigplan.gui.partsmodel import refilter
from rigplan.model import Build, Pricing

DEFAULT_OFFERS = [
    ("aws:p3.2xlarge:us-east-1", Pricing.ON_DEMAND),
    ("aws:g5.xlarge:us-east-1", Pricing.SPOT),
    ("lambda:gpu_1x_a100:us-east-1", Pricing.ON_DEMAND),
]


@dataclass(frozen=True)
class Chosen:
    offer: Offer
    pricing: Pricing

    @property
    def key(self) -> str:
        return f"{self.offer.id}|{self.pricing.value}"


class CostsView(QWidget):
    assumptions_changed = Signal(object)  # Assumptions (from the form)
    chosen_changed = Signal(list)  # list[str] of "offer_id|pricing"

    def __init__(self, offers: OfferCatalog, perf: PerfTable, money: Callable[[float], str]) -> None:
        super().__init__()
        self.offers, self.perf, self.money = offers, perf, money
        self.build = Build()
        self.report: CostReport | None = None
        self.chosen: list[Chosen] = []
        self.by_months = True
        self._plots: dict[str, Any] = {}
        self._curves: dict[str, Any] = {}
        self._charts_ready = False

        # --- left: offers and assumptions -------------------------------------------------------------------------
        self.offer_filter = QLineEdit()
        self.offer_filter.setPlaceholderText("Filter offers: provider, GPU, region, type (e.g. aws v100 us-east-1)")
        self.offer_filter.setClearButtonEnabled(True)
        self.offer_filter.setAccessibleName("Filter cloud offers")
        self.pricing_box = QComboBox()
        for p in Pricing:
            self.pricing_box.addItem(p.value, p)
        self.pricing_box.setAccessibleName("Pricing for the offer to add")
        self.offer_model = QStandardItemModel()
        for o in sorted(offers.offers, key=lambda o: (o.snapshot != "current", o.provider, o.instance_type, o.region)):
            item = QStandardItem(f"{o.label}  ·  {_prices(o)}")
            item.setData(o.id, Qt.ItemDataRole.UserRole)
            item.setToolTip(
                f"{o.source}\nPrices as of {o.date_text}" + ("\nQuirks: " + "; ".join(o.quirks) if o.quirks else "")
            )
            item.setEditable(False)
            self.offer_model.appendRow(item)
        self.offer_proxy = _WordsProxy()
        self.offer_proxy.setSourceModel(self.offer_model)
        self.offer_list = QListView()
        self.offer_list.setModel(self.offer_proxy)
        self.offer_list.setAccessibleName("Cloud offers")
        self.offer_list.doubleClicked.connect(lambda _: self._add_current())
        add = QPushButton("Add to chart")
        add.clicked.connect(self._add_current)
        self.chosen_list = QListWidget()
        self.chosen_list.setAccessibleName("Offers on the chart")
        remove = QPushButton("Remove")
        remove.clicked.connect(self._remove_current)
        self.offer_filter.textChanged.connect(self.offer_proxy.set_words)
        self.form = AssumptionsForm()
        self.form.set_assumptions(self.build.assumptions)
        self.form.changed.connect(self._form_changed)
        self.form_error = QLabel()
        self.form_error.setStyleSheet("color: #c0392b")
        self.form_error.setWordWrap(True)

        left = QWidget()
        ll = QVBoxLayout(left)
        ll.addWidget(QLabel("<b>Cloud offers</b>"))
        ll.addWidget(self.offer_filter)
        row = QHBoxLayout()
        row.addWidget(self.pricing_box, 1)
        row.addWidget(add)
        ll.addWidget(self.offer_list, 2)
        ll.addLayout(row)
        ll.addWidget(QLabel("<b>On the chart</b>"))
        ll.addWidget(self.chosen_list, 1)
        ll.addWidget(remove)
        ll.addWidget(QLabel("<b>Assumptions</b>"))
        ll.addWidget(self.form)
        ll.addWidget(self.form_error)
        scroll = QScrollArea()
        scroll.setWidget(left)
        scroll.setWidgetResizable(True)
        scroll.setMinimumWidth(420)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)

        # --- right: charts and summary ----------------------------------------------------------------------------
        self.summary = LiveText("Add parts and offers to see when owning beats renting.", lines=9, rich=True)
        self.summary.setAccessibleName("Break-even summary")
        self.dates = QLabel(
            "Prices as of: parts 2025-07-23 (PCPartPicker via pc-part-dataset); cloud: SkyPilot catalog after 2025-06 "
            "(AWS, GCP, Lambda), Azure undated, and dated historic offers."
        )
        self.dates.setWordWrap(True)
        self.dates.setStyleSheet("color: palette(placeholder-text)")  # secondary text, readable light or dark
        self.axis_box = QComboBox()
        self.axis_box.addItems(["x: calendar months", "x: hours of work"])
        self.axis_box.setAccessibleName("Chart x axis")
        self.axis_box.currentIndexChanged.connect(self._axis_changed)
        self.readout = LiveText(" ", lines=1, wrap=False)
        self.readout.setAccessibleName("Crosshair read-out")
        self.chart_tabs = QTabWidget()
        self.chart_tabs.setAccessibleName("Cost charts")
        self._placeholder = QLabel("Loading charts...")
        self._placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.chart_tabs.addTab(self._placeholder, "Break-even")
        right = QWidget()
        rl = QVBoxLayout(right)
        top = QHBoxLayout()
        top.addWidget(self.summary, 1)
        top.addWidget(self.axis_box)
        rl.addLayout(top)
        rl.addWidget(self.chart_tabs, 1)
        rl.addWidget(self.readout)
        rl.addWidget(self.dates)
        split = QSplitter()
        split.addWidget(scroll)
        split.addWidget(right)
        split.setStretchFactor(1, 1)
        split.setSizes([430, 900])
        self.splitter = split
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(split)

    # --- offers ------------------------------------------------------------------------------------------------------

    def set_chosen(self, keys: list[str]) -> None:
        self.chosen = []
        for k in keys:
            oid, _, pricing = k.partition("|")
            offer = self.offers.get(oid)
            if offer is not None and pricing in {p.value for p in Pricing}:
                self.chosen.append(Chosen(offer, Pricing(pricing)))
        self._refresh_chosen_list()
        self.recompute()

    def default_keys(self) -> list[str]:
        return [f"{oid}|{p.value}" for oid, p in DEFAULT_OFFERS if self.offers.get(oid)]

    def add_offer(self, offer_id: str, pricing: Pricing) -> None:
        offer = self.offers.get(offer_id)
        if offer is None:
            return
        c = Chosen(offer, pricing)
        if c.key not in {x.key for x in self.chosen}:
            self.chosen.append(c)
            self._refresh_chosen_list()
            self.chosen_changed.emit([x.key for x in self.chosen])
            self.recompute()

    def _add_current(self) -> None:
        idx = self.offer_list.currentIndex()
        if idx.isValid():
            self.add_offer(idx.data(Qt.ItemDataRole.UserRole), Pricing(self.pricing_box.currentData()))

    def _remove_current(self) -> None:
        row = self.chosen_list.currentRow()
        if 0 <= row < len(self.chosen):
            self.chosen.pop(row)
            self._refresh_chosen_list()
            self.chosen_changed.emit([x.key for x in self.chosen])
            self.recompute()

    def _refresh_chosen_list(self) -> None:
        self.chosen_list.clear()
        for n, c in enumerate(self.chosen):
            item = QListWidgetItem(f"● {c.offer.label} — {c.pricing.value}")
            item.setForeground(_qcolor(COLORS[n % len(COLORS)]))
            price = c.offer.hourly(c.pricing)
            item.setToolTip(
                f"{c.offer.source}; prices as of {c.offer.date_text}"
                + ("" if price else f"\nNo {c.pricing.value} price: not drawn")
            )
            self.chosen_list.addItem(item)

    # --- model -------------------------------------------------------------------------------------------------------

    def set_build(self, build: Build) -> None:
        self.build = build
        if self.form.assumptions != build.assumptions:
            self.form.set_assumptions(build.assumptions)
        self.recompute()

    def _form_changed(self, value: object) -> None:
        if isinstance(value, str):
            self.form_error.setText(value)
            return
        self.form_error.setText("")
        self.assumptions_changed.emit(value)

    def recompute(self) -> None:
        a = self.build.assumptions
        costing = cost_build(self.build, self.perf)
        inputs, skipped = [], []
        for c in self.chosen:
            try:
                inputs.append(offer_input(c.offer, a, self.perf, costing.own.throughput, pricing=c.pricing))
            except CostInputError:
                skipped.append(f"{c.offer.instance_type} has no {c.pricing.value} price")
        self.report = compute(costing.own, inputs, a)
        self.report.notes[:0] = list(costing.notes) + skipped
        self._inputs = inputs
        self._costing = costing
        self._update_summary()
        if self._charts_ready:
            self._update_charts()

    def _update_summary(self) -> None:
        r = self.report
        assert r is not None
        a = self.build.assumptions
        bits = [
            f"Owning: <b>{self.money(r.upfront)}</b> up front, {self.money(r.own_slope_per_day)} a day to run; "
            f"{self.money(r.own_breakdown['total'])} after {a.horizon_years:g} years and resale."
        ]
        for o in r.offers:
            if o.breakeven_days is None:
                be = "never within the horizon"
            elif o.status == "from-day-one":
                be = "owning is cheaper from day one"
            else:
                extra = " (only with the resale)" if o.status == "at-horizon-with-resale" else ""
                months = o.breakeven_days / 30.4375
                be = f"break-even after <b>{months:.1f} months</b> ({o.breakeven_hours:,.0f} h of work){extra}"
            bits.append(f"{o.label.split(':')[0]} ({o.pricing.value}, speed ratio {o.speedup:.2f}): {be}")
        if r.notes:
            bits.append("<i>" + "; ".join(r.notes) + "</i>")
        self.summary.setText("<br>".join(bits))

    def breakeven_text(self) -> str:
        return self.summary.text()

    # --- charts ----------------------------------------------------------------------------------------------------

    def ensure_charts(self) -> None:
        if self._charts_ready:
            return
        from rigplan.gui import charts

        self._plots = charts.build_charts(self)
        self.chart_tabs.removeTab(0)
        self._placeholder.deleteLater()
        self.chart_tabs.addTab(self._plots["breakeven_widget"], "Break-even")
        self.chart_tabs.addTab(self._plots["breakdown_widget"], "Cost breakdown")
        self.chart_tabs.addTab(self._plots["tornado_widget"], "Sensitivity")
        self.chart_tabs.currentChanged.connect(lambda _: self._update_charts())
        self._charts_ready = True
        self._update_charts()

    def _axis_changed(self, index: int) -> None:
        self.by_months = index == 0
        if self._charts_ready:
            self._update_charts()

    def _update_charts(self) -> None:
        from rigplan.gui import charts

        assert self.report is not None
        if not self.isVisible():
            self._stale = True  # drawn when the tab is shown (showEvent)
            return
        self._stale = False
        if self.chart_tabs.currentIndex() == 0:
            charts.update_charts(self, self.report)
            return
        # The breakdown and sensitivity charts are only drawn while one of them is on screen.
        tornado = []
        if self._inputs and self.chart_tabs.currentIndex() == 2:
            tornado = sensitivity(self._costing.own, self._inputs[0], self.build.assumptions)
        charts.update_side_charts(self, self.report, tornado)

    def showEvent(self, event: Any) -> None:  # noqa: N802
        super().showEvent(event)
        if self._charts_ready and getattr(self, "_stale", False):
            self._update_charts()

    def curve_data(self) -> dict[str, tuple[list[float], list[float]]]:
        """What the break-even chart shows, by curve name (for tests and the read-out)."""
        return charts_data(self)


def charts_data(view: CostsView) -> dict[str, tuple[list[float], list[float]]]:
    out = {}
    for name, item in view._curves.items():
        x, y = item.getData()
        out[name] = ([] if x is None else list(x), [] if y is None else list(y))
    return out


def _prices(o: Offer) -> str:
    bits = []
    for label, v in (("on-demand", o.ondemand_usd_h), ("spot", o.spot_usd_h), ("1y", o.reserved_1y_usd_h)):
        if v:
            bits.append(f"{label} ${v:,.3f}/h")
    return ", ".join(bits) or "no price"


def _qcolor(hex_color: str) -> Any:
    from PySide6.QtGui import QColor

    return QColor(hex_color)


class _WordsProxy(QSortFilterProxyModel):
    def __init__(self) -> None:
        super().__init__()
        self._words: list[str] = []

    def set_words(self, text: str) -> None:
        self._words = text.lower().split()
        refilter(self)

    def filterAcceptsRow(self, row: int, parent: Any) -> bool:  # noqa: N802
        if not self._words:
            return True
        text = self.sourceModel().index(row, 0, parent).data().lower()
        return all(w in text for w in self._words)
