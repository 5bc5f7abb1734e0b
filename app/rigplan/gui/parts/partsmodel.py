"""Table model over one kind of the catalog, read straight from its columns, and the proxy that searches it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, QSortFilterProxyModel, Qt

from rigplan.catalog.loader import KindTable
from rigplan.catalog.overlay import shown
from rigplan.catalog.search import Condition
from rigplan.gui.widgets.plain import tip
from rigplan.kinds import Kind
from rigplan.wording import money

if TYPE_CHECKING:  # the window paints before the speed table (YAML, pydantic) is loaded
    from rigplan.costs.perf import PerfTable

SHOWN = "shown:"  # the prefix of a column as the table shows it (PartTableModel.shown_columns)
SORT_ROLE = Qt.ItemDataRole.UserRole  # raw values, so numbers sort as numbers and unknowns sort last
Index = QModelIndex | QPersistentModelIndex


def _connectors(v: Any) -> str | None:
    if not isinstance(v, dict):
        return None
    bits = [f"{v[k]}x {label}" for k, label in (("pin16", "16-pin"), ("pin8", "8-pin"), ("pin6", "6-pin")) if v.get(k)]
    return " + ".join(bits) or "none"


def _col(field: str) -> Callable[[dict[str, list[Any]], int], Any]:
    def get(cols: dict[str, list[Any]], i: int) -> Any:
        return cols[field][i] if field in cols else None

    get.field = field  # type: ignore[attr-defined]  # the tooltip names the user's correction of this field
    return get


def _price(cols: dict[str, list[Any]], i: int) -> float | None:
    p = cols.get("price", [None] * (i + 1))[i]
    return p["amount"] if isinstance(p, dict) else None


# (header, getter, unit suffix, tooltip)
Column = tuple[str, Callable[[dict[str, list[Any]], int], Any], str]

COMMON_HEAD: list[Column] = [("Name", _col("name"), "")]
PRICE: Column = ("Price", _price, "")

KIND_COLUMNS: dict[Kind, list[Column]] = {
    Kind.CPU: [
        ("Socket", _col("socket"), ""),
        ("Cores", _col("cores"), ""),
        ("TDP", _col("tdp_w"), " W"),
        ("Lanes", _col("pcie_lanes"), ""),
        ("Memory", lambda c, i: ", ".join(c["memory_types"][i] or []) if "memory_types" in c else None, ""),
    ],
    Kind.COOLER: [
        ("Height", _col("height_mm"), " mm"),
        ("Radiator", _col("radiator_mm"), " mm"),
        ("Liquid", _col("water_cooled"), ""),
    ],
    Kind.MOTHERBOARD: [
        ("Socket", _col("socket"), ""),
        ("Form", _col("form_factor"), ""),
        ("RAM", _col("ram_type"), ""),
        ("Slots", _col("memory_slots"), ""),
        ("x16", lambda c, i: _x16(c, i), ""),
    ],
    Kind.MEMORY: [
        ("Type", _col("ram_type"), ""),
        ("Speed", _col("speed_mts"), " MT/s"),
        (
            "Kit",
            lambda c, i: (
                f"{c['modules'][i]}x{c['module_gb'][i]:g} GB"
                if c.get("modules") and c["modules"][i] and c["module_gb"][i]
                else None
            ),
            "",
        ),
        ("GB", _col("capacity_gb"), ""),
    ],
    Kind.STORAGE: [
        ("GB", _col("capacity_gb"), ""),
        ("Interface", _col("interface"), ""),
        ("Form", _col("form_factor"), ""),
    ],
    Kind.GPU: [
        ("VRAM", _col("vram_gb"), " GB"),
        ("TDP", _col("tdp_w"), " W"),
        ("Length", _col("length_mm"), " mm"),
        ("Slots", _col("slot_width"), ""),
        ("Power", lambda c, i: _connectors(c["power_connectors"][i]) if "power_connectors" in c else None, ""),
    ],
    Kind.PSU: [
        ("Watts", _col("wattage"), " W"),
        ("Efficiency", _col("efficiency"), ""),
        ("Form", _col("form_factor"), ""),
        ("Length", _col("length_mm"), " mm"),
    ],
    Kind.CASE: [
        ("Form", _col("form_factor"), ""),
        ("GPU max", _col("max_gpu_length_mm"), " mm"),
        ("Cooler max", _col("max_cooler_height_mm"), " mm"),
        ("Slots", _col("expansion_slots"), ""),
    ],
}


def _x16(cols: dict[str, list[Any]], i: int) -> int | None:
    slots = cols.get("pcie_slots", [None] * (i + 1))[i]
    if slots is None:
        return None
    return sum(s.get("count", 1) for s in slots if s.get("lanes", 0) >= 16)


def columns_for(kind: Kind, perf: PerfTable | None) -> list[Column]:
    cols = COMMON_HEAD + KIND_COLUMNS[kind]
    if kind is Kind.GPU and perf is not None:
        from rigplan.costs.perf import estimate, key, without_memory

        def speed(c: dict[str, list[Any]], i: int) -> float | None:
            chip = c["chipset"][i] if "chipset" in c else None
            if chip:
                hit = perf.models.get(key(chip)) or perf.models.get(key(without_memory(chip)))
                if hit:
                    return round(hit.value, 2)
            f32 = c["fp32_tflops"][i] if "fp32_tflops" in c else None
            bw = c["memory_bandwidth_gbs"][i] if "memory_bandwidth_gbs" in c else None
            v = estimate(perf, f32, bw)
            return round(v, 2) if v else None

        def per_dollar(c: dict[str, list[Any]], i: int) -> float | None:
            s, p = speed(c, i), _price(c, i)
            return round(s / p * 1000, 2) if s and p else None

        cols = cols + [("Speed", speed, "x"), PRICE, ("Speed/$1k", per_dollar, "")]
    else:
        cols = cols + [PRICE]
    return cols


class PartTableModel(QAbstractTableModel):
    """Read-only view of a KindTable. Values are computed once per model (a few ms for 4,000 rows)."""

    def __init__(self, table: KindTable, perf: PerfTable | None, locale_fmt: Callable[..., str]) -> None:
        super().__init__()
        self.table = table
        self.kind = table.kind
        self.columns = columns_for(self.kind, perf)
        cols = table.columns
        self._values = [[getter(cols, i) for _, getter, _ in self.columns] for i in range(len(table))]
        self._money = locale_fmt
        self.price_col = next(n for n, c in enumerate(self.columns) if c[0] == "Price")

    def shown_columns(self) -> dict[str, list[Any]]:
        """The values of the columns as the table shows them, keyed "shown:<header>" (issue 29): the search box's
        filters accept the headers the user reads ("x16>=2", "slots>=4", "gb>=128"), computed ones included."""
        return {
            f"{SHOWN}{head.lower()}": [row[n] for row in self._values]
            for n, (head, _, _) in enumerate(self.columns)
            if n != self.price_col
        }

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self._values)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self.columns)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # noqa: N802
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            head, _, unit = self.columns[section]
            return head
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        value = self._values[index.row()][index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            if value is None:
                return "no price" if index.column() == self.price_col else "?"
            if index.column() == self.price_col:  # converted into the build's currency by the window's Money
                p = self.table.columns["price"][index.row()]
                return self._money(value, p["currency"])
            if isinstance(value, bool):
                return "yes" if value else "no"
            unit = self.columns[index.column()][2]
            return f"{value:g}{unit}" if isinstance(value, float) else f"{value}{unit}"
        if role == SORT_ROLE:
            return value
        if role == Qt.ItemDataRole.ToolTipRole:
            field = getattr(self.columns[index.column()][1], "field", None)
            mine = self.table.corrected.get((index.row(), field)) if field else None
            if mine is not None:  # issue 38: the value is the user's, with its source
                return tip(f"{mine.label()}; the catalog said {shown(mine.was)}")
            if index.column() == self.price_col:
                p = self.table.columns.get("price", [None] * (index.row() + 1))[index.row()]
                if isinstance(p, dict):
                    return tip(f"{money(p['currency'], p['amount'])} on {p.get('date')}: {p.get('source')}")
                return "No retailer price in the 2025-07-23 snapshot"
            if value is None:
                return "Not in the data: checks that need it are listed as 'not checked'"
            if index.column() == 0:
                return tip(str(value))  # the full name, however narrow the column
            return None
        if (
            role == Qt.ItemDataRole.TextAlignmentRole
            and isinstance(value, (int, float))
            and not isinstance(value, bool)
        ):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


class PartFilterProxy(QSortFilterProxyModel):
    """Text search over name/maker/chipset (the catalog's haystacks), field conditions (vram>=24), the "compatible
    only" row set, and a warning mark on the parts that would add an error when those are shown."""

    def __init__(self) -> None:
        super().__init__()
        self.setSortRole(SORT_ROLE)
        self._words: tuple[str, ...] = ()
        self._conditions: tuple[Condition, ...] = ()
        self._allowed: set[int] | None = None
        self._flagged: set[int] = set()
        self._hay: list[str] = []
        self.columns: dict[str, list[Any]] = {}  # the catalog fields and the shown columns, for parse()
        self._columns = self.columns
        self.explain: Callable[[int], str] | None = None  # source row -> the rule and numbers of the errors it adds

    def setSourceModel(self, model: PartTableModel) -> None:  # type: ignore[override]  # noqa: N802
        self._hay = model.table.haystacks()
        self.columns = self._columns = {**model.table.columns, **model.shown_columns()}
        self._flagged = set()  # rows of the previous table; the reset below repaints every row anyway
        super().setSourceModel(model)

    def set_conditions(self, conditions: tuple[Condition, ...]) -> None:
        if conditions != self._conditions:
            self._conditions = conditions
            self._refilter()

    def set_flagged(self, rows: set[int]) -> None:
        """Source rows that would add an error to the build: marked with a warning icon and a tooltip.

        Only the rows whose mark changed are announced, as runs of adjacent rows in the table's order: one range
        over every row made the view repaint all its visible rows on each build change."""
        changed = rows ^ self._flagged
        self._flagged = rows
        source = self.sourceModel()
        if not changed or source is None:
            return
        shown = sorted(r for r in (self.mapFromSource(source.index(s, 0)).row() for s in changed) if r >= 0)
        roles = [Qt.ItemDataRole.DecorationRole, Qt.ItemDataRole.ToolTipRole]
        for first, last in runs(shown):
            self.dataChanged.emit(self.index(first, 0), self.index(last, 0), roles)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if (
            index.column() == 0
            and self._flagged
            and role in (Qt.ItemDataRole.DecorationRole, Qt.ItemDataRole.ToolTipRole)
        ) and self.mapToSource(index).row() in self._flagged:
            if role == Qt.ItemDataRole.DecorationRole:
                from PySide6.QtWidgets import QApplication, QStyle

                return QApplication.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning)
            name = super().data(index, Qt.ItemDataRole.DisplayRole)
            why = self.explain(self.mapToSource(index).row()) if self.explain else ""
            return tip(f"{name}\nWould add to this build: {why or 'an error (see Findings after adding it)'}")
        return super().data(index, role)

    def set_text(self, text: str) -> None:
        words = tuple(text.lower().split())
        if words != self._words:
            self._words = words
            self._refilter()

    def set_allowed(self, rows: set[int] | None) -> None:
        if rows != self._allowed:
            self._allowed = rows
            self._refilter()

    def _refilter(self) -> None:
        refilter(self)

    def filterAcceptsRow(self, row: int, parent: Index) -> bool:  # noqa: N802
        if self._allowed is not None and row not in self._allowed:
            return False
        if self._conditions and not all(c.test_value(self._columns, row) for c in self._conditions):
            return False
        if self._words:
            hay = self._hay[row]
            return all(w in hay for w in self._words)
        return True

    def lessThan(self, left: Index, right: Index) -> bool:  # noqa: N802
        a, b = left.data(SORT_ROLE), right.data(SORT_ROLE)
        ascending = self.sortOrder() == Qt.SortOrder.AscendingOrder
        if a is None or b is None:  # unknowns sort last whichever way
            if a is not None or b is not None:
                return a is not None if ascending else b is not None
        else:
            try:
                if a < b or b < a:
                    return bool(a < b)
            except TypeError:
                if str(a) != str(b):
                    return str(a) < str(b)
        # Equal values keep the catalog's order in either direction, so a row the filter hid and shows again (a
        # build change and its undo) comes back to the same place: Qt inserts it after its equals otherwise.
        return left.row() < right.row() if ascending else left.row() > right.row()


def runs(rows: list[int]) -> list[tuple[int, int]]:
    """Sorted row numbers as (first, last) runs of adjacent rows: [1, 2, 3, 7] -> [(1, 3), (7, 7)]."""
    out: list[tuple[int, int]] = []
    for r in rows:
        if out and r == out[-1][1] + 1:
            out[-1] = (out[-1][0], r)
        else:
            out.append((r, r))
    return out


def refilter(proxy: QSortFilterProxyModel) -> None:
    """Re-run the row filter: Qt 6.10+ has begin/endFilterChange; older ones invalidateRowsFilter."""
    if hasattr(proxy, "beginFilterChange"):
        proxy.beginFilterChange()
        proxy.endFilterChange(QSortFilterProxyModel.Direction.Rows)
    else:  # pragma: no cover - Qt < 6.10
        proxy.invalidateRowsFilter()
