"""The break-even chart of the Costs tab (pyqtgraph). Imported on first use only (see costs_view).

No legend inside the plot: the side table of the Costs tab names each curve by its colour, holds its show/hide box
and the read-out under the pointer, so nothing covers the lines at any window size.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

from rigplan.costs.model import CostReport
from rigplan.exports.plan import stack_label
from rigplan.gui.costs.chart_style import COLORS, DAYS_PER_MONTH, OWN_COLOR, OWN_COLOR_DARK
from rigplan.gui.widgets.plain import tip as plain_tip

# Break-even labels closer than this share of the x range go on different rows, so they never overlap.
TITLE = "Cumulative cost: owning vs renting the same work"


def theme() -> tuple[QColor, QColor]:
    pal = QApplication.palette()
    return pal.color(QPalette.ColorRole.Base), pal.color(QPalette.ColorRole.Text)


class FormatAxis(pg.AxisItem):
    """An axis whose tick labels come from a function: thousands separators and the currency, never "x1e+03"."""

    def __init__(self, orientation: str, fmt: Callable[[float], str]) -> None:
        super().__init__(orientation)
        self.fmt = fmt
        self.enableAutoSIPrefix(False)

    def tickStrings(self, values: list[float], scale: float, spacing: float) -> list[str]:  # noqa: N802
        if self.fmt is number:  # as many decimals as the tick spacing needs: 9.5, 10, 10.5, never "10, 10"
            digits = max(0, int(-np.floor(np.log10(spacing * scale)))) if spacing > 0 else 0
            return [f"{v * scale:,.{digits}f}" for v in values]
        return [self.fmt(v * scale) for v in values]


def plot_widget(title: str, left: Callable[[float], str], bottom: Callable[[float], str]) -> pg.PlotWidget:
    bg, fg = theme()
    w = pg.PlotWidget(
        background=bg, axisItems={"left": FormatAxis("left", left), "bottom": FormatAxis("bottom", bottom)}
    )
    w.setTitle(title, color=fg.name())
    for side in ("left", "bottom"):
        ax = w.getAxis(side)
        ax.setPen(fg)
        ax.setTextPen(fg)
        ax.setStyle(maxTickLevel=1)  # no unlabelled minor ticks: less to regenerate when the range moves
    w.setMenuEnabled(False)
    w.setMinimumSize(260, 180)
    return w


def number(v: float) -> str:
    return f"{v:,.0f}" if abs(v) >= 10 or v == int(v) else f"{v:,.1f}"


class BreakEvenChart:
    """Cumulative cost of owning against each offer, over calendar months or hours of work."""

    def __init__(self, money_short: Callable[[float], str]) -> None:
        pg.setConfigOptions(antialias=False)  # grid and markers need no antialiasing; curves ask for it below
        bg, fg = theme()
        self.money_short = money_short
        self.widget = plot_widget(TITLE, self._money, number)
        self.widget.getPlotItem().titleLabel.item.setToolTip("Each offer rents the work this build does")
        self.widget.setAccessibleName("Break-even chart")
        self.widget.getAxis("left").setWidth(max(60, self.widget.fontMetrics().horizontalAdvance("$000,000") + 14))
        own_color = OWN_COLOR if bg.lightness() > 128 else OWN_COLOR_DARK
        self.own = self.widget.plot([], [], pen=pg.mkPen(own_color, width=3), antialias=True)
        self.resale = pg.ScatterPlotItem(size=11, symbol="d", brush=pg.mkBrush("#55a868"), pen=pg.mkPen("#2e6b3a"))
        self.widget.addItem(self.resale)
        self.cheapest = pg.PlotDataItem([], [], pen=None)
        self.shade = pg.FillBetweenItem(self.own, self.cheapest, brush=pg.mkBrush(85, 168, 104, 60))
        self.widget.addItem(self.shade)
        self.curves: list[Any] = []
        self.markers: list[tuple[Any, Any]] = []
        for color in COLORS:
            curve = self.widget.plot([], [], pen=pg.mkPen(color, width=2), antialias=True)
            curve.setVisible(False)
            self.curves.append(curve)
            faint = QColor(color)
            faint.setAlpha(110)  # the marker is lighter than its curve: the curve stays the one line in full colour
            line = pg.InfiniteLine(angle=90, movable=False, pen=pg.mkPen(faint, style=pg.QtCore.Qt.PenStyle.DashLine))
            text = pg.TextItem("", color=fg, anchor=(0.5, 0), fill=pg.mkBrush(bg), border=pg.mkPen(faint))
            for item in (line, text):
                item.setVisible(False)
                self.widget.addItem(item, ignoreBounds=True)
            self.markers.append((line, text))
        self.vline = pg.InfiniteLine(angle=90, movable=False, pen=pg.mkPen((128, 128, 128), width=1))
        self.vline.setVisible(False)
        self.widget.addItem(self.vline, ignoreBounds=True)
        self._labels: tuple[str, str] | None = None
        self._ranges: tuple[tuple[float, float], tuple[float, float]] | None = None
        self.x: np.ndarray = np.zeros(0)
        self._marked: tuple[Any, ...] | None = None
        self.widget.getPlotItem().vb.sigResized.connect(self._resized)

    def _resized(self, *_: object) -> None:
        # The title's text sets the plot layout's minimum width: on a narrow chart the full title pushed the plot's
        # right end (the horizon and the resale) out of sight, so a short title is used there.
        fg = theme()[1]
        wide = self.widget.width() >= self.widget.fontMetrics().horizontalAdvance(TITLE) * 1.5 + 120
        title = TITLE if wide else "Owning vs renting"
        if self.widget.getPlotItem().titleLabel.text != title:
            self.widget.setTitle(title, color=fg.name())
        if self._marked is not None:  # a new width may need the labels on more (or fewer) rows
            self._place_markers(*self._marked)

    def _money(self, v: float) -> str:
        return self.money_short(v)

    def plot_rect(self) -> QRectF:
        """The plot area (inside the axes) in the widget's coordinates, for tests and screenshots."""
        vb = self.widget.getPlotItem().vb
        return self.widget.mapFromScene(vb.sceneBoundingRect()).boundingRect()

    def update(
        self, report: CostReport, months: bool, shown: list[bool], names: list[str], tips: list[str] | None = None
    ) -> None:
        """Draw `report`; shown[n] says whether offer n is drawn (its show box in the side table); tips[n] is the
        tooltip of offer n's curve (its source and the date of its price)."""
        # Every curve is a straight line until the horizon (plus the resale step on the last day), so three points
        # per curve draw exactly what the daily arrays hold, at a fraction of the painting cost.
        last = len(report.days) - 1
        keep = np.array(sorted({0, max(last - 1, 0), last}))
        x = (report.days / DAYS_PER_MONTH if months else report.hours)[keep]
        self.x = x
        labels = ("Months from purchase" if months else "Hours of work on the desktop", "Cumulative cost")
        if self._labels != labels:  # a new label makes the axis regenerate its ticks and text
            self._labels = labels
            self.widget.setLabel("bottom", labels[0])
            self.widget.setLabel("left", labels[1])
        own_curve = report.own_curve[keep]
        if set_if_changed(self.own, x, own_curve):
            self.resale.setData([x[-1]], [own_curve[-1]])
            self.resale.setToolTip(f"Resale at the horizon: -{self.money_short(report.resale)}")
        top = float(report.own_curve.max()) if len(report.own_curve) else 1.0
        cheapest = None
        for n, curve in enumerate(self.curves):
            visible = n < len(report.offers) and shown[n]
            curve.setVisible(visible)
            if visible:
                tip = tips[n] if tips and n < len(tips) else ""
                if curve.toolTip() != tip:
                    curve.setToolTip(plain_tip(tip))
                c = report.offers[n].curve[keep]
                set_if_changed(curve, x, c)
                top = max(top, float(c[-1]))
                cheapest = c if cheapest is None else np.minimum(cheapest, c)
        set_if_changed(self.cheapest, x, own_curve if cheapest is None else np.maximum(cheapest, own_curve))
        self.shade.setVisible(cheapest is not None)
        # Only move the axes when the range really changes: a new range regenerates both axes' ticks and text.
        # At least 1,000 of the currency tall: an empty build's flat zero read "$1, $1, $1, $0, $0" (issue 40)
        y_range, x_range = (0.0, nice(max(top * 1.12, 1000.0))), (0.0, float(x[-1]) if len(x) else 1.0)
        if self._ranges is not None and 0.45 * self._ranges[0][1] <= y_range[1] <= self._ranges[0][1]:
            # Keep a taller y axis while the curves still fill half of it: the axis does not jump on every edit
            # (and regenerating its ticks is the dearest part of a repaint).
            y_range = self._ranges[0]
        if self._ranges != (y_range, x_range):
            self._ranges = (y_range, x_range)
            self.widget.setYRange(*y_range, padding=0)
            self.widget.setXRange(*x_range, padding=0.02)
            # Apply the new range now: pyqtgraph defers it to the paint, where it schedules a second paint.
            self.widget.getPlotItem().vb.prepareForPaint()
        self._place_markers(report, months, shown, names, x, y_range[1])

    def _place_markers(
        self, report: CostReport, months: bool, shown: list[bool], names: list[str], x: np.ndarray, y_top: float
    ) -> None:
        """A dashed line and a label per break-even, naming the offer (names[n]: provider and GPUs). Labels are
        measured in pixels: one that would cross the plot's edge is shifted inside it (anchored at its line's end,
        never clipped), and one that would overlap a label already placed goes on the next row down."""
        self._marked = (report, months, shown, names, x, y_top)
        unit = "mo" if months else "h"
        vb = self.widget.getPlotItem().vb
        (x0, x1), vb_width = vb.viewRange()[0], vb.width()
        per_px = (x1 - x0) / vb_width if vb_width > 0 and x1 > x0 else 0.0
        fm = self.widget.fontMetrics()
        (y0, y1), vb_height = vb.viewRange()[1], vb.height()
        y_per_px = (y1 - y0) / vb_height if vb_height > 0 else 0.085 * y_top / (fm.height() + 16)
        rows: list[list[tuple[float, float]]] = []  # pixel spans taken on each row of labels
        # Labels fill at most the top 40 % of the plot, 3 rows at least (issue 40: at 1280 with the assumptions
        # open, 8 offers' boxes covered most curves and the crossings): past that a label shrinks to its figure
        # ("7.0 mo" in the curve's colour), then to its dashed line only; the side table names every break-even.
        most = max(3, int(0.4 * vb_height / (fm.height() + 16))) if vb_height > 0 else len(self.markers)
        for n, (line, text) in enumerate(self.markers):
            o = report.offers[n] if n < len(report.offers) else None
            if o is None or not shown[n] or o.breakeven_days is None:
                line.setVisible(False)
                text.setVisible(False)
                continue
            pos = o.breakeven_days / DAYS_PER_MONTH if months else (o.breakeven_hours or 0.0)
            figure = f"{f'{pos:,.1f}' if months else number(pos)} {unit}"
            at = (pos - x0) / per_px if per_px else 0.0  # the line's pixel position in the plot
            for label in (f"{names[n]} {figure}", figure):
                trial = [list(r) for r in rows]
                row, anchor = stack_label(trial, at, fm.horizontalAdvance(label) + 12, vb_width)  # + margins, border
                if row < most:
                    rows = trial
                    break
            line.setVisible(True)
            if row >= most:  # no room left above the curves: the dashed line only
                text.setVisible(False)
                continue
            if text.textItem.toPlainText() != label:  # re-laying out HTML text costs more than comparing it
                text.setText(label)
            if abs(text.anchor.x() - anchor) > 1e-3:
                text.setAnchor((anchor, 0))
            y = y_top * 0.99 - row * (fm.height() + 16) * y_per_px  # rows one label's height apart
            if line.value() != pos:
                line.setValue(pos)
            if (text.pos().x(), text.pos().y()) != (pos, y):
                text.setPos(pos, y)
            line.setVisible(True)
            text.setVisible(True)


def set_if_changed(item: Any, x: np.ndarray, y: np.ndarray) -> bool:
    """setData only for new data: an unchanged curve (most offers, when a drive is added) costs no repaint."""
    old_x, old_y = item.getData()
    if old_x is not None and np.array_equal(old_x, x) and np.array_equal(old_y, y):
        return False
    item.setData(x, y)
    return True


def nice(value: float) -> float:
    """Round up to a round number (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 x 10^k), so small edits keep the axis range."""
    exp = 10 ** np.floor(np.log10(value))
    for step in (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10):
        if value <= step * exp:
            return float(step * exp)
    return float(value)
