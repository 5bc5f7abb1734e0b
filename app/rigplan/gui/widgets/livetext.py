"""LiveText: a label for text that changes on every edit (totals, the break-even summary, the chart read-out).

A QLabel's setText() calls updateGeometry(). The layout request climbs to the window, and each QTabWidget on the way
answers it by repainting everything it holds: one new total repainted the whole Costs tab, charts included (about
12 ms a part change). LiveText has a fixed height, never asks for a new layout, and repaints only its own rectangle
(its parents paint just the background behind it, as they would for a QLabel).
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize
from PySide6.QtGui import QAbstractTextDocumentLayout, QPainter, QPalette, QTextCursor, QTextDocument, QTextOption
from PySide6.QtWidgets import QSizePolicy, QWidget


class LiveText(QWidget):
    def __init__(self, text: str = "", lines: int = 1, rich: bool = False, wrap: bool = True) -> None:
        super().__init__()
        self._rich = rich
        self._text = ""
        self._doc = QTextDocument(self)
        self._shown = self._doc  # what is drawn: the text, or its whole sentences that fit and "…" (see _fit)
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
        self._doc.setTextWidth(self.width())
        self._shown = self._fit()
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
            self._shown = self._fit()
        ctx = QAbstractTextDocumentLayout.PaintContext()
        ctx.palette = QPalette(pal)
        ctx.palette.setColor(QPalette.ColorRole.Text, pal.color(QPalette.ColorRole.WindowText))
        rect = QRectF(self.rect())
        if self._shown.size().height() > rect.height():  # whole lines only: a line cut in half reads as a fault
            rect.setHeight(self._full_lines_height(rect.height(), self._shown))
        ctx.clip = rect
        p.setClipRect(rect)
        self._shown.documentLayout().draw(p, ctx)
        p.end()

    def _fit(self) -> QTextDocument:
        """The text, or when it runs past the lines it has, its whole sentences that fit and "…" (the rest is in the
        tooltip; issue 40: the Costs summary ended mid-sentence)."""
        if self._doc.size().height() <= self._height:
            return self._doc
        end = self._last_visible_position(self._height)
        text = self._doc.toPlainText()
        cut = max(text.rfind(". ", 0, end - 2), text.rfind(".\n", 0, end - 2), text.rfind(": ", 0, end - 2)) + 1
        for _ in range(3):  # " …" may itself wrap onto a line that does not fit: cut a sentence earlier
            if cut <= 0:
                cut = max(end - 3, 0)
            shown = self._doc.clone(self)
            shown.setTextWidth(self.width())
            cursor = QTextCursor(shown)
            cursor.setPosition(min(cut, shown.characterCount() - 1))
            cursor.movePosition(QTextCursor.MoveOperation.End, QTextCursor.MoveMode.KeepAnchor)
            cursor.removeSelectedText()
            cursor.insertText(" …")
            if shown.size().height() <= self._height:
                return shown
            cut = max(text.rfind(". ", 0, cut - 2), text.rfind(": ", 0, cut - 2)) + 1
        return shown

    def _last_visible_position(self, limit: float) -> int:
        """The document position just after the last line that fits in `limit`."""
        pos = 0
        block = self._doc.begin()
        while block.isValid():
            top = self._doc.documentLayout().blockBoundingRect(block).top()
            layout = block.layout()
            for i in range(layout.lineCount()):
                line = layout.lineAt(i)
                if top + line.y() + line.height() > limit:
                    return pos
                pos = block.position() + line.textStart() + line.textLength()
            block = block.next()
        return pos

    def _full_lines_height(self, limit: float, doc: QTextDocument) -> float:
        """The bottom of the last line that fits in `limit` (the rest is in the tooltip)."""
        bottom = 0.0
        block = doc.begin()
        while block.isValid():
            top = doc.documentLayout().blockBoundingRect(block).top()
            layout = block.layout()
            for i in range(layout.lineCount()):
                line = layout.lineAt(i)
                if top + line.y() + line.height() > limit:
                    return bottom
                bottom = top + line.y() + line.height()
            block = block.next()
        return bottom
