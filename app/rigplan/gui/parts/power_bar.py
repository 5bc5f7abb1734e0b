"""The power bar under the build table: the load to size the PSU for against the PSU's rating, and the line under it
(recommended PSU, wall draw while training and idle, Other items' watts)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

from rigplan.gui.widgets.livetext import LiveText

if TYPE_CHECKING:
    from rigplan.model import Build
    from rigplan.rules import Report


class PowerBar(QWidget):
    """Load watts against the PSU rating. Hand-drawn because QProgressBar.setValue repaints synchronously, which
    cost ~4 ms per build edit."""

    def __init__(self) -> None:
        super().__init__()
        self._value, self._maximum, self._text, self._over = 0, 1, "", False
        self.setMinimumHeight(self.fontMetrics().height() + 8)

    def value(self) -> int:
        return self._value

    def maximum(self) -> int:
        return self._maximum

    def text(self) -> str:
        return self._text

    def set_state(self, value: int, maximum: int, text: str, over: bool) -> None:
        state = (value, max(maximum, 1), text, over)
        if state != (self._value, self._maximum, self._text, self._over):
            self._value, self._maximum, self._text, self._over = state
            self.setAccessibleDescription(text)
            self.update()

    def paintEvent(self, _event: object) -> None:  # noqa: N802
        from PySide6.QtGui import QColor, QPainter

        p = QPainter(self)
        r = self.rect().adjusted(0, 0, -1, -1)
        pal = self.palette()
        p.setPen(pal.mid().color())
        p.setBrush(pal.base())
        p.drawRect(r)
        filled = r.adjusted(1, 1, 0, 0)
        filled.setWidth(int((r.width() - 1) * min(self._value / self._maximum, 1.0)))
        p.fillRect(filled, QColor("#c0392b") if self._over else pal.highlight().color())
        p.setPen(pal.text().color())
        p.drawText(r, Qt.AlignmentFlag.AlignCenter, self._text)
        p.end()


def show_power(bar: PowerBar, note: LiveText, report: Report | None, build: Build | None = None) -> None:
    """The bar and the line under it for the report's power estimate."""
    p = report.power if report is not None else None
    if p is None or not p.load_w:
        bar.set_state(0, 1, "No power draw yet", False)
        note.setText("")
        return
    over = bool(p.psu_w and p.sizing_w > p.psu_w)
    least = "at least " if p.unknown else ""
    need = int(p.sizing_w)
    if p.psu_w:
        bar.set_state(need, max(p.psu_w, need), f"{least}{need:,} W to size for, of a {p.psu_w:,} W PSU", over)
    else:  # issue 40: no bar filled against a PSU that is not there ("469 W ... of no PSU", drawn 85 % full)
        bar.set_state(0, 1, f"{least}{need:,} W to size for; no PSU chosen yet", False)
    bar.setToolTip(
        f"Full load {p.load_w:,.0f} W (GPUs at board power, CPU at sustained boost) plus GPU spikes unless the "
        "PSU is an ATX 3.x unit: what the PSU must carry (Help > User guide, Checks, says where each figure comes from)"
    )
    # A UPS's or a monitor's watts are on the wall, not on the PSU: said apart, as the cost model adds them
    # (docs/cost-model.md, "Other items"). Case fans are fed by the PSU: already in the figures above (issue 29).
    from rigplan.model.other import PSU_FED  # here, not at the top: it loads pydantic, after the first paint

    listed = [o for o in build.other if o.watts is not None] if build is not None else []
    wall = [o for o in listed if o.category not in PSU_FED]
    fans = [o for o in listed if o.category in PSU_FED]
    plus = f" Other items: +{sum(o.watts * o.quantity for o in wall if o.watts):,.1f} W at the wall." if wall else ""
    if fans:
        plus += f" Case fans listed: {sum(o.watts * o.quantity for o in fans if o.watts):,.1f} W, in the PSU load."
    note.setText(
        f"Recommended PSU: {p.recommended_psu_w} W. At the wall: {least}{p.wall_load_w:,.0f} W while training, "
        f"{p.wall_idle_w:,.0f} W idle.{plus}"
    )
