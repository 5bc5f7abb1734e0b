"""The cost breakdown and sensitivity charts of the Costs tab (pyqtgraph; imported on first use, see costs_view)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pyqtgraph as pg
from PySide6.QtWidgets import QVBoxLayout, QWidget

from rigplan.costs.analysis import SensitivityBar
from rigplan.costs.model import CostReport
from rigplan.exports.plan import name_lines
from rigplan.gui.costs.chart_style import DAYS_PER_MONTH
from rigplan.gui.costs.charts import FormatAxis, number, plot_widget, theme
from rigplan.gui.widgets.plain import esc
from rigplan.render.axes import BarAxis

BREAKDOWN_COLORS = {
    "parts": "#4c72b0",
    "tax_and_shipping": "#8172b3",
    "electricity": "#dd8452",
    "resale": "#55a868",
    "compute": "#c44e52",
    "spot_overhead": "#937860",
    "storage": "#64b5cd",
    "egress": "#ccb974",
}
LABELS = {
    "parts": "Parts",
    "tax_and_shipping": "Tax and shipping",
    "electricity": "Electricity",
    "resale": "Resale",
    "compute": "Compute",
    "spot_overhead": "Spot overhead",
    "storage": "Storage",
    "egress": "Egress",
}


class BreakdownChart:
    """Stacked bars of the cost at the horizon: owning, then each offer. The legend sits right of the plot."""

    def __init__(self, money_short: Callable[[float], str]) -> None:
        bg, fg = theme()
        self.widget = pg.GraphicsLayoutWidget()
        self.widget.setBackground(bg)
        self.widget.setAccessibleName("Cost breakdown chart")
        self.widget.setMinimumSize(260, 180)
        self.plot = self.widget.addPlot(
            row=0,
            col=0,
            title="Cost at the horizon",
            axisItems={"left": FormatAxis("left", money_short), "bottom": BarAxis()},
        )
        self.plot.setMenuEnabled(False)
        self.plot.setTitle("Cost at the horizon", color=fg.name())
        for side in ("left", "bottom"):
            ax = self.plot.getAxis(side)
            ax.setPen(fg)
            ax.setTextPen(fg)
        fm = self.widget.fontMetrics()
        self.plot.getAxis("left").setWidth(fm.horizontalAdvance("$000,000") + 14)
        self.legend = pg.LegendItem(labelTextColor=fg)
        # Right of the plot, at the top (a stretch below keeps its rows together): it never covers a bar.
        side = self.widget.addLayout(row=0, col=1)
        side.addItem(self.legend, row=0, col=0)
        side.addLabel("", row=1, col=0)
        side.layout.setRowStretchFactor(1, 1)
        side.setMaximumWidth(fm.horizontalAdvance("Tax and shipping") + 60)
        self.widget.ci.layout.setColumnStretchFactor(0, 10)
        self.items: list[Any] = []
        self.tick_names: list[str] = []

    def update(self, report: CostReport, names: list[str]) -> None:
        for item in self.items:
            self.plot.removeItem(item)
        self.items = []
        self.legend.clear()
        cats = [("Own", {k: v for k, v in report.own_breakdown.items() if k != "total"})]
        cats += [
            (
                "\n".join(name_lines(name, o.pricing.value)),  # the exported chart's lines (issue 29: one name)
                {k: v for k, v in o.cost_at_horizon.items() if k != "total"},
            )
            for name, o in zip(names, report.offers, strict=False)
        ]
        order = list(BREAKDOWN_COLORS)
        for key, color in BREAKDOWN_COLORS.items():
            xs, heights, bottoms = [], [], []
            for n, (_, parts) in enumerate(cats):
                v = parts.get(key, 0.0)
                if not v:
                    continue
                pos = sum(max(parts.get(k, 0), 0) for k in order[: order.index(key)])
                xs.append(n)
                heights.append(abs(v))
                bottoms.append(pos if v > 0 else v)
            if xs:
                bar = pg.BarGraphItem(x=xs, height=heights, y0=bottoms, width=0.6, brush=color, pen=pg.mkPen(None))
                self.plot.addItem(bar)
                self.items.append(bar)
                self.legend.addItem(bar, LABELS[key])
        self.tick_names = [name for name, _ in cats]
        self.plot.setXRange(-0.6, len(cats) - 0.4, padding=0)
        self.plot.getAxis("bottom").set_bars([name.split("\n") for name in self.tick_names])


class TornadoChart:
    """Which assumptions move the break-even most, for the offer chosen above the chart."""

    def __init__(self) -> None:
        self.widget = plot_widget("Break-even sensitivity", number, number)
        self.widget.setAccessibleName("Sensitivity chart")
        self.items: list[Any] = []
        self.offer_box: Any = None
        self.container = QWidget()
        lay = QVBoxLayout(self.container)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.widget, 1)

    def update(self, bars: list[SensitivityBar], horizon_days: float, offer_name: str) -> None:
        w = self.widget
        for item in self.items:
            w.removeItem(item)
        self.items = []
        w.setTitle(
            f"Break-even sensitivity: {esc(offer_name)}" if offer_name else "Break-even sensitivity", color=theme()[1]
        )
        if not bars or bars[0].base_days is None:
            text = pg.TextItem(
                f"No break-even within the horizon for {offer_name}"
                if bars
                else "Tick an offer to see which assumptions matter most",
                anchor=(0.5, 0.5),
                color=theme()[1],
            )
            w.addItem(text)
            text.setPos(0.5, 0.5)
            self.items.append(text)
            return
        horizon = horizon_days / DAYS_PER_MONTH
        base = bars[0].base_days / DAYS_PER_MONTH
        ys = list(range(len(bars)))[::-1]
        for y, b in zip(ys, bars, strict=True):
            for days, color in ((b.low_days, "#4c72b0"), (b.high_days, "#dd8452")):
                v = horizon if days is None else days / DAYS_PER_MONTH
                item = pg.BarGraphItem(
                    x0=[min(base, v)], x1=[max(base, v)], y=[y], height=0.6, brush=color, pen=pg.mkPen(None)
                )
                w.addItem(item)
                self.items.append(item)
        line = pg.InfiniteLine(pos=base, angle=90, pen=pg.mkPen((128, 128, 128)))
        w.addItem(line)
        self.items.append(line)
        left = w.getAxis("left")
        left.setTicks([[(y, b.name) for y, b in zip(ys, bars, strict=True)]])
        left.setWidth(max(w.fontMetrics().horizontalAdvance(b.name) for b in bars) + 16)
        w.setLabel("bottom", "Break-even (months); blue: assumption -20 %, orange: +20 %")
