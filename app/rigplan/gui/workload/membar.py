"""The memory bar: what one GPU holds (weights, gradients, optimizer, activations, KV cache, overhead), stacked and
filling against the GPU's memory, with a line where the memory ends."""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

# Okabe-Ito colours: told apart with the common colour-vision deficiencies.
COLOURS = {
    "weights": "#0072B2",
    "gradients": "#E69F00",
    "optimizer": "#D55E00",
    "activations": "#009E73",
    "kv_cache": "#CC79A7",
    "overhead": "#999999",
}
LABELS = {"kv_cache": "KV cache"}


def label(part: str) -> str:
    return LABELS.get(part, part.capitalize())


class MemoryBar(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.parts: dict[str, float] = {}
        self.vram: float | None = None
        self.setMinimumHeight(54)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt API
        return QSize(400, 58)

    def set_memory(self, parts: dict[str, float], vram: float | None) -> None:
        self.parts = {k: v for k, v in parts.items() if v > 0}
        self.vram = vram
        total = sum(self.parts.values())
        lines = [f"{label(k)}: {v:.1f} GB" for k, v in self.parts.items()]
        have = f"{vram:g} GB" if vram else "unknown"
        self.setToolTip(f"Per GPU: {total:.1f} GB of {have}\n" + "\n".join(lines))
        self.update()

    @property
    def total(self) -> float:
        return sum(self.parts.values())

    def fill_fraction(self) -> float | None:
        """How full the GPU's memory is (over 1: does not fit); None when its memory is unknown."""
        return None if not self.vram else self.total / self.vram

    def paintEvent(self, _event: object) -> None:  # noqa: N802 - Qt API
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        w, h = self.width() - 2, self.height()
        bar_h = 26
        scale_to = max(self.total, self.vram or 0.0) or 1.0
        pal = self.palette()
        p.fillRect(QRectF(1, 4, w, bar_h), pal.alternateBase())
        x = 1.0
        for part, gb in self.parts.items():
            seg = w * gb / scale_to
            p.fillRect(QRectF(x, 4, seg, bar_h), QColor(COLOURS.get(part, "#777777")))
            x += seg
        if self.vram:
            vx = 1 + w * self.vram / scale_to
            over = self.total > self.vram
            p.setPen(QPen(QColor("#C00000" if over else pal.text().color()), 2))
            p.drawLine(int(vx), 0, int(vx), bar_h + 8)
        p.setPen(pal.text().color())
        have = f"{self.vram:g} GB" if self.vram else "memory unknown"
        p.drawText(QRectF(1, bar_h + 8, w, h - bar_h - 8), Qt.AlignmentFlag.AlignLeft, f"{self.total:.1f} GB needed")
        p.drawText(QRectF(1, bar_h + 8, w, h - bar_h - 8), Qt.AlignmentFlag.AlignRight, f"GPU: {have}")
        p.end()
