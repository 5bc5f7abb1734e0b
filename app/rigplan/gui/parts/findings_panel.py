"""The findings panel: errors, warnings and notes of the checks, then what could not be checked."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt, Signal
from PySide6.QtWidgets import (
    QHeaderView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeWidget,
    QTreeWidgetItem,
)

from rigplan.gui.widgets.plain import tip

if TYPE_CHECKING:
    from rigplan.rules import Report


# Qt's standard icons by rigplan.rules.Severity value: emoji such as the no-entry sign are missing from common
# fonts (DejaVu draws an empty box).
ICONS = {
    "error": QStyle.StandardPixmap.SP_MessageBoxCritical,
    "warning": QStyle.StandardPixmap.SP_MessageBoxWarning,
    "note": QStyle.StandardPixmap.SP_MessageBoxInformation,
}
SEVERITY_WORD = {"error": "Error", "warning": "Warning", "note": "Note"}


class _WrapDelegate(QStyledItemDelegate):
    """A finding's height for its text wrapped at the column's present width: Qt's delegate measures a tree's cell
    without its width, so a long finding stayed one line cut with "..." (issue 29)."""

    def __init__(self, tree: QTreeWidget) -> None:
        super().__init__(tree)
        self.tree = tree

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:  # noqa: N802
        size = super().sizeHint(option, index)
        depth, parent = 1, index.parent()
        while parent.isValid():
            depth, parent = depth + 1, parent.parent()
        icon = 20 if index.data(Qt.ItemDataRole.DecorationRole) is not None else 0
        width = max(self.tree.columnWidth(0) - depth * self.tree.indentation() - icon - 8, 60)
        text = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
        box = option.fontMetrics.boundingRect(QRect(0, 0, width, 10_000), Qt.TextFlag.TextWordWrap, text)
        return QSize(size.width(), max(size.height(), box.height() + 4))


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
        # Wrapped, never cut with "...": a tree lays out its rows' heights once, so a new column width (the window
        # resized, the dock moved) must lay them out again or long findings stay one elided line (issue 29).
        self.setUniformRowHeights(False)
        self.setItemDelegateForColumn(0, _WrapDelegate(self))
        self.header().sectionResized.connect(lambda *_: self.scheduleDelayedItemsLayout())
        self.itemClicked.connect(self._clicked)
        self.itemActivated.connect(self._clicked)
        self._shown: tuple[tuple[Any, ...], ...] | None = None  # the report on screen, to skip repeats

    def show_report(self, report: Report, passed: list[str] | None = None) -> None:
        """`passed`: the checks that ran and found nothing (rigplan.rules.passed), listed after "not checked"."""
        key = (tuple(report.findings), tuple(report.not_checked), tuple(passed or ()))
        if key == self._shown:
            return  # most edits leave the findings as they were: no rebuild, no repaint
        self._shown = key
        self.clear()
        for f in report.findings:
            item = QTreeWidgetItem([f.message, f.rule])
            item.setIcon(0, self.style().standardIcon(ICONS[f.severity]))
            item.setData(0, Qt.ItemDataRole.AccessibleDescriptionRole, SEVERITY_WORD[f.severity])
            # the whole finding (the row may be cut with "..."), then what to do
            item.setToolTip(0, tip(f"{SEVERITY_WORD[f.severity]}: {f.message}" + (f"\n\n{f.hint}" if f.hint else "")))
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
        if passed:
            ok = QTreeWidgetItem([f"Passed ({len(passed)})", ""])
            ok.setToolTip(0, "Checks that had the data they need and found nothing wrong")
            self.addTopLevelItem(ok)
            for rule in passed:
                ok.addChild(QTreeWidgetItem(["passed", rule]))

    def findings_shown(self) -> list[tuple[str, str]]:
        items = [self.topLevelItem(i) for i in range(self.topLevelItemCount())]
        return [(item.text(1), item.text(0)) for item in items if item is not None]

    def _clicked(self, item: QTreeWidgetItem, _col: int = 0) -> None:
        kind = item.data(0, Qt.ItemDataRole.UserRole)
        if kind is not None:
            self.slot_selected.emit(kind)
