"""File > Import > PCPartPicker list: paste (or open) a list export, then review the uncertain matches.

The matching is the core's (rigplan.imports); these dialogs only show it and collect the user's choices. Every
uncertain line starts as "keep as a custom part" (nothing guessed); the user picks a candidate, or takes the best
ones in one click.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFontDatabase
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from rigplan.catalog import Catalog
from rigplan.imports.list_import import ImportedLine, ListImport, match_list
from rigplan.imports.pcpartpicker import ListFormatError

CUSTOM = "Custom part: the list's name and price, specs unknown"
STATUS_TEXT = {
    "matched": "Matched",
    "uncertain": "Check",
    "custom": "Not in catalog",
    "skipped": "Not planned",
}
MAX_FILE = 1_000_000


class PasteListDialog(QDialog):
    """Step 1: the list's text. Accepting parses and matches it; a text that is not a list says why and stays."""

    def __init__(self, catalog: Catalog, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.catalog = catalog
        self.imported: ListImport | None = None
        self.setWindowTitle("Import a PCPartPicker list")
        lay = QVBoxLayout(self)
        lay.addWidget(
            QLabel(
                "On your PCPartPicker list, press <b>Markup</b> and copy the <b>Reddit</b> or <b>Text</b> format, "
                "then paste it here, or open a saved file. Every price in it becomes this build's own price."
            )
        )
        self.text = QPlainTextEdit()
        self.text.setPlaceholderText(
            "PCPartPicker Part List: https://pcpartpicker.com/list/...\n\n"
            "CPU: AMD Ryzen 9 7950X 4.5 GHz 16-Core Processor  ($549.00 @ Amazon)\n..."
        )
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        lay.addWidget(self.text, 1)
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #b00020")
        lay.addWidget(self.error)
        row = QHBoxLayout()
        self.open_button = QPushButton("Open file...")
        self.open_button.clicked.connect(self.open_file)
        row.addWidget(self.open_button)
        row.addStretch(1)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Match parts")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        row.addWidget(self.buttons)
        lay.addLayout(row)
        self.resize(760, 440)

    def open_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open a PCPartPicker list", "", "Text (*.txt *.md);;All (*)")
        if path:
            self.load_file(Path(path))

    def load_file(self, path: Path) -> None:
        try:
            if path.stat().st_size > MAX_FILE:
                raise OSError(f"larger than {MAX_FILE // 1000} kB; not a part list")
            self.text.setPlainText(path.read_text(encoding="utf-8-sig", errors="replace"))
            self.error.clear()
        except OSError as exc:
            self.error.setText(f"Cannot read {path.name}: {getattr(exc, 'strerror', None) or exc}")

    def accept(self) -> None:
        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)  # the first import builds indexes (~1 s)
        try:
            self.imported = match_list(self.text.toPlainText(), self.catalog)
        except ListFormatError as exc:
            self.error.setText(f"This is not a PCPartPicker list: {exc}.")
            return
        finally:
            QApplication.restoreOverrideCursor()
        super().accept()


class ReviewMatchesDialog(QDialog):
    """Step 2: every line of the list with its match; the uncertain ones first in line for a choice."""

    COLS = ("Type", "In the list", "List price", "Status", "RigPlan part")

    def __init__(self, result: ListImport, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.listed = result  # not self.result: QDialog.result() is the dialog's exit code
        self.setWindowTitle("Review the matches")
        lay = QVBoxLayout(self)
        n_open = len(result.uncertain)
        when = result.parts.date.isoformat() if result.parts.date else "date unknown"
        self.summary = QLabel(
            f"{len(result.lines)} lines from the list of {when}. "
            + (
                f"<b>{n_open} uncertain match{'es' if n_open != 1 else ''}</b>: pick the part you mean, or keep "
                "the line as a custom part. "
                if n_open
                else "Every part was matched. "
            )
            + "Each list price becomes the build's own price for that part."
        )
        self.summary.setWordWrap(True)
        lay.addWidget(self.summary)
        self.table = QTableWidget(len(result.lines), len(self.COLS))
        self.table.setHorizontalHeaderLabels(self.COLS)
        self.table.verticalHeader().setVisible(False)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.combos: dict[int, QComboBox] = {}
        for r, line in enumerate(result.lines):
            self._fill_row(r, line)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(4, QHeaderView.ResizeMode.Stretch)
        lay.addWidget(self.table, 1)
        row = QHBoxLayout()
        self.best_button = QPushButton("Take the best candidates")
        self.best_button.setToolTip("Choose the highest-scoring candidate for every uncertain line")
        self.best_button.setEnabled(bool(n_open))
        self.best_button.clicked.connect(self.take_best)
        row.addWidget(self.best_button)
        row.addStretch(1)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Open as a new build")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        row.addWidget(self.buttons)
        lay.addLayout(row)
        self.resize(1100, 460)

    def _fill_row(self, r: int, ln: ImportedLine) -> None:
        line = ln.line
        price = f"{line.amount:,.2f} {line.currency}" if line.amount is not None else "no price"
        cells = [line.type_label, line.name, price, STATUS_TEXT[ln.status]]
        for c, text in enumerate(cells):
            item = QTableWidgetItem(text)
            item.setToolTip(text)
            if c == 2:
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            if c == 3 and ln.status == "uncertain":
                item.setForeground(QColor("#b8860b"))
                font = item.font()
                font.setBold(True)
                item.setFont(font)
            self.table.setItem(r, c, item)
        if ln.status in ("uncertain", "matched") and ln.match is not None:
            combo = QComboBox()
            combo.addItem(CUSTOM, None)
            for cand in ln.match.candidates:
                combo.addItem(f"{cand.score:.2f}  {cand.name}", cand.part_id)
            combo.setCurrentIndex(max(0, combo.findData(ln.choice)) if ln.choice else 0)
            combo.setToolTip("Candidates with their match score (1.00: every word and stated spec agrees)")
            self.combos[r] = combo
            self.table.setCellWidget(r, 4, combo)
        else:
            text = "custom part (specs unknown)" if ln.status == "custom" else "left out: RigPlan does not plan it"
            self.table.setItem(r, 4, QTableWidgetItem(text))

    def take_best(self) -> None:
        for r in self.listed.uncertain:
            combo = self.combos.get(r)
            if combo is not None and combo.count() > 1:
                combo.setCurrentIndex(1)

    def choices(self) -> dict[int, str | None]:
        return {r: combo.currentData() for r, combo in self.combos.items()}
