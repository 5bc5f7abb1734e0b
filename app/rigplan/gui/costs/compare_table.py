"""The side table of the break-even chart: one row for owning and one per charted offer, each with its colour, a
show/hide box, the pricing it is charted at, its break-even, and its total under the pointer (the chart's legend and
read-out in one place, outside the plot)."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QIcon, QPixmap, QResizeEvent
from PySide6.QtWidgets import QAbstractItemView, QComboBox, QHeaderView, QTableWidget, QTableWidgetItem

from rigplan.gui.widgets.plain import tip as plain_tip
from rigplan.gui.widgets.wheel_guard import guard_wheel
from rigplan.model import Pricing
from rigplan.model.build import ChartOffer

COLS = ["Curve", "Priced", "Break-even", "Total"]


_SWATCHES: dict[str, QIcon] = {}


def swatch(color: str) -> QIcon:
    if color not in _SWATCHES:
        pix = QPixmap(12, 12)
        pix.fill(QColor(color))
        _SWATCHES[color] = QIcon(pix)
    return _SWATCHES[color]


class CompareTable(QTableWidget):
    visibility_changed = Signal()
    pricing_changed = Signal(str, object)  # offer id, Pricing

    def __init__(self) -> None:
        super().__init__(0, len(COLS))
        self.setAccessibleName("Offers on the chart")
        self.setHorizontalHeaderLabels(COLS)
        self.verticalHeader().hide()
        self.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        # Issue 29: a name wraps at its space (provider, then the whole instance) instead of "Lambd…_sxm5"; an
        # instance longer than the column is still elided in the middle, keeping both of its ends.
        self.setWordWrap(True)
        self.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        h = self.horizontalHeader()
        h.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        # Row heights are measured at the name column's width of the moment: measured again when it changes (the
        # splitter, the window), or names fitted to a narrower column stay one elided line ("Lambda ...").
        h.sectionResized.connect(lambda col, _old, _new: self.resizeRowsToContents() if col == 0 else None)
        fm = self.fontMetrics()
        for c, sample in ((1, "reserved-1y ▾"), (2, "Break-even"), (3, "At month 36.0")):
            h.setSectionResizeMode(c, QHeaderView.ResizeMode.Fixed)
            h.resizeSection(c, fm.horizontalAdvance(sample) + 14)
        self.setMinimumWidth(fm.horizontalAdvance("GCP a3-highgpu-2g reserved-1y ▾ Break-even At month 36.0") + 56)
        self._keys: list[str] = []
        self._filling = False
        self.itemChanged.connect(self._item_changed)

    def set_rows(self, own_color: str, rows: list[tuple[ChartOffer, str, str, str, list[Pricing]]]) -> None:
        """rows: (chart offer, name, colour or "" when not drawn, tooltip, pricings it has)."""
        keys = [f"{c.offer}|{c.pricing.value}|{color}|{name}" for c, name, color, _, _ in rows]  # a new name too
        if keys == self._keys:
            return
        self._keys = keys
        self._filling = True
        shown = self.shown()
        # Rows, items and pricing boxes are reused (a quantity change can swap the whole default comparison; making
        # new widgets each time cost ~5 ms of a part change).
        if self.rowCount() != len(rows) + 1:
            self.setRowCount(len(rows) + 1)
        self._cell(0, 0).setIcon(swatch(own_color))
        self._cell(0, 0).setText("Own this build")
        self._cell(0, 0).setFlags(Qt.ItemFlag.ItemIsEnabled)
        for c in range(1, len(COLS)):
            self._cell(0, c)
        for r, (chart, name, color, tip, pricings) in enumerate(rows, start=1):
            item = self._cell(r, 0)
            item.setIcon(swatch(color) if color else QIcon())
            item.setText(name)
            item.setToolTip(plain_tip(tip))
            item.setData(Qt.ItemDataRole.UserRole, chart.offer)
            if color:
                item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable)
                was = shown.get(chart.offer, True)
                item.setCheckState(Qt.CheckState.Checked if was else Qt.CheckState.Unchecked)
            else:
                item.setFlags(Qt.ItemFlag.ItemIsEnabled)
                item.setData(Qt.ItemDataRole.CheckStateRole, None)
            box = self.cellWidget(r, 1)
            if not isinstance(box, QComboBox):
                box = QComboBox()
                box.currentIndexChanged.connect(lambda _, b=box: self._box_changed(b))
                guard_wheel(box)
                self.setCellWidget(r, 1, box)
            box.blockSignals(True)
            box.setAccessibleName(f"Pricing of {name}")
            box.setProperty("offer", chart.offer)
            if [box.itemData(n) for n in range(box.count())] != pricings:
                box.clear()
                for p in pricings:
                    box.addItem(p.value, p)
            box.setCurrentIndex(max(0, pricings.index(chart.pricing) if chart.pricing in pricings else 0))
            box.blockSignals(False)
            for c in range(2, len(COLS)):
                self._cell(r, c)
        self._filling = False
        self.resizeRowsToContents()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        super().resizeEvent(event)
        self.resizeRowsToContents()  # a few rows: cheap, and the stretched name column has a new width

    def _cell(self, r: int, c: int) -> QTableWidgetItem:
        item = self.item(r, c)
        if item is None:
            item = QTableWidgetItem("")
            self.setItem(r, c, item)
        return item

    def _box_changed(self, box: QComboBox) -> None:
        self.pricing_changed.emit(box.property("offer"), box.currentData())

    def shown(self) -> dict[str, bool]:
        """Offer id -> its show box (True when it has none)."""
        out = {}
        for r in range(1, self.rowCount()):
            item = self.item(r, 0)
            if item is not None:
                checkable = bool(item.flags() & Qt.ItemFlag.ItemIsUserCheckable)
                out[item.data(Qt.ItemDataRole.UserRole)] = not checkable or item.checkState() == Qt.CheckState.Checked
        return out

    def set_column(self, col: int, texts: list[str], header: str | None = None) -> None:
        """Texts of column `col`, owning first; only the cells that change are touched (no repaint otherwise)."""
        head = self.horizontalHeaderItem(col)
        if header is not None and head is not None and head.text() != header:
            head.setText(header)
        for r, text in enumerate(texts[: self.rowCount()]):
            item = self.item(r, col)
            if item is not None and item.text() != text:
                item.setText(text)
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)

    def column_texts(self, col: int) -> list[str]:
        items = (self.item(r, col) for r in range(self.rowCount()))
        return [item.text() if item is not None else "" for item in items]

    def _item_changed(self, item: QTableWidgetItem) -> None:
        if not self._filling and item.column() == 0:
            self.visibility_changed.emit()
