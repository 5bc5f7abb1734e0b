"""Edit > "Correct a value..." (issue 38): the user's correction of one value of the part chosen in the picker, with
its source. The model checks it (rigplan.opendb.usercorr.add): a field the part has not, or a value of the wrong
type, is refused in one line in the dialog and nothing is kept."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import QComboBox, QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QWidget

from rigplan.catalog.overlay import shown
from rigplan.gui.widgets.plain import plain_label

NOT_CORRECTED = frozenset({"id", "kind", "custom", "spec_source", "price", "name"})


class CorrectDialog(QDialog):
    """Field (the part's own fields, with their value now), new value, source. Accepted only once kept."""

    corrected = Signal(object)  # the list of UserCorrection kept

    def __init__(self, parent: QWidget | None, part: Any, data_dir: Path | None) -> None:
        super().__init__(parent)
        self.part, self.data_dir = part, data_dir
        self.setWindowTitle("Correct a value")
        form = QFormLayout(self)
        title = plain_label(QLabel(part.name))
        font = title.font()
        font.setBold(True)
        title.setFont(font)
        form.addRow(title)
        self.field = QComboBox()
        self.field.setAccessibleName("Field")
        values = part.model_dump(mode="json")
        for name in type(part).model_fields:
            if name not in NOT_CORRECTED:
                self.field.addItem(f"{name} (now {shown(values.get(name))})", name)
        self.value = QLineEdit()
        self.value.setAccessibleName("New value")
        self.value.setPlaceholderText("e.g. 305, true, ATX, [ATX, Micro ATX]; empty: unknown")
        self.source = QLineEdit()
        self.source.setAccessibleName("Source")
        self.source.setPlaceholderText("where the right value is stated: maker's page, manual (page)")
        self.problem = plain_label(QLabel(""))
        self.problem.setStyleSheet("color: #b00020")
        self.problem.setWordWrap(True)
        form.addRow("Field", self.field)
        form.addRow("Value", self.value)
        form.addRow("Source", self.source)
        form.addRow(self.problem)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self._keep)
        self.buttons.rejected.connect(self.reject)
        form.addRow(self.buttons)
        self.resize(620, 0)

    @Slot()
    def _keep(self) -> None:
        from rigplan.files.oslock import LockTimeout
        from rigplan.opendb.usercorr import CorrectionRefused, add

        field = self.field.currentData()
        try:
            made = add(self.part.id, [f"{field}={self.value.text()}"], self.source.text(), self.data_dir)
        except (CorrectionRefused, LockTimeout) as exc:
            self.problem.setText(str(exc))
            return
        except OSError as exc:
            self.problem.setText(f"cannot keep the correction: {exc.strerror or exc}")
            return
        self.corrected.emit(made)
        self.accept()


def correct_value(w: Any) -> None:
    """Edit > Correct a value...: the part under the picker's cursor; once kept, the window reads the catalog again."""
    from rigplan.catalog import load_catalog
    from rigplan.gui.catalog.update_dialog import use_catalog

    part = w.picker.current_part()
    if part is None:
        w.statusBar().showMessage("Pick a part in the list first, then Edit > Correct a value...", 10000)
        return
    w.correct_dialog = CorrectDialog(w, part, None)
    if w.correct_dialog.exec():
        use_catalog(w, load_catalog())
        w.statusBar().showMessage(f"Your correction of {part.name} is kept and in use", 15000)
