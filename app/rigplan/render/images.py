"""Charts of a Plan as pyqtgraph plots that can be drawn into any QPainter: PNG (chosen size and DPI), SVG
(QSvgGenerator) and the PDF report all paint the same scene, so every copy shows the same curves as vectors.

The plots are built here from the exports' Plan, not taken from the Costs workspace, so `rigplan export` draws
them without a window and a GUI export does not depend on what the workspace has scrolled or hidden.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFontMetrics, QImage, QPainter
from PySide6.QtSvg import QSvgGenerator

from rigplan.costs.model import DAYS_PER_MONTH
from rigplan.exports.compare import Comparison
from rigplan.exports.plan import Plan, name_lines, stack_label
from rigplan.render.axes import BarAxis, MoneyAxis, NumberAxis
from rigplan.render.svgfix import fix_strokes
from rigplan.wording import BreakEven, symbol

# The Costs workspace's colours (gui/costs/costs_view.py), so an exported chart matches the one on screen.
OFFER_COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"]
OWN_COLOR = "#222222"
BUILD_COLORS = ["#222222", "#8c564b", "#e377c2", "#17becf"]  # own curves in the comparison (dark, then distinct)
PARTS = [
    ("parts", "Parts", "#4c72b0"),
    ("tax_and_shipping", "Tax and shipping", "#8172b3"),
    ("electricity", "Electricity", "#dd8452"),
]
RENT = [
    ("compute", "Compute", "#c44e52"),
    ("spot_overhead", "Spot overhead", "#937860"),
    ("storage", "Storage", "#64b5cd"),
    ("egress", "Egress", "#ccb974"),
]
RESALE_COLOR = "#55a868"
CHART_TITLES = {
    "breakeven": "Cumulative cost: owning vs renting the same work",
    "breakdown": "Cost at the horizon",
    "sensitivity": "Break-even sensitivity, first offer on the chart",
}
LOW_COLOR, HIGH_COLOR = "#4c72b0", "#dd8452"  # as the Costs workspace's tornado chart


class Chart(pg.PlotWidget):
    """A plot whose labels depend on its laid-out size (break-even labels in pixels): `after_layout` runs once the
    plot has its final size, before it is painted (lay_out)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.after_layout: list[Callable[[], None]] = []


def legend_below(w: pg.PlotWidget, columns: int = 2) -> pg.LegendItem:
    """The legend in a row of its own under the x axis, so it can never cover a curve, a bar or a label, and never
    be cut by the plot's edge (issue 29: the PDF's legend covered a line; the Compare chart's was cut). It becomes the
    plot's legend: `plot(name=...)` adds to it."""
    item = w.getPlotItem()
    legend = pg.LegendItem(colCount=columns, labelTextColor="#000000", verSpacing=0)
    item.layout.addItem(legend, item.layout.rowCount(), 1)
    item.legend = legend
    return legend


def _plot(title: str, x: str, y: str, offscreen: bool = True, left: pg.AxisItem | None = None) -> Chart:
    """A white, print-friendly plot (exports do not follow a dark screen theme)."""
    w = Chart(background="w", axisItems={"left": left or NumberAxis("left"), "bottom": NumberAxis("bottom")})
    if offscreen:
        w.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen)  # laid out without ever appearing
    w.setTitle(title, color="#000000", size="12pt")
    for side, label in (("left", y), ("bottom", x)):
        ax = w.getAxis(side)
        ax.setPen("#444444")
        ax.setTextPen("#000000")
        ax.setLabel(label, color="#000000")
        ax.setStyle(maxTickLevel=1)  # no unlabelled minor ticks: their grid lines crowd a printed page
    w.showGrid(x=True, y=True, alpha=0.25)
    return w


def breakeven_plot(plan: Plan) -> pg.PlotWidget:
    """As the Costs tab draws it (issue 29): months from purchase, costs in the plan's currency, a dashed line and a
    label per break-even naming the offer as the screen does; the legend under the plot."""
    cur, cost = plan.currency, plan.cost
    w = _plot(
        CHART_TITLES["breakeven"], "Months from purchase", f"Cumulative cost ({cur})", left=MoneyAxis("left", cur)
    )
    legend_below(w)
    last = len(cost.days) - 1
    # Straight lines until the horizon (plus the resale step on the last day): these points draw the daily arrays.
    idx = [0, last - 1, last] if last > 1 else list(range(last + 1))
    months = cost.days / DAYS_PER_MONTH
    w.plot(months[idx], cost.own_curve[idx], pen=pg.mkPen(OWN_COLOR, width=3), name="Own this build", antialias=True)
    labels = [plan.offer_name(o.id, o.pricing, o.label) for o in cost.offers]  # one name per offer (issue 29)
    marks: list[tuple[float, Any]] = []
    for n, o in enumerate(cost.offers):
        color = OFFER_COLORS[n % len(OFFER_COLORS)]
        w.plot(months[[0, last]], o.curve[[0, last]], pen=pg.mkPen(color, width=2), name=_name(plan, o), antialias=True)
        if o.status is BreakEven.BREAKS_EVEN and o.breakeven_days is not None:
            x = o.breakeven_days / DAYS_PER_MONTH
            y = cost.upfront + cost.own_slope_per_day * o.breakeven_days
            # useCache=False: the dot is painted as a path, not stamped from a pixmap, so it stays vector in PDF/SVG
            w.addItem(pg.ScatterPlotItem([x], [y], symbol="o", size=9, brush=color, pen=color, useCache=False))
            faint = QColor(color)
            faint.setAlpha(140)
            w.addItem(pg.InfiniteLine(pos=x, angle=90, pen=pg.mkPen(faint, style=Qt.PenStyle.DashLine)))
            text = pg.TextItem(f"{labels[n]} {x:,.1f} mo", color="#000000", anchor=(0.5, 0),
                               fill=pg.mkBrush("#ffffff"), border=pg.mkPen(faint))  # fmt: skip
            w.addItem(text, ignoreBounds=True)
            marks.append((x, text))
    top = float(max([cost.own_curve.max(), *(o.curve[-1] for o in cost.offers)])) if len(cost.days) else 1.0
    w.setXRange(0, float(months[-1]), padding=0.02)
    w.setYRange(-0.01 * top, top * 1.05, padding=0)
    w.after_layout.append(lambda: place_labels(w, marks, top * 1.05))
    return w


def place_labels(w: pg.PlotWidget, marks: list[tuple[float, Any]], top: float) -> None:
    """Break-even labels measured in pixels, as the Costs tab places them: each centred on its line but kept inside
    the plot, a label that would overlap one already placed goes a row down; then the y axis grows so the rows sit
    above every curve (a label never covers a line)."""
    vb = w.getPlotItem().vb
    (x0, x1), width, height = vb.viewRange()[0], vb.width(), vb.height()
    if not marks or width <= 0 or height <= 0 or x1 <= x0:
        return
    fm = QFontMetrics(marks[0][1].textItem.font())
    row_h = fm.height() + 12
    rows: list[list[tuple[float, float]]] = []
    placed = []
    for x, text in sorted(marks, key=lambda m: m[0]):
        wide = fm.horizontalAdvance(text.textItem.toPlainText()) + 12
        row, anchor = stack_label(rows, (x - x0) / (x1 - x0) * width, wide, width)
        text.setAnchor((anchor, 0))
        placed.append((x, text, row))
    band = len(rows) * row_h + 6  # pixels the labels take under the top edge
    # 0 sits half a tick label above the plot's bottom edge: pyqtgraph drops a tick label that would cross the axis's
    # bounding box (with the grid on, the plot's own), and at the PDF's page size "$0" a hair above the edge did
    # (issue 29). In pixels, so it holds at every size: lo = -m * hi / (height - m) puts 0 m px above the bottom.
    axis = w.getAxis("left")
    m = QFontMetrics(axis.style.get("tickFont") or axis.font()).height() / 2 + 3
    free = max(height - m, 1.0)
    span_y = top / max(1.0 - band / free, 0.3)  # the curves (all below `top`) end under the band
    w.setYRange(-m * span_y / free, span_y, padding=0)
    vb.prepareForPaint()
    per_px = span_y / height
    for x, text, row in placed:
        text.setPos(x, span_y - (3 + row * row_h) * per_px)


def _name(plan: Plan, o: Any) -> str:
    """The legend's entry: the offer's one name (Plan.offer_name) and its pricing, unless the name has it already."""
    name = plan.offer_name(o.id, o.pricing, o.label)
    text = name if name.endswith(o.pricing.value) else f"{name} {o.pricing.value}"
    return html.escape(text)  # pyqtgraph's legend draws HTML: data shows as typed


def _tick(plan: Plan, o: Any) -> list[str]:
    return name_lines(plan.offer_name(o.id, o.pricing, o.label), o.pricing.value)


def breakdown_plot(plan: Plan) -> pg.PlotWidget:
    """Stacked bars at the horizon: owning (parts, tax, electricity, less resale) beside renting from each offer."""
    cur, cost = plan.currency, plan.cost
    w = _plot(CHART_TITLES["breakdown"], "", f"Cost ({cur})", left=MoneyAxis("left", cur))
    w.showGrid(x=False, y=True, alpha=0.25)
    legend_below(w, columns=4)
    columns = [("Own", cost.own_breakdown, PARTS)] + [(_name(plan, o), o.cost_at_horizon, RENT) for o in cost.offers]
    named: set[str] = set()
    for x, (_, figures, parts) in enumerate(columns):
        base = 0.0
        for key, label, color in parts:
            v = figures.get(key, 0.0)
            if v <= 0:
                continue
            bar = pg.BarGraphItem(x=[x], height=[v], y0=[base], width=0.6, brush=color, pen=pg.mkPen("#ffffff"))
            w.addItem(bar)
            if label not in named:
                w.getPlotItem().legend.addItem(bar, label)
                named.add(label)
            base += v
    resale = -cost.own_breakdown["resale"]
    if resale > 0:
        bar = pg.BarGraphItem(
            x=[0], height=[-resale], y0=[cost.own_breakdown["total"] + resale], width=0.3, brush=RESALE_COLOR
        )
        w.addItem(bar)
        w.getPlotItem().legend.addItem(bar, "Resale (less)")
    # Three short lines a bar (provider, instance, pricing), each fitted to the bar's room.
    axis = BarAxis()
    w.getPlotItem().setAxisItems({"bottom": axis})
    axis.setPen("#000000")
    axis.setTextPen("#000000")
    w.setXRange(-0.6, len(columns) - 0.4, padding=0)
    axis.set_bars([["Own"]] + [_tick(plan, o) for o in cost.offers])
    return w


def comparison_plot(cmp: Comparison | None, offscreen: bool = True) -> pg.PlotWidget:
    """Each build's own cost and each offer's rent against the same work done (docs/exports.md explains the axis)."""
    title = "Cost of the same work: each build vs renting"
    w = _plot(title, "Work done (hours of training at one V100's speed)", "Cost", offscreen, MoneyAxis("left", "USD"))
    legend_below(w, columns=1)  # one column: the legend's width never forces the plot wider than its pane
    if cmp is not None:
        draw_comparison(w, cmp)
    return w


def draw_comparison(w: pg.PlotWidget, cmp: Comparison) -> None:
    """(Re)draw a comparison into a plot made by comparison_plot: the view keeps one plot and redraws it."""
    w.clear()
    w.getPlotItem().legend.clear()
    left = w.getAxis("left")
    left.setLabel(f"Cost ({cmp.currency})", color="#000000")
    if isinstance(left, MoneyAxis) and left.sign != symbol(cmp.currency):
        left.sign = symbol(cmp.currency)
        left.picture = None  # pyqtgraph keeps drawn tick text until the range changes
        left.update()
    own_n = offer_n = 0
    for c in cmp.curves:
        if c.own:
            color = BUILD_COLORS[own_n % len(BUILD_COLORS)]
            own_n += 1
            pen = pg.mkPen(color, width=3)
            pts = [0, len(c.work) - 2, len(c.work) - 1] if len(c.work) > 2 else list(range(len(c.work)))
        else:
            color = OFFER_COLORS[offer_n % len(OFFER_COLORS)]
            offer_n += 1
            pen = pg.mkPen(color, width=2, style=Qt.PenStyle.DashLine)
            pts = list(range(len(c.work)))
        w.plot([c.work[i] for i in pts], [c.cost[i] for i in pts], pen=pen, name=html.escape(c.label), antialias=True)


def sensitivity_plot(plan: Plan) -> pg.PlotWidget:
    """Break-even days against the first charted offer with each main assumption moved by -20 % and +20 % (the cost
    model's `sensitivity`); a bar that reaches the horizon means no break-even within it."""
    from rigplan.costs.analysis import sensitivity

    first = next((i for i in plan.inputs if i.speedup is not None), None)
    bars = sensitivity(plan.costing.own, first, plan.build.assumptions) if first else []
    w = _plot(CHART_TITLES["sensitivity"], "Break-even (days); blue: assumption -20 %, orange: +20 %", "")
    w.showGrid(x=True, y=False, alpha=0.25)
    if not bars or bars[0].base_days is None:
        why = "No break-even within the horizon" if bars else "No offer with a known speed ratio"
        w.setTitle(f"{CHART_TITLES['sensitivity']}: {why.lower()}", color="#000000", size="12pt")
        return w
    assert first is not None  # bars come from it
    horizon = float(plan.cost.days[-1])
    base = bars[0].base_days
    ys = list(range(len(bars)))[::-1]
    for y, b in zip(ys, bars, strict=True):
        for days, color in ((b.low_days, LOW_COLOR), (b.high_days, HIGH_COLOR)):
            v = horizon if days is None else days
            w.addItem(pg.BarGraphItem(x0=[min(base, v)], x1=[max(base, v)], y=[y], height=0.6, brush=color))
    w.addItem(pg.InfiniteLine(pos=base, angle=90, pen=pg.mkPen("#808080")))
    w.getAxis("left").setTicks([[(y, b.name) for y, b in zip(ys, bars, strict=True)]])
    title = f"{CHART_TITLES['sensitivity']} ({html.escape(plan.offer_name(first.id, first.pricing, first.label))})"
    w.setTitle(title, color="#000000", size="12pt")
    return w


def chart(plan: Plan, which: str) -> pg.PlotWidget:
    return {"breakeven": breakeven_plot, "breakdown": breakdown_plot, "sensitivity": sensitivity_plot}[which](plan)


def lay_out(w: pg.PlotWidget, size: QSize) -> None:
    """Give the plot its size and let it lay out (axes, legend) without showing a window."""
    w.resize(size)
    w.show()  # WA_DontShowOnScreen: nothing appears, but resize and layout events are delivered
    pg.QtWidgets.QApplication.processEvents()
    for step in getattr(w, "after_layout", ()):
        step()
    pg.QtWidgets.QApplication.processEvents()


def paint(w: pg.PlotWidget, painter: QPainter, target: QRectF) -> None:
    """Draw the plot's scene into a rectangle of any painter (PDF, SVG, image) as vector graphics."""
    w.scene().render(painter, target, QRectF(w.viewport().rect()))


def write_png(w: pg.PlotWidget, path: Path, width: int, height: int, dpi: int = 96) -> None:
    """width x height pixels; a higher DPI draws text and lines larger (as on paper) and records the DPI."""
    scale = dpi / 96
    lay_out(w, QSize(max(1, round(width / scale)), max(1, round(height / scale))))
    img = QImage(width, height, QImage.Format.Format_ARGB32)
    img.fill(QColor("white"))
    # Drawn at the logical size on an image of device pixel ratio `scale`: Qt scales every item, including those
    # that ignore the painter's transformations (the legend), as it does on a high-DPI screen.
    img.setDevicePixelRatio(scale)
    p = QPainter(img)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    paint(w, p, QRectF(0, 0, width / scale, height / scale))
    p.end()
    img.setDevicePixelRatio(1.0)
    # Recorded after painting: fonts are sized in points from the device's DPI, so setting it first would enlarge
    # the text a second time.
    img.setDotsPerMeterX(round(dpi / 0.0254))
    img.setDotsPerMeterY(round(dpi / 0.0254))
    if not img.save(str(path), "PNG"):  # type: ignore[call-overload]  # the stubs say bytes; PySide6 takes str
        raise OSError(f"could not write the image {path}")


def write_svg(w: pg.PlotWidget, path: Path, width: int, height: int, title: str = "") -> None:
    lay_out(w, QSize(width, height))
    gen = QSvgGenerator()
    gen.setFileName(str(path))
    gen.setSize(QSize(width, height))
    gen.setViewBox(QRectF(0, 0, width, height))
    gen.setResolution(96)  # width x height at screen density (the default, 72, makes the mm size a third larger)
    gen.setTitle(title)
    gen.setDescription("Made with RigPlan")
    p = QPainter()
    if not p.begin(gen):
        raise OSError(f"could not write the image {path}")
    # The scene has no background of its own (the view paints it): without this rectangle the SVG is transparent
    # and reads black-on-black in a dark viewer (issue 29).
    p.fillRect(QRectF(0, 0, width, height), QColor("white"))
    paint(w, p, QRectF(0, 0, width, height))
    p.end()
    fix_strokes(path)


def write_chart(
    plan: Plan, which: str, path: Path, fmt: str, width: int = 1200, height: int = 700, dpi: int = 96
) -> None:
    w = chart(plan, which)
    try:
        if fmt == "svg":
            write_svg(w, path, width, height, f"{plan.build.name}: {CHART_TITLES[which]}")
        else:
            write_png(w, path, width, height, dpi)
    finally:
        w.close()
        w.deleteLater()
