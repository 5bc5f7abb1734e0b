"""File > Export and File > Compare builds: actions that take the window's current build and chart offers, ask for
a file (the dialog remembers its folder) and write it with the same code as `rigplan export`.

The window hooks this in with one call (install_export_menu); everything else lives here, so the window's menu
module only gains a line.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtGui import QAction, QGuiApplication
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QMenu,
    QMessageBox,
    QSpinBox,
    QWidget,
)

from rigplan.exports.text import text_export
from rigplan.gui.settings import EXPORT_DPI, EXPORT_HEIGHT, EXPORT_LAST_DIR, EXPORT_WIDTH, Settings
from rigplan.gui.settings import LAST_DIR as FILES_LAST_DIR
from rigplan.gui.widgets.plain import tip as plain

if TYPE_CHECKING:  # the menu is made before the window paints, before numpy and pydantic are imported
    from rigplan.exports.plan import Plan
    from rigplan.gui.compare.compare_view import CompareDialog
    from rigplan.gui.costs.costs_view import CostsView
    from rigplan.model.assumptions import Pricing
    from rigplan.model.build import Build

LAST_DIR_KEY = EXPORT_LAST_DIR
# (menu text, format, file filter, suffix)
FORMATS = [
    ("&Markdown parts list…", "md", "Markdown (*.md)", ".md"),
    ("Parts &CSV…", "csv", "CSV (*.csv)", ".csv"),
    ("Cost c&urves CSV…", "costs-csv", "CSV (*.csv)", ".csv"),
    ("&PDF report…", "pdf", "PDF (*.pdf)", ".pdf"),
    ("Chart as P&NG…", "png", "PNG image (*.png)", ".png"),
    ("Chart as &SVG…", "svg", "SVG image (*.svg)", ".svg"),
]


class ImageOptions(QDialog):
    """Which chart, and its size and DPI (PNG) before the file dialog."""

    def __init__(self, parent: QWidget | None, fmt: str, settings: Settings | None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Export chart as {fmt.upper()}")
        self.settings = settings
        self.chart = QComboBox()
        self.chart.addItem("Break-even: cumulative cost", "breakeven")
        self.chart.addItem("Cost at the horizon", "breakdown")
        self.chart.addItem("Break-even sensitivity", "sensitivity")
        self.width_box, self.height_box, self.dpi_box = QSpinBox(), QSpinBox(), QSpinBox()
        for box, lo, hi, key in (
            (self.width_box, 200, 10000, EXPORT_WIDTH),
            (self.height_box, 150, 10000, EXPORT_HEIGHT),
            (self.dpi_box, 48, 1200, EXPORT_DPI),
        ):
            box.setRange(lo, hi)
            box.setValue(settings.get(key) if settings else key.default)  # a bad stored value reads as the default
        self.width_box.setSuffix(" px")
        self.height_box.setSuffix(" px")
        self.dpi_box.setSuffix(" dpi")
        self.dpi_box.setToolTip("96 for screens, 300 for print: text and lines are drawn at this density")
        form = QFormLayout(self)
        form.addRow("Chart", self.chart)
        form.addRow("Width", self.width_box)
        form.addRow("Height", self.height_box)
        if fmt == "png":
            form.addRow("Resolution", self.dpi_box)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def values(self) -> dict[str, Any]:
        v = {"width": self.width_box.value(), "height": self.height_box.value(), "dpi": self.dpi_box.value()}
        if self.settings:
            for key, box in (
                (EXPORT_WIDTH, self.width_box),
                (EXPORT_HEIGHT, self.height_box),
                (EXPORT_DPI, self.dpi_box),
            ):
                self.settings.set(key, box.value())
        return {"which": self.chart.currentData(), **v}


class Exporter:
    """Writes the current build in any format. `build` and `chosen` are read at export time, so the file has what
    the window shows then (chosen: the offers on the Costs chart as (offer id, pricing); None: the build's own)."""

    def __init__(
        self,
        parent: QWidget,
        build: Callable[[], Build],
        chosen: Callable[[], list[tuple[str, Pricing]] | None],
        settings: Settings | None,
    ) -> None:
        self.parent, self.build, self.chosen, self.settings = parent, build, chosen, settings
        self.last_written: Path | None = None
        self.source: Callable[[], Path | None] = lambda: None  # the open build's file: never exported over
        self.menu = QMenu("&Export", parent)
        for text, fmt, filt, suffix in FORMATS:
            a = QAction(text, self.menu)
            a.triggered.connect(lambda _=False, f=fmt, fl=filt, s=suffix: self.export(f, fl, s))
            self.menu.addAction(a)
        self.copy_action = QAction("Cop&y parts list as Markdown", parent)
        self.copy_action.setShortcut("Ctrl+Shift+C")
        self.copy_action.triggered.connect(lambda _=False: self.copy_markdown())
        self.compare_action = QAction("Co&mpare builds…", parent)
        self.compare_action.triggered.connect(lambda _=False: self.compare())

    def plan(self) -> Plan:
        from rigplan.exports.plan import make_plan
        from rigplan.workload.describe import plan_lines

        build = self.build()
        plan = make_plan(build, self.chosen())
        offers = [(c.offer, c.pricing) for c in plan.offers]  # named as the rest of the export names them (issue 29)
        plan.workload_lines = plan_lines(build, offers, list(plan.offer_names().values()))  # as `rigplan export`
        return plan

    def start_folder(self) -> str:
        """Where the dialog opens (issue 29): the last export folder, else the open build's folder, else Documents,
        else home; never the program's own working folder."""
        from PySide6.QtCore import QStandardPaths

        last = self.settings.get(LAST_DIR_KEY) if self.settings else ""
        build_file = self.source()
        docs = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
        for folder in (last, str(build_file.parent) if build_file else "", docs, str(Path.home())):
            if folder and Path(folder).is_dir():
                return folder
        return str(Path.home())

    def ask_path(self, fmt: str, filt: str, suffix: str) -> Path | None:
        from rigplan.files.names import file_stem

        name = file_stem(self.build().name)
        start = str(Path(self.start_folder()) / f"{name}{suffix}")
        path, _ = QFileDialog.getSaveFileName(self.parent, "Export", start, filt)
        if not path:
            return None
        p = Path(path)
        if p.suffix.lower() != suffix:
            p = p.with_name(p.name + suffix)
        if self.settings:
            self.settings.set(LAST_DIR_KEY, str(p.parent))
        return p

    def export(self, fmt: str, filt: str = "", suffix: str = "") -> Path | None:
        """Ask (options for images, then the file) and write; a failure is one message, nothing else changes."""
        options: dict[str, Any] = {}
        if fmt in ("png", "svg"):
            dlg = ImageOptions(self.parent, fmt, self.settings)
            if dlg.exec() != QDialog.DialogCode.Accepted:
                return None
            options = dlg.values()
        path = self.ask_path(fmt, filt, suffix)
        if path is None:
            return None
        from rigplan.exports.plan import ExportError
        from rigplan.files.errors import BuildFileError

        try:
            self.write(fmt, path, options)
        except (OSError, ExportError, BuildFileError) as exc:
            QMessageBox.warning(self.parent, "Export failed", plain(f"Could not export to {path}:\n{exc}"))
            return None
        self.last_written = path
        status = getattr(self.parent, "statusBar", None)
        if status is not None:  # the confirmation: where the file went
            status().showMessage(f"Exported to {path}", 15000)
        return path

    def write(self, fmt: str, path: Path, options: dict[str, Any] | None = None) -> None:
        """Draw or format into memory, then the one safe write (files.safeio): never over the open build, a
        special file or half-written; the file it replaces is kept as `<name>.bak`."""
        from rigplan.files.safeio import write_user_file

        plan = self.plan()
        if fmt in ("md", "csv", "costs-csv"):
            data = text_export(plan, fmt).encode("utf-8")
        else:
            with tempfile.TemporaryDirectory(prefix="rigplan-export-") as tmp:
                drawn = Path(tmp) / f"export.{fmt}"
                if fmt == "pdf":
                    from rigplan.render.pdf import write_pdf

                    write_pdf(plan, drawn)
                else:
                    from rigplan.render.images import write_chart

                    o = {"which": "breakeven", "width": 1200, "height": 700, "dpi": 96, **(options or {})}
                    write_chart(plan, o["which"], drawn, fmt, width=o["width"], height=o["height"], dpi=o["dpi"])
                data = drawn.read_bytes() if drawn.exists() else b""
            if not data:
                raise OSError(f"the {fmt.upper()} could not be drawn")
        write_user_file(path, data, inputs=(self.source(),), what="export")

    def _plan_or_message(self) -> Plan | None:
        from rigplan.exports.plan import ExportError

        try:
            return self.plan()
        except ExportError as exc:
            QMessageBox.warning(self.parent, "Cannot export", plain(str(exc)))
            return None

    def copy_markdown(self) -> str:
        plan = self._plan_or_message()
        if plan is None:
            return ""
        text = text_export(plan, "md")
        QGuiApplication.clipboard().setText(text)
        return text

    def compare(self) -> CompareDialog | None:
        from rigplan.gui.compare.compare_view import comparison_dialog

        plan = self._plan_or_message()
        if plan is None:
            return None
        dlg = comparison_dialog(self.parent, plan, self.settings)
        saved = self.settings.get(FILES_LAST_DIR) if self.settings else ""
        src = self.source()
        dlg.view.folder_hint = lambda: str(src.parent) if src else saved  # beside the open build, else where saved
        dlg.show()
        return dlg


def install_export_menu(
    window: QWidget,
    menu: QMenu,
    before: QAction | None,
    build: Callable[[], Build],
    chosen: Callable[[], list[tuple[str, Pricing]] | None],
    settings: Settings | None,
) -> Exporter:
    """Add File > Export (every format), Copy parts list as Markdown and Compare builds… before `before`."""
    ex = Exporter(window, build, chosen, settings)
    menu.insertMenu(before, ex.menu) if before else menu.addMenu(ex.menu)
    for a in (ex.copy_action, ex.compare_action):
        menu.insertAction(before, a) if before else menu.addAction(a)
    if before:
        menu.insertSeparator(before)
    return ex


def window_chart_offers(costs: CostsView) -> list[tuple[str, Pricing]]:
    """The offers on the window's Costs chart as (offer id, pricing)."""
    return [(c.offer, c.pricing) for c in costs.comparison]
