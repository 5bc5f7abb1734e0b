"""pyqtgraph charts of the Costs tab. Imported on first use only (see costs_view)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

from rigplan.costs.analysis import SensitivityBar
from rigplan.costs.model import CostReport
from rigplan.gui.chart_style import COLORS, DAYS_PER_MONTH, OWN_COLOR, OWN_COLOR_DARK

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


def _theme() -> tuple[QColor, QColor]:
    pal = QApplication.palette()
    return pal.color(QPalette.ColorRole.Base), pal.color(QPalette.ColorRole.Text)


def _plot(title: str) -> pg.PlotWidget:
    bg, fg = _theme()
    w = pg.PlotWidget(background=bg)
    w.setTitle(title, color=fg.name())
    for side in ("left", "bottom"):
        ax = w.getAxis(side)
        ax.setPen(fg)
        ax.setTextPen(fg)
        ax.setStyle(maxTickLevel=1)  # no unlabelled minor ticks: less to regenerate when the range moves
    # The axes draw the grid; at alpha < 1 every repaint blends full-width lines, which cost ~3 ms a frame.
    return w


def build_charts(view: Any) -> dict[str, Any]:
    pg.setConfigOptions(antialias=False)  # grid and bars need no antialiasing; curves ask for it below
    be = _plot("Cumulative cost: owning vs renting the same work")
    be.setAccessibleName("Break-even chart")
    legend = be.addLegend(offset=(10, 10), labelTextColor=_theme()[1], brush=pg.mkBrush(_theme()[0]))
    own = be.plot(
        [],
        [],
        pen=pg.mkPen(OWN_COLOR if _theme()[0].lightness() > 128 else OWN_COLOR_DARK, width=3),
        name="Own this build",
        antialias=True,
    )
    view._curves = {"own": own}
    resale = pg.ScatterPlotItem(size=11, symbol="d", brush=pg.mkBrush("#55a868"), pen=pg.mkPen("#2e6b3a"))
    be.addItem(resale)
    cheapest = pg.PlotDataItem([], [], pen=None)
    shade = pg.FillBetweenItem(own, cheapest, brush=pg.mkBrush(85, 168, 104, 70))
    be.addItem(shade)
    offer_items = []
    for n in range(len(COLORS)):
        item = be.plot([], [], pen=pg.mkPen(COLORS[n], width=2), antialias=True)
        item.setVisible(False)
        offer_items.append(item)
    markers = []
    for n in range(len(COLORS)):
        line = pg.InfiniteLine(angle=90, movable=False, pen=pg.mkPen(COLORS[n], style=pg.QtCore.Qt.PenStyle.DashLine))
        text = pg.TextItem("", color=COLORS[n], anchor=(0, 0.5), fill=pg.mkBrush(_theme()[0]))
        for item in (line, text):
            item.setVisible(False)
            be.addItem(item, ignoreBounds=True)
        markers.append((line, text))
    vline = pg.InfiniteLine(angle=90, movable=False, pen=pg.mkPen((128, 128, 128), width=1))
    be.addItem(vline, ignoreBounds=True)
    proxy = pg.SignalProxy(be.scene().sigMouseMoved, rateLimit=30, slot=lambda ev: _mouse(view, ev))

    bars = _plot("Cost at the horizon")
    bars.setAccessibleName("Cost breakdown chart")
    bars.addLegend(offset=(10, 10), labelTextColor=_theme()[1])
    tornado = _plot("Break-even sensitivity, first offer on the chart")
    tornado.setAccessibleName("Sensitivity chart")
    view._legend = legend
    return {
        "breakeven_widget": be,
        "breakdown_widget": bars,
        "tornado_widget": tornado,
        "offer_items": offer_items,
        "markers": markers,
        "resale": resale,
        "cheapest": cheapest,
        "shade": shade,
        "vline": vline,
        "proxy": proxy,
        "bar_items": [],
        "tornado_items": [],
    }


def update_charts(view: Any, report: CostReport) -> None:
    p = view._plots
    months = view.by_months
    # Every curve is a straight line until the horizon (plus the resale step on the last day), so three points
    # per curve draw exactly what the daily arrays hold, at a fraction of the painting cost.
    last = len(report.days) - 1
    keep = np.array(sorted({0, max(last - 1, 0), last}))
    x = (report.days / DAYS_PER_MONTH if months else report.hours)[keep]
    unit = "months" if months else "hours of work"
    be: pg.PlotWidget = p["breakeven_widget"]
    labels = (
        "Months from purchase" if months else "Hours of work on the desktop",
        f"Cumulative cost ({report.currency})",
    )
    if getattr(view, "_axis_labels", None) != labels:  # a new label makes the axis regenerate its ticks and text
        view._axis_labels = labels
        be.setLabel("bottom", labels[0])
        be.setLabel("left", labels[1])
    own_curve = report.own_curve[keep]
    view._curves["own"].setData(x, own_curve)
    p["resale"].setData([x[-1]], [own_curve[-1]])
    p["resale"].setToolTip(f"Resale at the horizon: -{report.resale:,.0f} {report.currency}")
    legend = view._legend
    names = [f"{o.label.split(':')[0]} ({o.pricing.value})" for o in report.offers[: len(p["offer_items"])]]
    rebuild_legend = names != [n for n in view._curves if n != "own"]
    if rebuild_legend:
        for name in list(view._curves):
            if name != "own":
                legend.removeItem(view._curves[name])
                del view._curves[name]
    cheapest = None
    top = max([report.own_curve.max()] + [o.curve[-1] for o in report.offers[:1]]) * 1.05
    for n, item in enumerate(p["offer_items"]):
        line, text = p["markers"][n]
        if n < len(report.offers):
            o = report.offers[n]
            name = names[n]
            curve = o.curve[keep]
            item.setData(x, curve)
            item.setVisible(True)
            if rebuild_legend:
                legend.addItem(item, name)
                view._curves[name] = item
            cheapest = curve if cheapest is None else np.minimum(cheapest, curve)
            if o.breakeven_days is not None:
                pos = o.breakeven_days / DAYS_PER_MONTH if months else o.breakeven_hours
                line.setValue(pos)
                label = f" {o.label.split(':')[0].split()[1]}: {pos:,.1f} {unit}"
                if text.textItem.toPlainText() != label:  # re-laying out HTML text costs more than comparing it
                    text.setText(label)
                text.setPos(pos, top * (0.62 - 0.07 * n))
                line.setVisible(True)
                text.setVisible(True)
            else:
                line.setVisible(False)
                text.setVisible(False)
        else:
            item.setVisible(False)
            line.setVisible(False)
            text.setVisible(False)
    if cheapest is not None:
        p["cheapest"].setData(x, np.maximum(cheapest, own_curve))
        p["shade"].setVisible(True)
    else:
        p["cheapest"].setData(x, own_curve)
        p["shade"].setVisible(False)
    # Only move the axes when the range really changes: a new range regenerates both axes' ticks and text.
    y_range, x_range = (0.0, _nice(max(top, 1.0))), (0.0, float(x[-1]))
    if getattr(view, "_ranges", None) != (y_range, x_range):
        view._ranges = (y_range, x_range)
        be.setYRange(*y_range, padding=0)
        be.setXRange(*x_range, padding=0.01)
        # Apply the new range now: pyqtgraph defers it to the paint, where it schedules a second paint.
        be.getPlotItem().vb.prepareForPaint()


def _nice(value: float) -> float:
    """Round up to a round number (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 x 10^k), so small edits keep the axis range."""
    exp = 10 ** np.floor(np.log10(value))
    for step in (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10):
        if value <= step * exp:
            return float(step * exp)
    return float(value)


def update_side_charts(view: Any, report: CostReport, tornado: list[SensitivityBar]) -> None:
    _update_breakdown(view._plots, report)
    _update_tornado(view._plots, tornado, report)


def _mouse(view: Any, ev: Any) -> None:
    p = view._plots
    be = p["breakeven_widget"]
    pos = ev[0]
    if not be.sceneBoundingRect().contains(pos) or view.report is None:
        return
    xv = be.getPlotItem().vb.mapSceneToView(pos).x()
    p["vline"].setValue(xv)
    r = view.report
    per_day = DAYS_PER_MONTH if view.by_months else max(r.hours[1] if len(r.hours) > 1 else 1, 1e-9)
    d = min(max(xv * per_day, 0), r.days[-1])
    own = r.upfront + r.own_slope_per_day * d - (r.resale if d >= r.days[-1] else 0)
    parts = [f"{'Month' if view.by_months else 'Hour'} {xv:,.1f}: own {view.money(own)}"]
    parts += [f"{o.label.split(':')[0].split()[1]} {view.money(o.slope_per_day * d)}" for o in r.offers]
    view.readout.setText(" · ".join(parts))


def _update_breakdown(p: dict[str, Any], report: CostReport) -> None:
    w: pg.PlotWidget = p["breakdown_widget"]
    for item in p["bar_items"]:
        w.removeItem(item)
    p["bar_items"] = []
    w.getPlotItem().legend.clear()
    cats = [("Own", {k: v for k, v in report.own_breakdown.items() if k != "total"})]
    cats += [
        (
            f"{o.label.split(':')[0].split()[1]}\n{o.pricing.value}",
            {k: v for k, v in o.cost_at_horizon.items() if k != "total"},
        )
        for o in report.offers
    ]
    seen = set()
    for key, color in BREAKDOWN_COLORS.items():
        xs, heights, bottoms = [], [], []
        for n, (_, parts) in enumerate(cats):
            v = parts.get(key, 0.0)
            if not v:
                continue
            pos = sum(max(parts.get(k, 0), 0) for k in list(BREAKDOWN_COLORS)[: list(BREAKDOWN_COLORS).index(key)])
            xs.append(n)
            heights.append(abs(v))
            bottoms.append(pos if v > 0 else v)
        if xs:
            bar = pg.BarGraphItem(x=xs, height=heights, y0=bottoms, width=0.6, brush=color, pen=pg.mkPen(None))
            w.addItem(bar)
            p["bar_items"].append(bar)
            if key not in seen:
                w.getPlotItem().legend.addItem(bar, LABELS[key])
                seen.add(key)
    w.getAxis("bottom").setTicks([[(n, name) for n, (name, _) in enumerate(cats)]])
    w.setLabel("left", f"{report.currency} at the horizon")
    w.setLogMode(y=False)


def _update_tornado(p: dict[str, Any], bars: list[SensitivityBar], report: CostReport) -> None:
    w: pg.PlotWidget = p["tornado_widget"]
    for item in p["tornado_items"]:
        w.removeItem(item)
    p["tornado_items"] = []
    horizon = report.days[-1] / DAYS_PER_MONTH
    if not bars or bars[0].base_days is None:
        text = pg.TextItem(
            "No break-even within the horizon for the first offer"
            if bars
            else "Add an offer to see which assumptions matter most",
            anchor=(0.5, 0.5),
        )
        w.addItem(text)
        text.setPos(0.5, 0.5)
        p["tornado_items"].append(text)
        return
    base = bars[0].base_days / DAYS_PER_MONTH
    ys = list(range(len(bars)))[::-1]
    for y, b in zip(ys, bars, strict=True):
        for days, color in ((b.low_days, "#4c72b0"), (b.high_days, "#dd8452")):
            v = horizon if days is None else days / DAYS_PER_MONTH
            item = pg.BarGraphItem(
                x0=[min(base, v)], x1=[max(base, v)], y=[y], height=0.6, brush=color, pen=pg.mkPen(None)
            )
            w.addItem(item)
            p["tornado_items"].append(item)
    line = pg.InfiniteLine(pos=base, angle=90, pen=pg.mkPen((128, 128, 128)))
    w.addItem(line)
    p["tornado_items"].append(line)
    w.getAxis("left").setTicks([[(y, f"{b.name}") for y, b in zip(ys, bars, strict=True)]])
    w.setLabel("bottom", "Break-even (months); blue: assumption -20 %, orange: +20 %")
