"""The picker's column widths: each from its header and a sample of rows (ResizeToContents would measure every one
of 4,000 rows), and the name column taking the room the others leave."""

from __future__ import annotations

from PySide6.QtCore import QSortFilterProxyModel, Qt
from PySide6.QtWidgets import QStyle, QTableView

SAMPLE_ROWS = 300


def content_width(view: QTableView, proxy: QSortFilterProxyModel, column: int) -> int:
    """The header's width or the widest of the first rows' texts, whichever is more, plus the cell's margins."""
    fm = view.fontMetrics()
    head = str(proxy.headerData(column, Qt.Orientation.Horizontal))
    # the header also draws the sort arrow
    widest = fm.horizontalAdvance(head) + view.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMarkSize)
    for row in range(min(proxy.rowCount(), SAMPLE_ROWS)):
        text = proxy.index(row, column).data(Qt.ItemDataRole.DisplayRole)
        if text:
            widest = max(widest, fm.horizontalAdvance(str(text)))
    return widest + 16


def size_name_column(view: QTableView) -> None:
    """The name takes the room the other columns leave (on two lines, cut at its end, its tooltip whole): at least
    200 px, at most what keeps every other column, Price included, in view; a horizontal scroll bar only below that."""
    header = view.horizontalHeader()
    others = sum(header.sectionSize(c) for c in range(1, header.count()))
    # the vertical scroll bar may appear after this (4,000 rows): leave its width free
    room = view.viewport().width() - view.verticalScrollBar().sizeHint().width()
    header.resizeSection(0, max(200, room - others))
