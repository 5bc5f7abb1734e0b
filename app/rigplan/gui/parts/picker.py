"""The part picker: one kind of the catalog as a searchable, sortable table; double-click or Enter adds a part."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

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
    QPushButton,
    QStyle,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from rigplan.catalog import Catalog
from rigplan.gui.parts.part_filters import parse
from rigplan.gui.parts.partsmodel import PartFilterProxy, PartTableModel
from rigplan.gui.parts.picker_columns import SlotView, content_width, default_sort, size_name_column
from rigplan.gui.parts.search_hint import best_other, matches, no_match_text
from rigplan.gui.parts.slots import SLOT_ORDER
from rigplan.gui.parts.swap_target import SwapTarget
from rigplan.kinds import KIND_LABELS, Kind

if TYPE_CHECKING:  # the picker paints before pydantic and the checks are imported (see mainwindow)
    from rigplan.costs.perf import PerfTable
    from rigplan.model import Build


class PickerPanel(QWidget):
    """Searchable, sortable catalog table for one kind; the Add button, Enter or a double-click adds the part.

    The search box takes words and field filters as the CLI's --where does (see part_filters): "4090 vram>=24".
    Each slot keeps its own search text and sort order.
    """

    part_chosen = Signal(object)  # Part

    def __init__(self, catalog: Catalog, perf: PerfTable | None, money: Callable[..., str]) -> None:
        super().__init__()
        self.catalog, self.perf, self.money = catalog, perf, money
        # Prices follow the build's currency: repaint the rows when the window's Money changes currency or rate, not
        # on every edit (that full repaint of the visible rows was most of a part change's time).
        listeners = getattr(money, "listeners", None)
        if listeners is not None:
            listeners.append(self._currency_changed)
        self.build: Build | None = None  # None until the window's document exists: no filter yet
        self._models: dict[Kind, PartTableModel] = {}
        self._views: dict[Kind, SlotView] = {}
        self._shown_kind: Kind | None = None
        self._stale = False  # the build changed while the picker was hidden
        self._problem = ""  # what the search text's filter could not read
        # Column widths measured once per kind and currency (the texts do not change otherwise): measuring 300 rows
        # of every column at each slot shown cost the start-up ~15 ms before the first paint
        self._widths: dict[tuple[Kind, str], list[int]] = {}
        self.kind_box = QComboBox()
        self.kind_box.setAccessibleName("Part kind")
        for kind in SLOT_ORDER:
            self.kind_box.addItem(f"{KIND_LABELS[kind]} ({len(catalog.table(kind)):,})", kind)
        self.search = QLineEdit()
        self.search.setPlaceholderText("Search: words and filters, e.g. 4090 vram>=24 length<=330 price<=800")
        self.search.setToolTip(
            "Words must all appear in the name, maker or chipset. Filters compare a field with a number or a word: "
            "vram>=24, length<=330, price<=800, socket=AM5 (field names as in the table or the catalog; a part "
            "whose value is unknown does not match)."
        )
        self.target = SwapTarget()  # GPU and memory: add another, or replace a named one
        self.target.currentIndexChanged.connect(lambda _: self.refresh_compatible())
        self.search.setClearButtonEnabled(True)
        self.search.setMinimumWidth(self.search.fontMetrics().horizontalAdvance("4090 vram>=24") + 40)  # never "S..."
        self.search.setAccessibleName("Search parts")
        self.compatible_only = QCheckBox("Compatible only")
        self.compatible_only.setChecked(True)
        self.compatible_only.setToolTip(
            "Hide parts that would add an error to the current build (unticked: they are shown with a warning sign)"
        )
        self.add_button = QPushButton(self.style().standardIcon(QStyle.StandardPixmap.SP_ArrowLeft), "Add")
        self.add_button.setToolTip("Add the selected part to the build (or press Enter, or double-click it)")
        self.add_button.setAccessibleName("Add the selected part")
        self.add_button.setEnabled(False)
        self.add_button.clicked.connect(self._activate_current)
        self.count = QLabel()
        self.count.setAccessibleName("Matching parts")
        most = max(len(catalog.table(k)) for k in SLOT_ORDER)  # one width whatever it counts: the row never moves
        self.count.setMinimumWidth(self.count.fontMetrics().horizontalAdvance(f"{most:,} of {most:,}") + 4)
        self.empty_hint = QLabel()
        self.empty_hint.setWordWrap(True)
        self.empty_hint.setStyleSheet("color: #b8860b")
        self.empty_hint.linkActivated.connect(lambda link: self.show_kind_with_search(Kind(link.split(":")[-1])))
        self.empty_hint.hide()
        self.proxy = PartFilterProxy()
        self.proxy.explain = self.why_flagged
        self.view = QTableView()
        self.view.setAccessibleName("Catalog parts")
        self.view.setSortingEnabled(True)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.verticalHeader().hide()
        self.view.setAlternatingRowColors(True)
        # Names on two lines, cut at the end if longer (issue 40: cut in the middle at 1280, "MSI SHADOW ...0 8GB" hid
        # the model); rows are two lines high anyway, so nothing is measured per row. The tooltip has the whole name.
        self.view.setWordWrap(True)
        self.view.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.view.verticalHeader().setDefaultSectionSize(2 * self.view.fontMetrics().lineSpacing() + 6)
        self.view.setModel(self.proxy)
        self.view.setTabKeyNavigation(False)  # Tab and Shift+Tab leave the list (arrows walk its rows)
        self.search.installEventFilter(self)  # Down in the search box enters the list
        self.view.doubleClicked.connect(self._activate)
        self.view.selectionModel().currentRowChanged.connect(lambda cur, _: self.add_button.setEnabled(cur.isValid()))
        for key in ("Return", "Enter"):
            shortcut = QShortcut(QKeySequence(key), self.view)
            shortcut.setContext(Qt.ShortcutContext.WidgetShortcut)  # PySide6 ignores a context given to the constructor
            shortcut.activated.connect(self._activate_current)
        # Two rows, each narrower than the picker's share of a 1280 px window in every state (issue 40): in one row
        # their minimum (770 px) exceeded it once the add/replace box re-measured, and the splitter took 132 px from
        # the build table between the two clicks of a double-click.
        top = QHBoxLayout()
        top.addWidget(self.kind_box)
        top.addWidget(self.search, 1)
        second = QHBoxLayout()
        second.addWidget(self.target, 1)
        second.addWidget(self.compatible_only)
        second.addWidget(self.add_button)
        second.addWidget(self.count)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addLayout(top)
        lay.addLayout(second)
        lay.addWidget(self.empty_hint)
        lay.addWidget(self.view, 1)
        self.kind_box.currentIndexChanged.connect(lambda _: self._show_kind())
        # Typing filters after a short pause, so each keystroke costs nothing on 4,000 rows.
        self._typing = QTimer(self, singleShot=True, interval=120)
        self._typing.timeout.connect(self._apply_text)
        self.search.textChanged.connect(lambda _: self._typing.start())
        self.search.returnPressed.connect(self._enter)
        self.compatible_only.toggled.connect(lambda _: self.refresh_compatible())
        self._show_kind()

    @property
    def kind(self) -> Kind:
        return Kind(self.kind_box.currentData())  # Qt hands enum data back as plain str

    def reload_prices(self) -> None:
        """The catalog's prices changed (your own prices): the tables read them again, from the one shown."""
        self._models.clear()  # a model is rebuilt on demand (as set_perf does for the GPUs)
        self._show_kind()

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

    def slot_view(self, kind: Kind) -> SlotView:
        return self._views.setdefault(kind, SlotView())

    def _remember(self) -> None:
        if self._shown_kind is not None:
            header = self.view.horizontalHeader()
            self._views[self._shown_kind] = SlotView(
                self.search.text(), header.sortIndicatorSection(), header.sortIndicatorOrder()
            )

    def show_kind_with_search(self, kind: Kind) -> None:
        """Show `kind` with the search as typed (the hint's link, Enter on a search that matched nothing here)."""
        self.slot_view(kind).text = self.search.text()
        self.set_kind(kind)

    def _enter(self) -> None:
        """Enter in the search box: apply it; when nothing of this kind matches, show the kind whose parts do."""
        self._apply_text()
        words = self.proxy._words
        if not self.proxy.rowCount() and words and not self._problem and not matches(self.catalog, self.kind, words):
            other = best_other(self.catalog, self.kind, words)
            if other is not None:
                self.show_kind_with_search(other[0])

    def _show_kind(self) -> None:
        # A search that matched nothing goes with the user to the next kind if that one has none of its own
        # (issue 40: "4090" typed into the CPU list was gone when they switched to GPUs).
        carry = self._shown_kind is not None and self.search.text() and not self.proxy.rowCount()
        if carry and not self.slot_view(self.kind).text:
            self.slot_view(self.kind).text = self.search.text()
        self._remember()
        kind = self.kind
        self._shown_kind = kind
        model = self.model_for(kind)
        self.proxy.setSourceModel(model)
        state = self.slot_view(kind)
        self.search.blockSignals(True)
        self.search.setText(state.text)  # this slot's own search, not the last slot's
        self.search.blockSignals(False)
        self.refresh_compatible()
        self._apply_text()
        column, order = state.sort_column, state.sort_order
        if column < 0 or column >= model.columnCount():  # never sorted here: the order a buyer means
            column, order = default_sort(model)
        self.view.sortByColumn(column, order)
        # Widths from what the columns show: the header and a sample of rows (ResizeToContents would measure every
        # one of 4,000 rows). Sized from "M"s, the columns were so wide that at 1280x720 Price, the column a buyer
        # reads most, was off-screen (issue 29).
        header = self.view.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        header.setMinimumSectionSize(40)
        key = (self.kind, self.build.assumptions.currency if self.build is not None else "")
        if key not in self._widths:
            self._widths[key] = [content_width(self.view, self.proxy, c) for c in range(1, model.columnCount())]
        for c, width in enumerate(self._widths[key], 1):
            header.setSectionResizeMode(c, QHeaderView.ResizeMode.Interactive)
            header.resizeSection(c, width)
        # Price shown beside the name: the column a buyer reads most stays in view however narrow the picker is
        # (the model's order, and so sorting, filters and saved sorts by header, is unchanged).
        if header.visualIndex(model.price_col) != 1:
            header.moveSection(header.visualIndex(model.price_col), 1)
        size_name_column(self.view)
        self.add_button.setEnabled(self.view.currentIndex().isValid())

    def eventFilter(self, obj: object, event: object) -> bool:  # noqa: N802
        from PySide6.QtCore import QEvent
        from PySide6.QtGui import QKeyEvent

        key = event.key() if isinstance(event, QKeyEvent) and event.type() == QEvent.Type.KeyPress else None
        if obj is self.search and key == Qt.Key.Key_Down and self.proxy.rowCount():
            self.view.setFocus(Qt.FocusReason.TabFocusReason)
            if not self.view.currentIndex().isValid():
                self.view.setCurrentIndex(self.proxy.index(0, 0))
            return True
        return super().eventFilter(obj, event)  # type: ignore[arg-type]

    def sorts(self) -> dict[str, tuple[str, bool]]:
        """Each slot's sort the user chose, by column header (kept in the settings table between runs)."""
        self._remember()
        out = {}
        for kind, v in self._views.items():
            if v.sort_column >= 0:
                head = self.model_for(kind).columns[v.sort_column][0]
                out[kind.value] = (head, v.sort_order == Qt.SortOrder.DescendingOrder)
        return out

    def restore_sorts(self, saved: dict[str, tuple[str, bool]]) -> None:
        for value, (head, descending) in saved.items():
            try:
                kind = Kind(value)
            except ValueError:
                continue
            heads = [c[0] for c in self.model_for(kind).columns]
            if head in heads:
                view = self.slot_view(kind)
                view.sort_column = heads.index(head)
                view.sort_order = Qt.SortOrder.DescendingOrder if descending else Qt.SortOrder.AscendingOrder
        self._shown_kind = None  # show the current slot again with its kept order
        self._show_kind()

    def resizeEvent(self, event: object) -> None:  # noqa: N802
        super().resizeEvent(event)  # type: ignore[arg-type]
        size_name_column(self.view)

    def _apply_text(self) -> None:
        self._typing.stop()
        parsed = parse(self.search.text(), self.proxy.columns)  # the catalog's fields and the table's headers
        self._problem = parsed.problem
        self.proxy.set_conditions(parsed.conditions)
        self.proxy.set_text(parsed.words)
        self.slot_view(self.kind).text = self.search.text()
        self._update_count()

    def set_build(self, build: Build) -> None:
        self.build = build
        if self.isVisible():
            self.refresh_compatible()
        else:  # behind the Costs tab: filter when shown (showEvent), not on every edit
            self._stale = True

    def _currency_changed(self) -> None:
        self.view.viewport().update()

    def showEvent(self, event: object) -> None:  # noqa: N802
        super().showEvent(event)  # type: ignore[arg-type]
        if self._stale:
            self._stale = False
            self.refresh_compatible()

    def refresh_compatible(self) -> None:
        rows: set[int] | None = None
        if self.build is not None:
            from rigplan.rules import compatible

            self.target.follow(self.build, self.kind)
            rows = set(compatible(self.build, self.kind, self.catalog, self.target.replacing()))
        only = self.compatible_only.isChecked()
        self.proxy.set_allowed(rows if only else None)
        # With "compatible only" off, the parts that would add an error stay visible and carry a warning sign.
        self.proxy.set_flagged(set() if only or rows is None else set(range(len(self.catalog.table(self.kind)))) - rows)
        self._update_count()

    def _update_count(self) -> None:
        total = len(self.catalog.table(self.kind))
        shown = self.proxy.rowCount()
        self.count.setText(f"{shown:,} of {total:,}")
        problem = self._problem
        hidden_all = shown == 0 and self.compatible_only.isChecked() and not self.proxy._words and not problem
        full = self._slots_full()
        why = f"{full[0][:1].upper()}{full[0][1:]}" if full else ""
        if shown == 0 and self.proxy._words and not problem:  # why nothing shows, and where the words match
            self.empty_hint.setText(
                no_match_text(self.catalog, self.kind, self.proxy._words, self.compatible_only.isChecked())
            )
            self.empty_hint.show()
            return
        if problem:
            self.empty_hint.setText(problem)
        elif full and hidden_all:
            self.empty_hint.setText(
                f"{why}, and no {self.kind.label.lower()} in the catalog could replace {full[1]} "
                "without adding an error."
            )
        elif full:
            self.empty_hint.setText(f"{why}: showing the parts that could replace {full[1]}; choosing one replaces it.")
        elif hidden_all and self.target.offers_choice() and self.target.replacing() is None:  # adding one more
            self.empty_hint.setText(
                f"No {self.kind.label.lower()} in the catalog could be added as another one without an error. "
                f"To swap one, choose \u201cReplace\u2026\u201d beside the search box."
            )
        elif hidden_all:
            self.empty_hint.setText(
                f"Every {self.kind.label.lower()} in the catalog would add an error to this build (see Findings "
                "after adding one). Untick \u201cCompatible only\u201d to see them all."
            )
        self.empty_hint.setVisible(bool(problem) or hidden_all or bool(full))

    def why_flagged(self, row: int) -> str:
        """The errors a part of the shown kind would add, each as its rule and the engine's own message with both
        numbers (issue 29): run on hover only, with the filter's definition (rules.compat.errors_added), so an
        error the build has already is not listed again when the part only changes its numbers."""
        if self.build is None:
            return ""
        from rigplan.rules.compat import errors_added  # the filter's own definition: the two cannot disagree

        new = errors_added(self.build, self.catalog.table(self.kind).part(row), self.target.replacing())
        return "\n".join(f"[{f.rule}] {f.message}" for f in new[:3])

    def _slots_full(self) -> tuple[str, str] | None:
        """(why no part of this kind can be added, the part a choice would replace), or None when there is room."""
        if self.build is None or not self.compatible_only.isChecked():
            return None
        from rigplan.rules.compat import slots_full

        why = slots_full(self.build, self.kind)
        if why is None:
            return None
        swap = self.target.replacing()
        parts = [i.part for i in self.build.items if i.part.kind == self.kind]
        return why, next((p.name for p in parts if p.id == swap), parts[-1].name)

    def _activate(self, index: QModelIndex) -> None:
        if index.isValid():
            row = self.proxy.mapToSource(index).row()
            self.part_chosen.emit(self.catalog.table(self.kind).part(row))

    def current_part(self) -> Any:
        """The part of the row the cursor is on, or None."""
        index = self.view.currentIndex()
        return self.catalog.table(self.kind).part(self.proxy.mapToSource(index).row()) if index.isValid() else None

    def set_catalog(self, catalog: Catalog) -> None:
        """Another catalog is in use (an update, a revert, a correction): the tables are built again from it."""
        self.catalog = catalog
        self._models.clear()
        self._show_kind()

    def _activate_current(self) -> None:
        self._activate(self.view.currentIndex())
