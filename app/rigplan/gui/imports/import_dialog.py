"""File > Import > PCPartPicker list: paste (or open) a list export, then review the uncertain matches.

The matching is the core's (rigplan.imports); these dialogs only show it and collect the user's choices. Every
uncertain line starts as "keep as a custom part" (nothing guessed); the user picks a candidate, or takes the best
ones in one click.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Slot
from PySide6.QtGui import QColor, QFontDatabase
from PySide6.QtWidgets import (
    QAbstractItemView,
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
from rigplan.gui.jobs import Control, Job
from rigplan.gui.widgets.plain import plain_label, tip
from rigplan.imports.list_import import ImportedLine, ListImport, match_list
from rigplan.imports.pcpartpicker import ListFormatError
from rigplan.wording import money

CUSTOM = "Custom part: the list's name and price, specs unknown"
EXACT_SCORE = 0.995  # shown as "1.00"
STATUS_TEXT = {
    "matched": "Matched",
    "uncertain": "Check",
    "custom": "Not in catalog",
    "other": "Other item",
}
MAX_FILE = 1_000_000


def summary_text(result: ListImport) -> str:
    """What the review holds, counted from the lines' own statuses (issue 40: "Every part was matched" stood above
    two "Not in catalog" rows)."""
    count = {k: sum(ln.status == k for ln in result.lines) for k in STATUS_TEXT}
    out = []
    if count["uncertain"]:
        n = count["uncertain"]
        out.append(
            f"<b>{n} uncertain match{'es' if n != 1 else ''}</b>: pick the part you mean, or keep the line as a "
            "custom part."
        )
    if count["custom"]:
        n = count["custom"]
        out.append(
            f"<b>{n} line{'s' if n != 1 else ''} not in the catalog</b>: kept as custom part{'s' if n != 1 else ''} "
            f"with the list's name and price; no check can read {'their' if n != 1 else 'its'} specs."
        )
    if not out:
        out.append("Every part was matched." if count["matched"] else "")
    return " ".join(x for x in out if x) + " Each list price becomes the build's own price for that part."


class PasteListDialog(QDialog):
    """Step 1: the list's text. Accepting parses and matches it; a text that is not a list says why and stays."""

    def __init__(self, catalog: Catalog, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.catalog = catalog
        self.imported: ListImport | None = None
        self.job: Job | None = None
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
        self.error = plain_label(QLabel())
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
        from rigplan.files.errors import BuildFileError
        from rigplan.files.safeio import read_user_text

        try:  # the one safe reader: a FIFO or a device is refused at once, never waited on
            self.text.setPlainText(read_user_text(path, MAX_FILE, what="part list"))
            self.error.clear()
        except BuildFileError as exc:
            self.error.setText(f"Cannot read {path.name}: {exc.message}")

    @property
    def busy(self) -> bool:
        return self.job is not None

    def accept(self) -> None:
        """Parse and match as a background job (a hostile paste must never freeze the window); its end reaches
        `_matched` or `_refused` in the GUI thread, and closing the dialog cancels it and drops what it delivers."""
        if self.job is not None:
            return
        text, catalog = self.text.toPlainText(), self.catalog

        def work(control: Control) -> ListImport:
            try:
                return match_list(text, catalog)
            except ListFormatError as exc:
                raise NotAList(f"This is not a PCPartPicker list: {exc}.") from None

        self.job = job = Job(work, name="matching the list", expected=(NotAList,))
        job.succeeded.connect(self._matched)
        job.failed.connect(self._refused)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(False)
        self.error.setText("Matching parts...")
        job.start()

    def _ended(self) -> None:
        self.job = None
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(True)

    @Slot(object)
    def _matched(self, result: ListImport) -> None:
        self._ended()
        self.error.clear()
        self.imported = result
        super().accept()

    @Slot(str)
    def _refused(self, message: str) -> None:
        self._ended()
        self.error.setText(message)

    def reject(self) -> None:
        job, self.job = self.job, None
        if job is not None:
            job.succeeded.disconnect(self._matched)
            job.failed.disconnect(self._refused)
            job.cancel()
        super().reject()


class NotAList(Exception):
    """The pasted text is not a PCPartPicker list (one line, shown in the dialog)."""


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
        self.summary = QLabel(f"{len(result.lines)} lines from the list of {when}. " + summary_text(result))
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
        price = money(line.currency, line.amount) if line.currency else "no price"
        cells = [line.type_label, line.name, price, STATUS_TEXT[ln.status]]
        for c, text in enumerate(cells):
            item = QTableWidgetItem(text)
            item.setToolTip(tip(text))
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
            # Issue 29: a candidate that agrees in every word and stated spec (1.00) is taken, still marked for review;
            # below that nothing is guessed.
            exact = ln.match.best is not None and ln.match.best.score >= EXACT_SCORE
            combo.setCurrentIndex(max(0, combo.findData(ln.choice)) if ln.choice else (1 if exact else 0))
            combo.setToolTip("Candidates with their match score (1.00: every word and stated spec agrees)")
            self.combos[r] = combo
            self.table.setCellWidget(r, 4, combo)
        else:
            text = (
                "custom part (specs unknown)"
                if ln.status == "custom"
                else "Other item: counted in the total, read by no check"
            )
            self.table.setItem(r, 4, QTableWidgetItem(text))

    def take_best(self) -> None:
        for r in self.listed.uncertain:
            combo = self.combos.get(r)
            if combo is not None and combo.count() > 1:
                combo.setCurrentIndex(1)

    def choices(self) -> dict[int, str | None]:
        return {r: combo.currentData() for r, combo in self.combos.items()}
