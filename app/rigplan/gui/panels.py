"""The part picker, the build panel and the findings panel."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QTableView,
    QTableWidget,
    QTableWidgetItem,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from rigplan.catalog import Catalog
from rigplan.gui.livetext import LiveText
from rigplan.gui.partsmodel import PartFilterProxy, PartTableModel
from rigplan.kinds import KIND_LABELS, Kind

if TYPE_CHECKING:  # these panels paint before pydantic and the checks are imported (see mainwindow)
    from rigplan.costs.perf import PerfTable
    from rigplan.model import Build
    from rigplan.rules import Report

SLOT_ORDER = [Kind.CPU, Kind.COOLER, Kind.MOTHERBOARD, Kind.MEMORY, Kind.STORAGE, Kind.GPU, Kind.PSU, Kind.CASE]


class PickerPanel(QWidget):
    """Searchable, sortable catalog table for one kind; double-click or Enter adds the part."""

    part_chosen = Signal(object)  # Part

    def __init__(self, catalog: Catalog, perf: PerfTable | None, money: Callable[[float], str]) -> None:
        super().__init__()
        self.catalog, self.perf, self.money = catalog, perf, money
        self.build: Build | None = None  # None until the window's second stage: no filter yet
        self._models: dict[Kind, PartTableModel] = {}
        self._stale = False  # the build changed while the picker was hidden
        self.kind_box = QComboBox()
        self.kind_box.setAccessibleName("Part kind")
        for kind in SLOT_ORDER:
            self.kind_box.addItem(f"{KIND_LABELS[kind]} ({len(catalog.table(kind)):,})", kind)
        self.search = QLineEdit()
        self.search.setPlaceholderText("Search name, maker or chipset (e.g. 4090 strix)")
        self.search.setClearButtonEnabled(True)
        self.search.setAccessibleName("Search parts")
        self.compatible_only = QCheckBox("Compatible only")
        self.compatible_only.setChecked(True)
        self.compatible_only.setToolTip("Hide parts that would add an error to the current build")
        self.count = QLabel()
        self.count.setAccessibleName("Matching parts")
        self.empty_hint = QLabel()
        self.empty_hint.setWordWrap(True)
        self.empty_hint.setStyleSheet("color: #b8860b")
        self.empty_hint.hide()
        self.proxy = PartFilterProxy()
        self.view = QTableView()
        self.view.setAccessibleName("Catalog parts")
        self.view.setSortingEnabled(True)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.verticalHeader().hide()
        self.view.setAlternatingRowColors(True)
        self.view.setModel(self.proxy)
        self.view.doubleClicked.connect(self._activate)
        for key in ("Return", "Enter"):
            QShortcut(
                QKeySequence(key),
                self.view,
                activated=self._activate_current,
                context=Qt.ShortcutContext.WidgetShortcut,
            )
        top = QHBoxLayout()
        top.addWidget(self.kind_box)
        top.addWidget(self.search, 1)
        top.addWidget(self.compatible_only)
        top.addWidget(self.count)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addLayout(top)
        lay.addWidget(self.empty_hint)
        lay.addWidget(self.view, 1)
        self.kind_box.currentIndexChanged.connect(lambda _: self._show_kind())
        # Typing filters after a short pause, so each keystroke costs nothing on 4,000 rows.
        self._typing = QTimer(self, singleShot=True, interval=120)
        self._typing.timeout.connect(self._apply_text)
        self.search.textChanged.connect(lambda _: self._typing.start())
        self.search.returnPressed.connect(self._apply_text)
        self.compatible_only.toggled.connect(lambda _: self.refresh_compatible())
        self._show_kind()

    @property
    def kind(self) -> Kind:
        return Kind(self.kind_box.currentData())  # Qt hands enum data back as plain str

    def set_perf(self, perf: PerfTable) -> None:
        """The speed table arrived (second stage): the GPU table gains its speed columns."""
        self.perf = perf
        if self._models.pop(Kind.GPU, None) is not None and self.kind is Kind.GPU:
            self._show_kind()

    def set_kind(self, kind: Kind) -> None:
        self.kind_box.setCurrentIndex(SLOT_ORDER.index(kind))

    def model_for(self, kind: Kind) -> PartTableModel:
        if kind not in self._models:
            self._models[kind] = PartTableModel(self.catalog.table(kind), self.perf, self.money)
        return self._models[kind]

    def _show_kind(self) -> None:
        model = self.model_for(self.kind)
        self.proxy.setSourceModel(model)
        self.refresh_compatible()
        self._apply_text()
        # Fixed widths from the header text: ResizeToContents would measure every one of 4,000 rows.
        header = self.view.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        metrics = self.view.fontMetrics()
        for c in range(1, model.columnCount()):
            header.setSectionResizeMode(c, QHeaderView.ResizeMode.Interactive)
            head = str(model.headerData(c, Qt.Orientation.Horizontal))
            wide = {"Power": 14, "Interface": 16, "Form": 14, "Efficiency": 12, "Price": 10, "Memory": 10}
            header.resizeSection(c, metrics.horizontalAdvance("M" * wide.get(head, max(6, len(head)))) + 12)

    def _apply_text(self) -> None:
        self._typing.stop()
        self.proxy.set_text(self.search.text())
        self._update_count()

    def set_build(self, build: Build) -> None:
        self.build = build
        if self.isVisible():
            self.refresh_compatible()
        else:  # behind the Costs tab: filter when shown (showEvent), not on every edit
            self._stale = True

    def showEvent(self, event: object) -> None:  # noqa: N802
        super().showEvent(event)  # type: ignore[arg-type]
        if self._stale:
            self._stale = False
            self.refresh_compatible()

    def refresh_compatible(self) -> None:
        rows = None
        if self.build is not None and self.compatible_only.isChecked():
            from rigplan.rules import compatible

            rows = set(compatible(self.build, self.kind, self.catalog))
        self.proxy.set_allowed(rows)
        self._update_count()

    def _update_count(self) -> None:
        total = len(self.catalog.table(self.kind))
        shown = self.proxy.rowCount()
        self.count.setText(f"{shown:,} of {total:,}")
        hidden_all = shown == 0 and self.compatible_only.isChecked() and not self.proxy._words
        if hidden_all:
            self.empty_hint.setText(
                f"Every {self.kind.label.lower()} in the catalog would add an error to this build (see Findings "
                "after adding one). Untick \u201cCompatible only\u201d to see them all."
            )
        self.empty_hint.setVisible(hidden_all)

    def _activate(self, index: QModelIndex) -> None:
        if index.isValid():
            row = self.proxy.mapToSource(index).row()
            self.part_chosen.emit(self.catalog.table(self.kind).part(row))

    def _activate_current(self) -> None:
        self._activate(self.view.currentIndex())


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


class BuildPanel(QWidget):
    """One row per slot: the part, quantity, price (editable override) and a remove button; total and power."""

    slot_selected = Signal(object)  # Kind
    remove_requested = Signal(int)  # item index
    quantity_changed = Signal(int, int)
    price_edited = Signal(int, object)  # item index, float | None

    COLS = ["Slot", "Part", "Qty", "Price", ""]

    def __init__(self, money: Callable[[float], str]) -> None:
        super().__init__()
        self.money = money
        self.table = QTableWidget(0, len(self.COLS))
        self.table.setAccessibleName("Build parts")
        self.table.setHorizontalHeaderLabels(self.COLS)
        self.table.verticalHeader().hide()
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        # Fixed widths: resizing to contents would re-measure every cell on each edit.
        h = self.table.horizontalHeader()
        h.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        fm = self.table.fontMetrics()
        for c, sample in ((0, "Motherboard  "), (2, "64 ⇅  "), (3, "$10,000.00  "), (4, " ✕ ")):
            h.setSectionResizeMode(c, QHeaderView.ResizeMode.Fixed)
            h.resizeSection(c, fm.horizontalAdvance(sample) + 16)
        self.total = LiveText(lines=1, rich=True, wrap=False)
        self.total.setAccessibleName("Total cost")
        self.power = PowerBar()
        self.power.setAccessibleName("Power: load against PSU rating")
        self.power_note = LiveText(lines=2)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.table, 1)
        lay.addWidget(self.total)
        lay.addWidget(self.power)
        lay.addWidget(self.power_note)
        self.table.currentCellChanged.connect(self._on_current)
        self.table.itemChanged.connect(self._on_item_changed)
        self.table.cellClicked.connect(self._on_clicked)
        QShortcut(
            QKeySequence(QKeySequence.StandardKey.Delete),
            self.table,
            activated=self._remove_current,
            context=Qt.ShortcutContext.WidgetShortcut,
        )
        self._rows: list[tuple[Kind, int | None]] = []
        self._filling = False

    def _on_current(self, row: int, *_: int) -> None:
        if 0 <= row < len(self._rows):
            self.slot_selected.emit(self._rows[row][0])

    def select_kind(self, kind: Kind) -> None:
        for n, (k, _) in enumerate(self._rows):
            if k == kind:
                self.table.selectRow(n)
                return

    def show_build(self, build: Build | None, report: Report | None) -> None:
        """The build's rows (None: the empty slots, shown before the build document exists)."""
        self._filling = True
        current = self.table.currentRow()
        rows: list[tuple[Kind, int | None]] = []
        items = build.items if build is not None else ()
        for kind in SLOT_ORDER:
            idx = [n for n, i in enumerate(items) if i.part.kind == kind]
            rows += [(kind, n) for n in idx] or [(kind, None)]
        keys = [(k, None if n is None else items[n].part.id) for k, n in rows]
        same_rows = keys == getattr(self, "_keys", None)
        self._rows, self._keys = rows, keys
        if same_rows:  # the common edit (quantity, price): update values in place, keep the cell widgets
            self._update_values(build)
            self._filling = False
            self._show_power(report)
            return
        # Plain items only (no cell widgets): quantity is edited with the item delegate's spin box, and the
        # remove column is a clickable cell, so a build edit repaints a handful of cells, not dozens of widgets.
        self.table.setRowCount(len(rows))
        ro = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        for r, (kind, n) in enumerate(rows):
            cells = [QTableWidgetItem(KIND_LABELS[kind])] + [QTableWidgetItem() for _ in range(4)]
            for c in cells:
                c.setFlags(ro)
            if n is None:
                cells[1].setText("(none chosen: pick one on the right)")
                cells[1].setForeground(self.palette().placeholderText())
            else:
                item = items[n]
                cells[1].setText(item.part.name + ("  (custom)" if item.part.custom else ""))
                cells[1].setToolTip(f"{item.part.name}\nSpecs: {item.part.spec_source or 'entered by you'}")
                if kind in (Kind.GPU, Kind.MEMORY, Kind.STORAGE):
                    cells[2].setFlags(ro | Qt.ItemFlag.ItemIsEditable)
                    cells[2].setToolTip("Double-click or F2 to change the quantity (1-64)")
                cells[3].setFlags(ro | Qt.ItemFlag.ItemIsEditable)
                cells[3].setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                cells[4].setText("✕")
                cells[4].setToolTip(f"Remove {item.part.name}")
                cells[4].setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                for c in cells[2:]:
                    c.setData(Qt.ItemDataRole.UserRole, n)
            for c, cell in enumerate(cells):
                self.table.setItem(r, c, cell)
        if 0 <= current < len(rows):
            self.table.setCurrentCell(current, 0)
        self._update_values(build)
        self._show_power(report)
        self._filling = False

    def _update_values(self, build: Build | None) -> None:
        unpriced = 0
        total = 0.0
        for r, (_, n) in enumerate(self._rows):
            if n is None:
                continue
            assert build is not None  # rows with an item index come from a build
            item = build.items[n]
            qty = self.table.item(r, 2)
            if qty.data(Qt.ItemDataRole.EditRole) != item.quantity:
                qty.setData(Qt.ItemDataRole.EditRole, item.quantity)  # an int: the delegate edits it with a spin box
            price = item.unit_price
            cell = self.table.item(r, 3)
            cell.setText(self.money(price.amount) if price else "no price")
            tip = price.describe() if price else "No price known: type one to use your own quote"
            cell.setToolTip(
                ("Your price: " if item.price_override else "Catalog price: ")
                + tip
                + "\nEdit to override; clear to go back to the catalog price."
            )
            if price:
                total += price.amount * item.quantity
            else:
                unpriced += 1
        missing = (
            f" <span style='color:#b8860b'>(+ {unpriced} part{'s' if unpriced != 1 else ''} with no price)</span>"
            if unpriced
            else ""
        )
        self.total.setText(f"<b>Total: {self.money(total)}</b>{missing}")

    def _show_power(self, report: Report | None) -> None:
        p = report.power if report is not None else None
        if p is None or not p.load_w:
            self.power.set_state(0, 1, "No power draw yet", False)
            self.power_note.setText("")
            return
        rating = p.psu_w or p.recommended_psu_w
        psu = f"{p.psu_w} W PSU" if p.psu_w else "no PSU"
        over = bool(p.psu_w and p.load_w > p.psu_w)
        self.power.set_state(int(p.load_w), max(rating, int(p.load_w)), f"{p.load_w:,.0f} W at load of {psu}", over)
        self.power.setToolTip("Estimated DC draw at full load (docs/checks.md gives each part's basis)")
        self.power_note.setText(
            f"Recommended PSU: {p.recommended_psu_w} W. At the wall: {p.wall_load_w:,.0f} W at load, "
            f"{p.wall_idle_w:,.0f} W idle."
        )

    def _on_clicked(self, row: int, column: int) -> None:
        cell = self.table.item(row, column)
        if column == 4 and cell is not None and cell.data(Qt.ItemDataRole.UserRole) is not None:
            self.remove_requested.emit(cell.data(Qt.ItemDataRole.UserRole))

    def _remove_current(self) -> None:
        cell = self.table.item(self.table.currentRow(), 4)
        if cell is not None and cell.data(Qt.ItemDataRole.UserRole) is not None:
            self.remove_requested.emit(cell.data(Qt.ItemDataRole.UserRole))

    def _on_item_changed(self, cell: QTableWidgetItem) -> None:
        if self._filling or cell.column() not in (2, 3):
            return
        n = cell.data(Qt.ItemDataRole.UserRole)
        if n is None:
            return
        if cell.column() == 2:
            value = cell.data(Qt.ItemDataRole.EditRole)
            try:
                self.quantity_changed.emit(n, max(1, min(64, int(value))))
            except (TypeError, ValueError):
                self.quantity_changed.emit(n, 1)
            return
        text = cell.text().strip().replace(",", "").lstrip("$€£")
        if text in ("", "no price"):
            self.price_edited.emit(n, None)
            return
        try:
            value = float(text.split()[0])
        except (ValueError, IndexError):
            value = float("nan")
        self.price_edited.emit(n, value)


ICONS = {"error": "⛔", "warning": "⚠", "note": "ℹ"}  # by rigplan.rules.Severity value


class FindingsPanel(QTreeWidget):
    """Errors, warnings and notes (hint as tooltip; click selects the slot), then what was not checked."""

    slot_selected = Signal(object)  # Kind

    def __init__(self) -> None:
        super().__init__()
        self.setAccessibleName("Findings")
        self.setHeaderLabels(["Finding", "Rule"])
        self.setRootIsDecorated(True)
        self.setWordWrap(True)
        self.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.header().setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self.header().setStretchLastSection(False)
        self.itemClicked.connect(self._clicked)
        self.itemActivated.connect(self._clicked)

    def show_report(self, report: Report) -> None:
        key = (tuple(report.findings), tuple(report.not_checked))
        if key == getattr(self, "_shown", None):
            return  # most edits leave the findings as they were: no rebuild, no repaint
        self._shown = key
        self.clear()
        for f in report.findings:
            item = QTreeWidgetItem([f"{ICONS[f.severity]}  {f.message}", f.rule])
            item.setToolTip(0, f.hint or f.message)
            item.setData(0, Qt.ItemDataRole.UserRole, f.kinds[0] if f.kinds else None)
            self.addTopLevelItem(item)
        if report.not_checked:
            head = QTreeWidgetItem([f"Not checked ({len(report.not_checked)})", ""])
            head.setToolTip(0, "Checks that lack data: they neither pass nor fail")
            self.addTopLevelItem(head)
            for n in report.not_checked:
                child = QTreeWidgetItem([n.reason, n.rule])
                child.setData(0, Qt.ItemDataRole.UserRole, n.kinds[0] if n.kinds else None)
                head.addChild(child)
            head.setExpanded(len(report.not_checked) <= 6)

    def findings_shown(self) -> list[tuple[str, str]]:
        return [(self.topLevelItem(i).text(1), self.topLevelItem(i).text(0)) for i in range(self.topLevelItemCount())]

    def _clicked(self, item: QTreeWidgetItem, _col: int = 0) -> None:
        kind = item.data(0, Qt.ItemDataRole.UserRole)
        if kind is not None:
            self.slot_selected.emit(kind)
