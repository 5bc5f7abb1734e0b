"""Cost of one job, as bars: the build's electricity against each offer's bill (hours per job in each label)."""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import QSizePolicy, QWidget

ROW = 24


class CostBars(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rows: list[tuple[str, float | None, str]] = []  # (label, cost, text after the bar)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Minimum)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt API
        return QSize(400, 28 + ROW * max(1, len(self.rows)))

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt API
        return self.sizeHint()

    def set_rows(self, rows: list[tuple[str, float | None, str]]) -> None:
        self.rows = rows
        self.updateGeometry()
        self.update()

    def paintEvent(self, _event: object) -> None:  # noqa: N802 - Qt API
        p = QPainter(self)
        pal = self.palette()
        p.setPen(pal.text().color())
        p.drawText(QRectF(0, 0, self.width(), 20), Qt.AlignmentFlag.AlignLeft, "Cost of one job")
        if not self.rows:
            p.end()
            return
        name_w = min(340, max(p.fontMetrics().horizontalAdvance(r[0]) for r in self.rows) + 12)
        text_w = max(p.fontMetrics().horizontalAdvance(r[2]) for r in self.rows) + 12
        bar_w = max(40, self.width() - name_w - text_w)
        top = max((c for _, c, _ in self.rows if c is not None), default=0.0) or 1.0
        for i, (name, cost, text) in enumerate(self.rows):
            y = 24 + i * ROW
            p.setPen(pal.text().color())
            p.drawText(QRectF(0, y, name_w - 6, ROW), Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight, name)
            if cost is not None:
                w = bar_w * cost / top
                p.fillRect(QRectF(name_w, y + 4, max(w, 1.0), ROW - 8), QColor("#009E73" if i == 0 else "#0072B2"))
                x = name_w + w + 6
            else:
                x = name_w
            p.drawText(QRectF(x, y, text_w + bar_w, ROW), Qt.AlignmentFlag.AlignVCenter, text)
        p.end()
