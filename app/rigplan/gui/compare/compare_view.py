"""Builds side by side: the current build and saved files (two to four), with the figures and parts tables of
`rigplan compare` (rigplan.exports.compare, so both show the same text) and every build's own cost with the chosen
offers on one chart over the same work done."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from rigplan.costs.fx import NoRate
from rigplan.exports.compare import MAX_BUILDS, MIN_BUILDS, Comparison, compare, figure_rows
from rigplan.exports.compare_currency import Conversion, target_rate, to_currency
from rigplan.exports.plan import ExportError, Plan, make_plan
from rigplan.files import BuildFileError, load
from rigplan.gui.files.files_controller import OPEN_FILTER
from rigplan.gui.settings import COMPARE_LAST_DIR, Settings
from rigplan.gui.widgets.plain import plain_label, tip
from rigplan.model.build import Build

DIFF_BRUSH = QBrush(QColor(255, 236, 179))  # amber: a row whose parts differ
PARTS_MIN_PX = 160  # the parts table keeps about four wrapped rows below the figures
LAST_DIR_KEY = COMPARE_LAST_DIR


class CompareView(QWidget):
    """Give it plans (add_plan / add_file); it recomputes the comparison and redraws the tables and the chart."""

    def __init__(self, settings: Settings | None = None, planner: Callable[..., Plan] = make_plan) -> None:
        super().__init__()
        self.settings = settings
        self.planner = planner
        self.plans: list[Plan] = []
        # One per plan: how a build in another currency was converted (its rate and date), None when it was not
        self.converted: list[Conversion | None] = []
        self.folder_hint: Callable[[], str] = lambda: ""  # where builds are saved, when no compare folder is kept
        self.comparison: Comparison | None = None
        self._plot: Any = None  # one pyqtgraph plot, made on the first comparison and redrawn after
        self.add_button = QPushButton("Add build file…")
        self.add_button.clicked.connect(self._choose_file)
        self.remove_button = QPushButton("Remove last")
        self.remove_button.clicked.connect(self.remove_last)
        self.save_chart_button = QPushButton("Export…")  # chart (PNG, SVG) or the whole comparison (PDF, Markdown)
        self.save_chart_button.setToolTip("The comparison chart as PNG or SVG")
        self.save_chart_button.clicked.connect(self._choose_chart_file)
        self.message = plain_label(QLabel())
        self.message.setWordWrap(True)
        top = QHBoxLayout()
        top.addWidget(self.add_button)
        top.addWidget(self.remove_button)
        top.addWidget(self.save_chart_button)
        top.addWidget(self.message, 1)
        self.figures = self._table("Build figures")
        self.parts = self._table("Parts side by side")
        self.chart_box = QVBoxLayout()
        chart_holder = QWidget()
        chart_holder.setLayout(self.chart_box)
        self.tables = tables = QSplitter(Qt.Orientation.Vertical)
        tables.addWidget(self.figures)
        tables.addWidget(self.parts)
        # The figures table as tall as its rows (at 1280x720 its last break-even row was cut at the pane's edge), the
        # parts below it scrolling; until the user drags the divider, then theirs is kept.
        self.split_moved = False
        tables.splitterMoved.connect(self._divider_moved)
        self.figures_fit = QTimer(self)
        self.figures_fit.setSingleShot(True)
        self.figures_fit.setInterval(0)
        self.figures_fit.timeout.connect(self._fit_split)
        self.figures.horizontalHeader().sectionResized.connect(lambda *_: self.figures_fit.start())
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(tables)
        split.addWidget(chart_holder)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 1)
        split.setSizes([780, 500])  # the tables need the width more than the chart
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(split, 1)
        self._refresh()

    @staticmethod
    def _table(name: str) -> QTableWidget:
        t = QTableWidget()
        t.setAccessibleName(name)
        t.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        # Issue 29: long part and build names wrap onto more lines instead of being elided (at 1280x720 the text was
        # only in the tooltip): rows grow to their text, the builds' columns share the width, the table scrolls.
        t.setWordWrap(True)
        t.setTextElideMode(Qt.TextElideMode.ElideNone)
        t.verticalHeader().setVisible(False)
        head = t.horizontalHeader()
        head.setDefaultAlignment(Qt.AlignmentFlag.AlignCenter | Qt.AlignmentFlag(Qt.TextFlag.TextWordWrap.value))
        head.setTextElideMode(Qt.TextElideMode.ElideNone)
        t.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)  # tall wrapped rows scroll smoothly
        # A column's new width changes how many lines its cells and header take: fit the heights once the resizes
        # of one layout pass are done (the timer coalesces them).
        fit = QTimer(t)
        fit.setSingleShot(True)
        fit.setInterval(0)
        fit.timeout.connect(lambda: fit_heights(t))
        head.sectionResized.connect(lambda *_: fit.start())
        return t

    def add_plan(self, plan: Plan) -> bool:
        """Add a costed build (the window's current one); one in another currency is converted first (add_build)."""
        if self.plans and plan.currency != self.plans[0].currency:
            return self.add_build(plan.build)
        return self._append(plan, None)

    def add_build(self, build: Build) -> bool:
        """Cost a build and add it, in the first build's currency: one chart, one currency. A build in another is
        converted as `rigplan compare` converts it (rigplan.exports.compare_currency), at the rate the compared builds
        use, and the rate and its date are said; one without any rate is one message and is not added."""
        if self._full():
            return False
        note = None
        if self.plans and build.assumptions.currency != self.plans[0].currency:
            try:
                dst = target_rate([p.build for p in self.plans] + [build], self.plans[0].currency)
                build, note = to_currency(build, dst)
            except NoRate as exc:
                self.message.setText(f"Not added: {exc}")
                return False
        try:
            plan = self.planner(build)
        except ExportError as exc:
            self.message.setText(f"Not added: {build.name}: {exc}")
            return False
        return self._append(plan, note)

    def _full(self) -> bool:
        if len(self.plans) >= MAX_BUILDS:
            self.message.setText(f"At most {MAX_BUILDS} builds side by side: remove one first.")
        return len(self.plans) >= MAX_BUILDS

    def _append(self, plan: Plan, note: Conversion | None) -> bool:
        if self._full():
            return False
        self.plans.append(plan)
        self.converted.append(note)
        self._refresh()
        return True

    def add_file(self, path: Path) -> bool:
        """Load a build file and add it; a bad file is one message in the view, nothing else changes."""
        try:
            build = load(path)
        except BuildFileError as exc:
            self.message.setText(f"Not added: {exc}")
            return False
        return self.add_build(build)

    def remove_last(self) -> None:
        if self.plans:
            self.plans.pop()
            self.converted.pop()
            self._refresh()

    def _choose_file(self) -> None:
        # Where builds were last added here, else where they are saved (issue 40: it opened in the working folder)
        folder = (self.settings.get(LAST_DIR_KEY) if self.settings else "") or self.folder_hint()
        path, _ = QFileDialog.getOpenFileName(self, "Add a build to compare", folder, OPEN_FILTER)
        if path:
            if self.settings:
                self.settings.set(LAST_DIR_KEY, str(Path(path).parent))
            self.add_file(Path(path))

    def save_chart(self, path: Path, width: int = 1200, height: int = 700) -> None:
        """The chart as on screen, drawn afresh at the given size: SVG for a .svg name, else PNG; a .pdf or .md
        name writes the whole comparison (figures, parts and, in the PDF, the chart: issue 29). Every format goes
        through the one safe write (atomic, .bak kept, never a special file)."""
        from rigplan.files.safeio import write_user_file
        from rigplan.render.images import comparison_plot, write_png, write_svg

        assert self.comparison is not None
        if path.suffix.lower() == ".md":
            from rigplan.exports.compare_text import compare_markdown

            write_user_file(path, compare_markdown(self.comparison).encode("utf-8"), what="comparison")
            return
        if path.suffix.lower() == ".pdf":
            from rigplan.render.compare_pdf import write_compare_pdf

            with tempfile.TemporaryDirectory(prefix="rigplan-compare-") as tmp:
                drawn_pdf = Path(tmp) / "comparison.pdf"
                write_compare_pdf(self.comparison, drawn_pdf)
                write_user_file(path, drawn_pdf.read_bytes(), what="comparison")
            return
        w = comparison_plot(self.comparison)
        suffix = ".svg" if path.suffix.lower() == ".svg" else ".png"
        try:  # drawn in a private folder, then the one safe write: atomic, .bak kept, never a special file
            with tempfile.TemporaryDirectory(prefix="rigplan-chart-") as tmp:
                drawn = Path(tmp) / f"chart{suffix}"
                if suffix == ".svg":
                    write_svg(w, drawn, width, height, "RigPlan: builds compared")
                else:
                    write_png(w, drawn, width, height)
                data = drawn.read_bytes() if drawn.exists() else b""
        finally:
            w.close()
            w.deleteLater()
        if not data:
            raise OSError("the chart could not be drawn")
        write_user_file(path, data, what="chart")

    def _choose_chart_file(self) -> None:
        folder = self.settings.get(LAST_DIR_KEY) if self.settings else ""
        name, _ = QFileDialog.getSaveFileName(
            self,
            "Export the comparison",
            str(Path(folder) / "comparison.png"),
            "PNG chart (*.png);;SVG chart (*.svg);;PDF report (*.pdf);;Markdown (*.md)",
        )
        if not name:
            return
        path = Path(name) if Path(name).suffix.lower() in (".png", ".svg", ".pdf", ".md") else Path(name + ".png")
        if self.settings:
            self.settings.set(LAST_DIR_KEY, str(path.parent))
        try:
            self.save_chart(path)
        except (OSError, BuildFileError) as exc:
            self.message.setText(f"Not saved: {exc}")
            return
        self.message.setText(f"Saved to {path}")

    def _divider_moved(self, *_: object) -> None:
        self.split_moved = True

    def _fit_split(self) -> None:
        """Give the figures table the height of its rows (header and frame included) when the parts keep at least
        PARTS_MIN_PX below it; otherwise both scroll as before."""
        sizes, t = self.tables.sizes(), self.figures
        total = sum(sizes)
        if self.split_moved or total <= 0 or t.rowCount() == 0:
            return
        fit_heights(t)  # rows as tall as their text at the present widths, before they are added up
        need = t.horizontalHeader().height() + sum(t.rowHeight(r) for r in range(t.rowCount())) + 2 * t.frameWidth()
        if t.horizontalScrollBar().isVisible():
            need += t.horizontalScrollBar().height()
        need = min(need, total - PARTS_MIN_PX)
        if need > 0 and need != sizes[0]:
            self.tables.setSizes([need, total - need])

    def showEvent(self, event: object) -> None:  # noqa: N802 - Qt API
        super().showEvent(event)  # type: ignore[arg-type]
        self.figures_fit.start()

    def _refresh(self) -> None:
        self.add_button.setEnabled(len(self.plans) < MAX_BUILDS)
        self.save_chart_button.setEnabled(len(self.plans) >= MIN_BUILDS)
        self.remove_button.setEnabled(bool(self.plans))
        self.comparison = None
        if len(self.plans) < MIN_BUILDS:
            self.message.setText(f"Add {MIN_BUILDS - len(self.plans)} more build file(s) to compare.")
            self._fill(self.figures, [], [])
            self._fill(self.parts, [], [])
            if self._plot is not None:
                self._plot.clear()
                self._plot.getPlotItem().legend.clear()
            return
        try:
            cmp = compare(self.plans, [c for c in self.converted if c is not None])
        except ExportError as exc:
            self.message.setText(str(exc))
            return
        self.comparison = cmp
        notes = cmp.notes + [n for p in cmp.plans for n in p.notes]  # the conversions' rates and dates first
        self.message.setText("; ".join(notes) if notes else f"{len(self.plans)} builds, {cmp.currency}.")
        # A converted build's column says so (its rate and date are in the message above)
        heads = [n if c is None else f"{n} (from {c.source})" for n, c in zip(cmp.names, self.converted, strict=True)]
        self._fill(self.figures, ["", *heads], figure_rows(cmp))
        rows = [[("≠ " if r.differs else "") + r.kind.label, *(c or "—" for c in r.cells)] for r in cmp.parts]
        self._fill(self.parts, ["Part", *heads], rows, [r.differs for r in cmp.parts])
        self.figures_fit.start()
        from rigplan.render.images import comparison_plot, draw_comparison  # pyqtgraph on first use only

        if self._plot is None:
            self._plot = comparison_plot(None, offscreen=False)
            self._plot.setAccessibleName("Comparison chart")
            self.chart_box.addWidget(self._plot)
        draw_comparison(self._plot, cmp)

    @staticmethod
    def _fill(t: QTableWidget, head: list[str], rows: list[list[str]], marked: list[bool] | None = None) -> None:
        t.clear()
        t.setColumnCount(len(head))
        t.setRowCount(len(rows))
        t.setHorizontalHeaderLabels(head)
        bold = QFont()
        bold.setBold(True)
        for i, row in enumerate(rows):
            for j, text in enumerate(row):
                item = QTableWidgetItem(text)
                item.setToolTip(tip(text))
                if marked and marked[i]:
                    item.setBackground(DIFF_BRUSH)
                    if j == 0:
                        item.setFont(bold)
                        item.setToolTip("The builds differ here")
                t.setItem(i, j, item)
        h = t.horizontalHeader()
        if head:  # the labels at their width, the builds sharing the rest (their text wraps to it)
            h.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
            for j in range(1, len(head)):
                h.setSectionResizeMode(j, QHeaderView.ResizeMode.Stretch)
        fit_heights(t)


class CompareDialog(QDialog):
    """The comparison in its own window (File > Compare builds…); `view` is its CompareView."""

    def __init__(self, parent: QWidget | None, view: CompareView) -> None:
        super().__init__(parent)
        self.setWindowTitle("Compare builds")
        self.resize(1280, 720)
        self.view = view
        QVBoxLayout(self).addWidget(view)


def comparison_dialog(parent: QWidget | None, current: Plan | None, settings: Settings | None = None) -> CompareDialog:
    """The comparison, starting with the current build."""
    if current is None:
        return CompareDialog(parent, CompareView(settings))
    # Every build against the offers on the current build's chart, so the break-even rows line up.
    chosen = [(c.offer.id, c.pricing) for c in current.offers]
    view = CompareView(settings, lambda build: make_plan(build, chosen))
    view.add_plan(current)
    return CompareDialog(parent, view)


def fit_heights(t: QTableWidget) -> None:
    """Rows and the header as tall as their wrapped text at the columns' present widths: Qt sizes a header for one
    line, and rows sized before the layout gave the columns their widths keep a stale height."""
    t.resizeRowsToContents()
    head = t.horizontalHeader()
    fm = head.fontMetrics()
    need = fm.height()
    for j in range(t.columnCount()):
        item = t.horizontalHeaderItem(j)
        width = head.sectionSize(j) - 12  # the section's margins
        if item is not None and width > 0:
            flags = int(Qt.TextFlag.TextWordWrap.value) | int(Qt.AlignmentFlag.AlignCenter.value)
            need = max(need, fm.boundingRect(0, 0, width, 10_000, flags, item.text()).height())
    height = need + 10
    if head.height() != height:
        head.setFixedHeight(height)
