"""The picker's columns: their widths, each from its header and a sample of rows (ResizeToContents would measure
every one of 4,000 rows), the name column taking the room the others leave; the default sort, and what the picker
remembers per slot."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QSortFilterProxyModel, Qt
from PySide6.QtWidgets import QStyle, QTableView

if TYPE_CHECKING:
    from rigplan.gui.parts.partsmodel import PartTableModel

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


@dataclass
class SlotView:
    """What the picker remembers per slot: its search text and sort order."""

    text: str = ""
    sort_column: int = -1
    sort_order: Qt.SortOrder = Qt.SortOrder.AscendingOrder


def default_sort(model: PartTableModel) -> tuple[int, Qt.SortOrder]:
    """The order a buyer means when they have not chosen one (issue 29): GPUs by deep-learning speed per money,
    highest first; other parts by price, lowest first. Parts without the figure come last either way (the proxy's
    lessThan), so current, priced parts lead instead of a GT 710 or a Threadripper 9980X."""
    heads = [c[0] for c in model.columns]
    if "Speed/$1k" in heads:
        return heads.index("Speed/$1k"), Qt.SortOrder.DescendingOrder
    return heads.index("Price"), Qt.SortOrder.AscendingOrder
