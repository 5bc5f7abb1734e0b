"""Data is shown as typed, never as HTML.

Qt decides per string whether a tooltip, a QLabel (AutoText) or a message box is rich text (Qt::mightBeRichText:
a tag-like `<b>` on the first line is enough), so a part, build or offer name holding `<img src="file://...">`
would be drawn as HTML and load a local file. Widgets that show data set Qt.PlainText; strings that go where Qt
guesses (tooltips, model ToolTipRole) go through tip(); rich text built for layout escapes its data with esc()."""

from __future__ import annotations

import html
from typing import overload

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QLabel, QMessageBox


def esc(text: object) -> str:
    """Data inside rich text: `<`, `>`, `&` and quotes escaped."""
    return html.escape(str(text))


@overload
def tip(text: str) -> str: ...
@overload
def tip(text: None) -> None: ...
def tip(text: str | None) -> str | None:
    """A tooltip that shows `text` literally: unchanged when Qt cannot take it for markup, else escaped HTML with
    its line breaks kept."""
    if text is None or ("<" not in text and "&" not in text):
        return text
    return "<p style='white-space:pre-wrap'>" + html.escape(text, quote=False) + "</p>"


def as_plain(rich: str) -> str:
    """What rich text reads as (for a tooltip that repeats a rich label)."""
    doc = QTextDocument()
    doc.setHtml(rich)
    return doc.toPlainText()


def plain_label(label: QLabel) -> QLabel:
    label.setTextFormat(Qt.TextFormat.PlainText)
    return label


def plain_box(box: QMessageBox) -> QMessageBox:
    box.setTextFormat(Qt.TextFormat.PlainText)
    return box
