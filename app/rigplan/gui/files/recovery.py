"""Offer to recover builds autosaved by a RigPlan that crashed or was killed."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from rigplan.files.autosave import Autosaved


class RecoveryDialog(QDialog):
    """Lists orphaned autosaves (time, name, what it holds). Recover opens the selected one; Discard deletes it."""

    def __init__(self, entries: list[Autosaved], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Recover unsaved builds")
        self.entries = list(entries)
        self.chosen: Autosaved | None = None
        self.discarded: list[Autosaved] = []
        lay = QVBoxLayout(self)
        lay.addWidget(QLabel("RigPlan closed unexpectedly last time. These builds had unsaved changes:"))
        self.list = QListWidget()
        self.list.setAccessibleName("Recoverable builds")
        for e in self.entries:
            where = f" (from {e.original})" if e.original else " (never saved)"
            item = QListWidgetItem(f"{e.name}: {e.items} parts, autosaved {e.saved_at:%Y-%m-%d %H:%M}{where}")
            item.setData(Qt.ItemDataRole.UserRole, e)
            self.list.addItem(item)
        self.list.setCurrentRow(0)
        lay.addWidget(self.list)
        buttons = QDialogButtonBox()
        self.recover_button = QPushButton("Recover")
        self.discard_button = QPushButton("Discard")
        later = QPushButton("Decide later")
        buttons.addButton(self.recover_button, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(self.discard_button, QDialogButtonBox.ButtonRole.DestructiveRole)
        buttons.addButton(later, QDialogButtonBox.ButtonRole.RejectRole)
        self.recover_button.clicked.connect(self._recover)
        self.discard_button.clicked.connect(self._discard)
        later.clicked.connect(self.reject)
        lay.addWidget(buttons)

    def _current(self) -> Autosaved | None:
        item = self.list.currentItem()
        return None if item is None else item.data(Qt.ItemDataRole.UserRole)

    def _recover(self) -> None:
        self.chosen = self._current()
        if self.chosen is not None:
            self.accept()

    def _discard(self) -> None:
        e = self._current()
        if e is None:
            return
        self.discarded.append(e)
        self.list.takeItem(self.list.currentRow())
        if self.list.count() == 0:
            self.reject()
