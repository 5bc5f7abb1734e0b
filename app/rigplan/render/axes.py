"""The axes of RigPlan's charts: numbers with thousands separators, amounts in the build's currency, and the bar
names of the breakdown chart fitted to the room each bar has. The Costs tab and the exported charts share them."""

from __future__ import annotations

import math
import re
from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics

from rigplan.wording import symbol


class NumberAxis(pg.AxisItem):
    """Tick labels with thousands separators and as many decimals as the spacing needs: "20,000", never "2e+04" or
    "x1e+03" (issue 29: the Compare chart's axes)."""

    def __init__(self, orientation: str) -> None:
        super().__init__(orientation)
        self.enableAutoSIPrefix(False)

    def tickStrings(self, values: list[float], scale: float, spacing: float) -> list[str]:  # noqa: N802
        step = spacing * scale
        digits = max(0, -int(math.floor(math.log10(step)))) if step > 0 else 0
        return [f"{v * scale:,.{digits}f}" for v in values]


class MoneyAxis(NumberAxis):
    """Tick labels in the plan's currency, as the Costs tab shows them: "$20,000", "€5,000", "CHF 1,000"."""

    def __init__(self, orientation: str, currency: str) -> None:
        super().__init__(orientation)
        self.sign = symbol(currency)

    def tickStrings(self, values: list[float], scale: float, spacing: float) -> list[str]:  # noqa: N802
        texts = super().tickStrings(values, scale, spacing)
        return [f"-{self.sign}{t[1:]}" if t.startswith("-") else f"{self.sign}{t}" for t in texts]


class BarAxis(pg.AxisItem):
    """A bottom axis naming bars (one tick per bar at x = 0, 1, ...), a few short lines each. A line wider than the
    room one bar has at the axis's present width is wrapped where the name breaks ("gpu_8x_" / "h100_sxm5",
    "Standard_" / "NC24ads_" / "A100_v4"), so neighbouring labels never run into each other and are not elided (issue
    29: "gpu_...sxm6" at 1280 px); only a piece too wide for the bar on its own, or a name needing more than
    MAX_LINES lines, is elided in the middle. pyqtgraph drops a label that would cross the axis's end: fitted to the
    room, the last bar keeps its label. Resizing fits them again. Used by the Costs tab's breakdown chart and by the
    exported one (PNG, SVG, PDF)."""

    MAX_LINES = 6

    def __init__(self, lines: int = 3) -> None:
        super().__init__("bottom")
        self.bars: list[list[str]] = []
        self.lines = lines
        self.setHeight(QFontMetrics(self.font()).lineSpacing() * lines + 16)  # room for the lines from the start

    def set_bars(self, bars: list[list[str]]) -> None:
        self.bars = bars
        self.fit()

    def fit(self) -> None:
        view = self.linkedView()
        x0, x1 = view.viewRange()[0] if view is not None else (-0.6, len(self.bars) - 0.4)
        unit = self.width() / (x1 - x0) if x1 > x0 and self.width() > 0 else 80.0
        room = int(max(unit * 0.8 - 6, 24))  # a bar sits 0.4 of a unit from the axis's ends
        fm = QFontMetrics(self.font())
        texts = [wrap_lines(b, fm, room, self.MAX_LINES) for b in self.bars]
        self.setTicks([[(n, "\n".join(t)) for n, t in enumerate(texts)]])
        need = max([self.lines, *(len(t) for t in texts)])
        height = fm.lineSpacing() * need + 16
        if abs(self.height() - height) > 0.5:
            self.setHeight(height)

    def resizeEvent(self, ev: Any = None) -> None:  # noqa: N802
        super().resizeEvent(ev)
        if getattr(self, "bars", None):  # None while pyqtgraph's own __init__ sizes the axis
            self.fit()


def wrap_lines(lines: list[str], fm: QFontMetrics, room: int, most: int) -> list[str]:
    """Each line broken after "_", "-", "." or a space where it is wider than `room` pixels; at most `most` lines,
    the last one elided in the middle when the name needs more."""
    out: list[str] = []
    for line in lines:
        current = ""
        for piece in re.findall(r"[^_\-.\s]*[_\-.\s]?", line):
            if not piece:
                continue
            if current and fm.horizontalAdvance(current + piece.rstrip()) > room:
                out.append(current.rstrip())
                current = piece
            else:
                current += piece
        out.append(current.rstrip())
    if len(out) > most:
        out = out[: most - 1] + ["".join(out[most - 1 :])]
    return [fm.elidedText(t, Qt.TextElideMode.ElideMiddle, room) for t in out]
