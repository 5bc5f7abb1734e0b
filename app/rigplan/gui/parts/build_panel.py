"""The build panel: one row per slot (part, quantity, price override), then the build's Other items (fans, OS,
cables, UPS...: issue 29), the total with the buttons that remove the selected line and add an Other item, and the
power bar.

Removing is a button under the table (or Delete on the table), never a cell (issue 40): a remove column beside the
quantity sat where the second click of a double-click on the quantity landed once anything moved the columns, and took
both RTX 4090s away with no word. Each removal is an undoable command and says so in the status bar."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QPushButton,
    QStyle,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from rigplan.gui.parts.power_bar import PowerBar, show_power
from rigplan.gui.parts.slots import SLOT_ORDER
from rigplan.gui.widgets.livetext import LiveText
from rigplan.gui.widgets.plain import esc
from rigplan.gui.widgets.plain import tip as plain_tip
from rigplan.kinds import KIND_LABELS, Kind
from rigplan.wording import unpriced_text

if TYPE_CHECKING:  # the panel paints before pydantic and the checks are imported (see mainwindow)
    from rigplan.model import Build
    from rigplan.rules import Report


# Other-item cells carry their index into build.other under this role (part cells use UserRole for build.items).
OTHER_ROLE = Qt.ItemDataRole.UserRole + 1


class BuildPanel(QWidget):
    """One row per slot: the part, quantity and price (editable override); Remove, total and power under it."""

    slot_selected = Signal(object)  # Kind
    remove_requested = Signal(int)  # item index
    quantity_changed = Signal(int, int)
    price_edited = Signal(int, object)  # item index, float | None
    # Other items (index into build.other): the same edits, plus add and edit in a dialog (gui/parts/other_items.py)
    other_add_requested = Signal()
    other_edit_requested = Signal(int)
    other_remove_requested = Signal(int)
    other_quantity_changed = Signal(int, int)
    other_price_edited = Signal(int, object)  # index, float | None

    COLS = ["Slot", "Part", "Qty", "Price"]
    ADD_OTHER = "Add &other item..."
    REMOVE = "&Remove"

    def __init__(self, money: Callable[..., str]) -> None:  # (amount, currency=None): the window's money()
        super().__init__()
        self.money = money
        # the rows shown ((slot, part id), then ("other", category|name)), to update in place
        self._keys: list[tuple[Kind | str, str | None]] | None = None
        self.table = QTableWidget(0, len(self.COLS))
        self.table.setAccessibleName("Build parts")
        self.table.setHorizontalHeaderLabels(self.COLS)
        self.table.verticalHeader().hide()
        # The scroll bar's room is kept whether or not the rows overflow, so the columns never slide 14 px sideways
        # when a row's height or an Other item tips the table over (issue 40: nothing moves under the pointer).
        self.table.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        # Fixed widths: resizing to contents would re-measure every cell on each edit.
        h = self.table.horizontalHeader()
        h.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        fm = self.table.fontMetrics()
        for c, sample in ((0, "Operating system "), (2, "64 ⇅  "), (3, "$10,000.00  ")):
            h.setSectionResizeMode(c, QHeaderView.ResizeMode.Fixed)
            h.resizeSection(c, fm.horizontalAdvance(sample) + 16)
        self.total = LiveText(lines=1, rich=True, wrap=False)
        self.total.setAccessibleName("Total cost")
        self.add_other = QPushButton(self.ADD_OTHER)
        self.add_other.setToolTip(
            plain_tip(
                "Things that are not catalog parts but cost money: case fans, an OS licence, cables and risers, a UPS, "
                "a monitor, shipping (Alt+O or Ctrl+Shift+O). They count in the total and the cost of ownership; no "
                "check reads them."
            )
        )
        self.add_other.clicked.connect(self.other_add_requested)
        self.remove = QPushButton(self.style().standardIcon(QStyle.StandardPixmap.SP_DialogDiscardButton), self.REMOVE)
        self.remove.setAccessibleName("Remove the selected line")
        self.remove.setEnabled(False)
        self.remove.clicked.connect(self._remove_current)
        self.power = PowerBar()
        self.power.setAccessibleName("Power: load against PSU rating")
        self.power_note = LiveText(lines=2)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.table, 1)
        total_row = QHBoxLayout()
        total_row.addWidget(self.total, 1)
        total_row.addWidget(self.remove)
        total_row.addWidget(self.add_other)
        lay.addLayout(total_row)
        lay.addWidget(self.power)
        lay.addWidget(self.power_note)
        self.table.currentCellChanged.connect(self._on_current)
        self.table.itemChanged.connect(self._on_item_changed)
        # Activation is a double-click or Enter (the style decides): on an Other item's name it opens its editor.
        self.table.cellActivated.connect(self._on_activated)
        # Ctrl+Shift+O belongs to Edit > Add other item... (gui/menus.py): a second shortcut on the same keys here
        # would make Qt call both ambiguous and run neither.
        delete = QShortcut(QKeySequence(QKeySequence.StandardKey.Delete), self.table)
        delete.setContext(Qt.ShortcutContext.WidgetShortcut)  # PySide6 ignores a context given to the constructor
        delete.activated.connect(self._remove_current)
        self._rows: list[tuple[Kind, int | None]] = []
        self._other_start = 0  # the table row of the first Other item (after the part rows)
        self._other_count = 0
        self._filling = False

    def _on_current(self, row: int, *_: int) -> None:
        if 0 <= row < len(self._rows):  # an Other item's row selects no slot
            self.slot_selected.emit(self._rows[row][0])
        self._follow_remove()

    def _follow_remove(self) -> None:
        """The Remove button acts on the selected line: enabled with its name in the tooltip, or disabled."""
        cell = self.table.item(self.table.currentRow(), 1)
        line = self._line(self.table.currentRow())
        name = cell.text() if cell is not None and line is not None else ""
        self.remove.setEnabled(bool(name))
        self.remove.setToolTip(
            plain_tip(f"Remove {name} (Delete). Edit > Undo (Ctrl+Z) brings it back.")
            if name
            else "Select a line of the build to remove it (Delete also removes it)"
        )

    def _line(self, row: int) -> tuple[str, int] | None:
        """("part", index into build.items) or ("other", index into build.other) of a table row, or None."""
        cell = self.table.item(row, 3)
        if cell is None:
            return None
        if cell.data(OTHER_ROLE) is not None:
            return "other", int(cell.data(OTHER_ROLE))
        n = cell.data(Qt.ItemDataRole.UserRole)
        return None if n is None else ("part", int(n))

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
        other = build.other if build is not None else ()
        keys: list[tuple[Kind | str, str | None]] = [(k, None if n is None else items[n].part.id) for k, n in rows]
        keys += [("other", f"{o.category.value}|{o.name}") for o in other]
        same_rows = keys == self._keys
        self._rows, self._keys = rows, keys
        self._other_start, self._other_count = len(rows), len(other)
        if same_rows:  # the common edit (quantity, price): update values in place, keep the cell widgets
            self._update_values(build)
            self._filling = False
            self._show_power(report, build)
            return
        # Plain items only (no cell widgets): quantity is edited with the item delegate's spin box, and the
        # remove column is a clickable cell, so a build edit repaints a handful of cells, not dozens of widgets.
        self.table.setRowCount(len(rows) + len(other))
        ro = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        for r, (kind, n) in enumerate(rows):
            cells = [QTableWidgetItem(KIND_LABELS[kind])] + [QTableWidgetItem() for _ in range(3)]
            for cell in cells:
                cell.setFlags(ro)
            if n is None:
                cells[1].setText("(none chosen: pick one on the right)")
                cells[1].setForeground(self.palette().placeholderText())
            else:
                item = items[n]
                cells[1].setText(item.part.name + ("  (custom)" if item.part.custom else ""))
                cells[1].setToolTip(plain_tip(f"{item.part.name}\nSpecs: {item.part.spec_source or 'entered by you'}"))
                self._edit_cells(cells, ro, kind in (Kind.GPU, Kind.MEMORY, Kind.STORAGE))
                for index_cell in cells[2:]:
                    index_cell.setData(Qt.ItemDataRole.UserRole, n)
            for c, cell in enumerate(cells):
                self.table.setItem(r, c, cell)
        for j, o in enumerate(other):
            self._fill_other_row(len(rows) + j, j, o.label, o.name, ro)
        if 0 <= current < self.table.rowCount():
            self.table.setCurrentCell(current, 0)
        self._update_values(build)
        self._show_power(report, build)
        self._follow_remove()
        self._filling = False

    def _fill_other_row(self, r: int, j: int, label: str, name: str, ro: Qt.ItemFlag) -> None:
        cells = [QTableWidgetItem(label), QTableWidgetItem(name)] + [QTableWidgetItem() for _ in range(2)]
        for cell in cells:
            cell.setFlags(ro)
            cell.setData(OTHER_ROLE, j)
        cells[0].setToolTip(plain_tip(f"Other item ({label}): counted in the total, read by no check"))
        cells[1].setToolTip(plain_tip(f"{name}\nDouble-click to edit its name, category, price or power"))
        self._edit_cells(cells, ro, True)
        for c, cell in enumerate(cells):
            self.table.setItem(r, c, cell)

    def _edit_cells(self, cells: list[QTableWidgetItem], ro: Qt.ItemFlag, quantity: bool) -> None:
        """A line's quantity (when it can have more than one) and price cells, for parts and Other items."""
        if quantity:
            cells[2].setFlags(ro | Qt.ItemFlag.ItemIsEditable)
            cells[2].setToolTip("Double-click or F2 to change the quantity (1-64)")
        cells[3].setFlags(ro | Qt.ItemFlag.ItemIsEditable)
        cells[3].setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)

    def other_row(self, index: int) -> int:
        """The table row of the build's Other item `index` (tests and the controller select it)."""
        return self._other_start + index

    def _update_values(self, build: Build | None) -> None:
        unpriced = other_unpriced = 0  # every unpriced line; of them, Other items (issue 29: not "parts")
        total = 0.0
        rate = None
        if build is not None:  # painted before the cost model loads: no build yet
            from rigplan.costs.fx import NoRate, rate_for
            from rigplan.costs.fx import convert as fx_convert

            try:
                rate = rate_for(build.assumptions)
            except NoRate:  # a currency without a reference rate: no total rather than a relabelled one
                rate = None
        for r, (_, n) in enumerate(self._rows):
            if n is None:
                continue
            assert build is not None  # rows with an item index come from a build
            item = build.items[n]
            qty, cell = self.table.item(r, 2), self.table.item(r, 3)
            if qty is None or cell is None:
                continue  # every build row has both (filled just before)
            if qty.data(Qt.ItemDataRole.EditRole) != item.quantity:
                qty.setData(Qt.ItemDataRole.EditRole, item.quantity)  # an int: the delegate edits it with a spin box
            price = item.unit_price
            # in the build's currency, converted by the window's Money; the tooltip keeps the price as quoted
            cell.setText(self.money(price.amount, price.currency) if price else "no price")
            tip = price.describe() if price else "No price known: type one to use your own quote"
            cell.setToolTip(
                plain_tip(
                    ("Your price: " if item.price_override else "Catalog price: ")
                    + tip
                    + "\nEdit to override; clear to go back to the catalog price."
                )
            )
            converted = fx_convert(price.amount, price.currency, rate) if price and rate else None
            if converted is not None:
                total += converted * item.quantity  # in the build's currency, never a relabelled USD amount
            else:
                unpriced += 1
        for j in range(self._other_count):
            assert build is not None  # Other rows come from a build
            o = build.other[j]
            qty, cell = self.table.item(self._other_start + j, 2), self.table.item(self._other_start + j, 3)
            if qty is None or cell is None:
                continue
            if qty.data(Qt.ItemDataRole.EditRole) != o.quantity:
                qty.setData(Qt.ItemDataRole.EditRole, o.quantity)
            price = o.price
            cell.setText(self.money(price.amount, price.currency) if price else "no price")
            power = o.power_text()
            quote = price.describe() if price else "No price known: type one"
            cell.setToolTip(plain_tip(f"{quote}\n{power}\nEdit to change the price; clear it for 'no price'."))
            converted = fx_convert(price.amount, price.currency, rate) if price and rate else None
            if converted is not None:
                total += converted * o.quantity
            else:
                unpriced += 1
                other_unpriced += 1
        # Issue 19: with parts that have no price the total is a lower bound, and says so as everywhere else.
        least = "at least " if unpriced else ""
        missing = f" <span style='color:#b8860b'>({unpriced_text(unpriced, other_unpriced)})</span>" if unpriced else ""
        basis = f" <span style='color:gray'>({esc(rate.basis)})</span>" if rate and rate.currency != "USD" else ""
        self.total.setText(f"<b>Total: {least}{self.money(total)}</b>{missing}{basis}")

    def _show_power(self, report: Report | None, build: Build | None = None) -> None:
        show_power(self.power, self.power_note, report, build)

    def _on_activated(self, row: int, column: int) -> None:
        cell = self.table.item(row, column)
        if column in (0, 1) and cell is not None and cell.data(OTHER_ROLE) is not None:
            self.other_edit_requested.emit(cell.data(OTHER_ROLE))

    def _remove_current(self) -> None:
        line = self._line(self.table.currentRow())
        if line is not None:
            (self.other_remove_requested if line[0] == "other" else self.remove_requested).emit(line[1])

    def _on_item_changed(self, cell: QTableWidgetItem) -> None:
        if self._filling or cell.column() not in (2, 3):
            return
        other = cell.data(OTHER_ROLE)
        n = cell.data(Qt.ItemDataRole.UserRole) if other is None else other
        if n is None:
            return
        quantity, price = (
            (self.quantity_changed, self.price_edited)
            if other is None
            else (self.other_quantity_changed, self.other_price_edited)
        )
        if cell.column() == 2:
            value = cell.data(Qt.ItemDataRole.EditRole)
            try:
                quantity.emit(n, max(1, min(64, int(value))))
            except (TypeError, ValueError):
                quantity.emit(n, 1)
            return
        text = cell.text().strip()
        if text in ("", "no price"):
            price.emit(n, None)
            return
        from rigplan.imports.money import parse_amount, parse_price
        from rigplan.model.numbers import NumberError

        try:  # the one number parser: "1,234.56", "$1,599", "549,00 €"; "1,2,3" or "-5" is refused, not misread
            found = parse_price(text)
            value = found[0] if found else parse_amount(text)
        except NumberError:
            value = float("nan")  # the window refuses it with a message
        price.emit(n, value)
