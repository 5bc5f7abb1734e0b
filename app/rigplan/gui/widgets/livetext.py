"""LiveText: a label for text that changes on every edit (totals, the break-even summary, the chart read-out).

A QLabel's setText() calls updateGeometry(). The layout request climbs to the window, and each QTabWidget on the way
answers it by repainting everything it holds: one new total repainted the whole Costs tab, charts included (about
12 ms a part change). LiveText has a fixed height, never asks for a new layout, and repaints only its own rectangle
(its parents paint just the background behind it, as they would for a QLabel).
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize
from PySide6.QtGui import QAbstractTextDocumentLayout, QPainter, QPalette, QTextDocument, QTextOption
from PySide6.QtWidgets import QSizePolicy, QWidget


class LiveText(QWidget):
    def __init__(self, text: str = "", lines: int = 1, rich: bool = False, wrap: bool = True) -> None:
        super().__init__()
        self._rich = rich
        self._text = ""
        self._doc = QTextDocument(self)
        self._doc.setDocumentMargin(0)
        self._doc.setDefaultFont(self.font())
        option = QTextOption()
        option.setWrapMode(QTextOption.WrapMode.WordWrap if wrap else QTextOption.WrapMode.NoWrap)
        self._doc.setDefaultTextOption(option)
        self._height = self.fontMetrics().lineSpacing() * lines + 4
        self.setFixedHeight(self._height)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setText(text)

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(200, self._height)

    def minimumSizeHint(self) -> QSize:  # noqa: N802
        return QSize(50, self._height)

    def text(self) -> str:
        """The text as set (HTML when rich), like QLabel.text()."""
        return self._text

    def setText(self, text: str) -> None:  # noqa: N802
        if text == self._text:
            return
        self._text = text
        if self._rich:
            self._doc.setHtml(text)
        else:
            self._doc.setPlainText(text)
        self.setAccessibleDescription(self._doc.toPlainText())
        self.setToolTip(self._doc.toPlainText() if self._doc.size().height() > self._height else "")
        self.update()

    def changeEvent(self, event: object) -> None:  # noqa: N802
        super().changeEvent(event)  # type: ignore[arg-type]
        self._doc.setDefaultFont(self.font())

    def paintEvent(self, _event: object) -> None:  # noqa: N802
        p = QPainter(self)
        pal = self.palette()
        if self._doc.textWidth() != self.width():  # re-wrapping costs more than painting: only on a new width
            self._doc.setTextWidth(self.width())
        ctx = QAbstractTextDocumentLayout.PaintContext()
        ctx.palette = QPalette(pal)
        ctx.palette.setColor(QPalette.ColorRole.Text, pal.color(QPalette.ColorRole.WindowText))
        rect = QRectF(self.rect())
        if self._doc.size().height() > rect.height():  # whole lines only: a line cut in half reads as a fault
            rect.setHeight(self._full_lines_height(rect.height()))
        ctx.clip = rect
        p.setClipRect(rect)
        self._doc.documentLayout().draw(p, ctx)
        p.end()

    def _full_lines_height(self, limit: float) -> float:
        """The bottom of the last line that fits in `limit` (the rest is in the tooltip)."""
        bottom = 0.0
        block = self._doc.begin()
        while block.isValid():
            top = self._doc.documentLayout().blockBoundingRect(block).top()
            layout = block.layout()
            for i in range(layout.lineCount()):
                line = layout.lineAt(i)
                if top + line.y() + line.height() > limit:
                    return bottom
                bottom = top + line.y() + line.height()
            block = block.next()
        return bottom
