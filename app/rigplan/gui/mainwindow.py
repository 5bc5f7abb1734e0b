"""The main window: build panel | part picker and costs tabs, findings dock, menus, files, undo, settings.

Start-up is staged so that the window paints early. The constructor builds the shell (build panel, the whole catalog
in the part picker, findings, menus), which needs Qt and the catalog's columns only. `finish()` then brings in the
rest (pydantic models, checks, numpy, cloud offers, speed table, costs view) and shows the build; `run_gui` calls it
right after the first paint, everything else (tests, tools) at construction. That is why most imports from
pydantic-backed modules sit inside the methods that use them.
"""

from __future__ import annotations

import datetime as dt
import gc
import json
import math
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QLocale, QSettings, Qt, QTimer, QUrl
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QDesktopServices,
    QDragEnterEvent,
    QDropEvent,
    QKeySequence,
    QUndoStack,
)
from PySide6.QtWidgets import (
    QDockWidget,
    QFileDialog,
    QInputDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QTabWidget,
)

from rigplan import BUILD_SUFFIX as SUFFIX
from rigplan import __version__
from rigplan.catalog import Catalog
from rigplan.gui.panels import BuildPanel, FindingsPanel, PickerPanel
from rigplan.kinds import Kind

if TYPE_CHECKING:
    from rigplan.costs.offers import OfferCatalog
    from rigplan.costs.perf import PerfTable
    from rigplan.files.autosave import AutosaveStore
    from rigplan.gui.costs_view import CostsView
    from rigplan.gui.document import BuildDocument
    from rigplan.model import Assumptions, Build
    from rigplan.rules import Report

FILE_FILTER = f"RigPlan builds (*{SUFFIX} *.yaml *.yml);;All files (*)"
DOCS_URL = "https://github.com/rigplan/rigplan/tree/main/docs"
MAX_RECENT = 8


class MainWindow(QMainWindow):
    def __init__(
        self,
        catalog: Catalog,
        offers: OfferCatalog | None,
        perf: PerfTable | None,
        settings: QSettings,
        docs_dir: Path | None = None,
        data_dir: Path | None = None,
        *,
        staged: bool = False,
    ) -> None:
        """The window. offers and perf may be None: finish() loads them. With staged=True the caller must call
        finish() (run_gui does, right after the first paint); otherwise it is called here."""
        super().__init__()
        self.catalog, self.settings, self.docs_dir = catalog, settings, docs_dir
        self._offers, self._perf, self._data_dir = offers, perf, data_dir
        self.ready = False
        loc = QLocale()
        # The "C" locale formats money as "449.96$"; fall back to US English there.
        self.locale = (
            QLocale(QLocale.Language.English, QLocale.Country.UnitedStates)
            if loc.language() == QLocale.Language.C
            else loc
        )
        self.undo_stack = QUndoStack(self)
        self.picker = PickerPanel(catalog, perf, self.money)
        self.build_panel = BuildPanel(self.money)
        self.findings = FindingsPanel()
        self.costs_placeholder = QLabel("Loading the cost model...")
        self.costs_placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.picker, "Parts")
        self.tabs.addTab(self.costs_placeholder, "Costs")
        self.tabs.setAccessibleName("Parts and costs")
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.build_panel)
        self.splitter.addWidget(self.tabs)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([470, 930])
        self.setCentralWidget(self.splitter)
        dock = QDockWidget("Findings", self)
        dock.setObjectName("findings")
        dock.setWidget(self.findings)
        dock.setFeatures(
            QDockWidget.DockWidgetFeature.DockWidgetMovable | QDockWidget.DockWidgetFeature.DockWidgetFloatable
        )
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, dock)
        self.findings_dock = dock
        self.setAcceptDrops(True)
        self._make_actions()
        self.build_panel.slot_selected.connect(self._slot_selected)
        self.findings.slot_selected.connect(self.select_slot)
        self._restore_geometry()
        self.build_panel.show_build(None, None)
        self.setWindowTitle("RigPlan")
        self._status(f"Checking...  ·  {len(self.catalog):,} parts in the catalog")
        self.autosave: AutosaveStore | None = None
        self.autosave_timer = QTimer(self)
        if not staged:
            self.finish()

    def finish(self) -> None:
        """Second stage: the document, checks, costs and autosave. Idempotent."""
        if self.ready:
            return
        from rigplan.costs.offers import load_offers
        from rigplan.costs.perf import load_perf
        from rigplan.files.autosave import AutosaveStore
        from rigplan.gui.costs_view import CostsView
        from rigplan.gui.document import BuildDocument
        from rigplan.model import Build

        offers = self._offers if self._offers is not None else load_offers()
        if self._perf is None:
            self._perf = load_perf()
            self.picker.set_perf(self._perf)
        self.doc: BuildDocument = BuildDocument(self, self.undo_stack)
        self.costs: CostsView = CostsView(offers, self._perf, self.money)
        current = self.tabs.currentIndex()
        self.tabs.removeTab(1)
        self.tabs.insertTab(1, self.costs, "Costs")
        self.tabs.setCurrentIndex(current)
        self.costs_placeholder.deleteLater()
        # wiring: user actions -> document edits -> one refresh
        self.picker.part_chosen.connect(self.doc.add_part)
        self.build_panel.remove_requested.connect(self.doc.remove_item)
        self.build_panel.quantity_changed.connect(self.doc.set_quantity)
        self.build_panel.price_edited.connect(self._price_edited)
        self.costs.assumptions_changed.connect(lambda a: self.doc.set_assumptions(a))
        self.costs.chosen_changed.connect(lambda keys: self.settings.setValue("costs/offers", keys))
        self.doc.changed.connect(self.refresh)
        self.undo_stack.cleanChanged.connect(lambda _: self._update_title())
        self.doc.path_changed.connect(lambda _: self._update_title())
        self.tabs.currentChanged.connect(lambda i: self.costs.ensure_charts() if i == 1 else None)
        keys = self.settings.value("costs/offers")
        self.costs.set_chosen(list(keys) if isinstance(keys, list) else self.costs.default_keys())
        costs_state = self.settings.value("window/costs_splitter")
        if costs_state is not None:
            self.costs.splitter.restoreState(costs_state)
        gc.freeze()  # the modules and data just loaded live as long as the app (see create_window)
        self.ready = True
        self.doc.reset(Build(assumptions=self._last_assumptions()), None)
        if current == 1:
            self.costs.ensure_charts()
        for a in self._doc_actions:
            a.setEnabled(True)
        self._update_title()
        # Autosave: unsaved edits are written every N seconds to the data folder, one file per instance.
        self.autosave = AutosaveStore(self._data_dir / "autosave") if self._data_dir else None
        self.autosave_timer.setInterval(max(5, int(self.settings.value("autosave/seconds", 60))) * 1000)
        self.autosave_timer.timeout.connect(self.autosave_now)
        if self.autosave:
            self.autosave_timer.start()
            self.undo_stack.cleanChanged.connect(lambda clean: self.autosave.remove() if clean else None)

    def autosave_now(self) -> None:
        if self.autosave is None or not self.doc.is_modified():
            return
        from rigplan.files import BuildFileError

        try:
            self.autosave.save(self.doc.build, self.doc.path)
        except (BuildFileError, OSError) as exc:
            self.statusBar().showMessage(f"Autosave failed: {exc}", 8000)

    def offer_recovery(self) -> bool:
        """At start: offer the builds that a crashed or killed RigPlan left unsaved. True if one was recovered."""
        if self.autosave is None:
            return False
        from rigplan.files.autosave import AutosaveStore
        from rigplan.gui.recovery import RecoveryDialog

        entries = self.autosave.orphans()
        if not entries:
            return False
        dlg = RecoveryDialog(entries, self)
        dlg.exec()
        for gone in dlg.discarded:
            AutosaveStore.discard(gone)
        if dlg.chosen is None:
            return False
        build = AutosaveStore.try_load(dlg.chosen)
        if isinstance(build, str):
            QMessageBox.warning(self, "Cannot recover", build)
            return False
        original = Path(dlg.chosen.original) if dlg.chosen.original else None
        self.doc.reset(build, original if original and original.exists() else None)
        self.doc.undo_stack.resetClean()  # recovered edits are unsaved until the user saves them
        self._update_title()
        AutosaveStore.discard(dlg.chosen)
        self.autosave_now()
        return True

    # --- formatting ------------------------------------------------------------------------------------------------

    def money(self, amount: float) -> str:
        return self.locale.toCurrencyString(float(amount), self._currency_symbol())

    def _currency_symbol(self) -> str:
        code = self.doc.build.assumptions.currency if self.ready else self._saved_currency()
        return {"USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥"}.get(code, code + " ")

    # --- actions and menus -----------------------------------------------------------------------------------------

    def _action(self, text: str, slot: object, shortcut: QKeySequence.StandardKey | str | None = None) -> QAction:
        a = QAction(text, self)
        if shortcut is not None:
            a.setShortcut(QKeySequence(shortcut))
        a.triggered.connect(slot)  # type: ignore[arg-type]
        return a

    def _make_actions(self) -> None:
        sk = QKeySequence.StandardKey
        self.act_new = self._action("&New", self.new_build, sk.New)
        self.act_open = self._action("&Open...", self.open_dialog, sk.Open)
        self.act_suggest = self._action("Suggest a &build...", self.suggest_build)  # issue 16
        self.act_save = self._action("&Save", self.save, sk.Save)
        self.act_save_as = self._action("Save &As...", self.save_as, sk.SaveAs)
        self.act_quit = self._action("&Quit", self.close, sk.Quit)
        self.act_undo = self.undo_stack.createUndoAction(self, "&Undo")
        self.act_undo.setShortcut(QKeySequence(sk.Undo))
        self.act_redo = self.undo_stack.createRedoAction(self, "&Redo")
        self.act_redo.setShortcut(QKeySequence(sk.Redo))
        self.act_custom = self._action("Add &custom part...", self.add_custom_part, "Ctrl+Shift+N")
        self.act_rename = self._action("&Rename build...", self.rename_build, "F2")
        self.act_find = self._action("&Find part", self._focus_search, sk.Find)
        self.act_parts = self._action("&Parts", lambda: self.tabs.setCurrentIndex(0), "Ctrl+1")
        self.act_costs = self._action("&Costs", lambda: self.tabs.setCurrentIndex(1), "Ctrl+2")
        self.act_docs = self._action("RigPlan &documentation", self.open_docs, sk.HelpContents)
        self.act_about = self._action("&About RigPlan", self.about)
        bar = self.menuBar()
        m = bar.addMenu("&File")
        for a in (self.act_new, self.act_suggest, self.act_open):
            m.addAction(a)
        self.recent_menu = m.addMenu("Open &Recent")
        m.addSeparator()
        for a in (self.act_save, self.act_save_as):
            m.addAction(a)
        m.addSeparator()
        m.addAction(self.act_quit)
        e = bar.addMenu("&Edit")
        for a in (self.act_undo, self.act_redo, self.act_custom, self.act_rename, self.act_find):
            e.addAction(a)
        v = bar.addMenu("&View")
        v.addAction(self.act_parts)
        v.addAction(self.act_costs)
        v.addAction(self.findings_dock.toggleViewAction())
        h = bar.addMenu("&Help")
        h.addAction(self.act_docs)
        h.addAction(self.act_about)
        self._fill_recent()
        # Enabled by finish(), a moment after the first paint: they need the build document.
        self._doc_actions = (self.act_new, self.act_save, self.act_save_as, self.act_custom, self.act_rename)
        for a in self._doc_actions:
            a.setEnabled(False)

    # --- refresh: the one place the view follows the build ---------------------------------------------------------

    def _saved_currency(self) -> str:
        """The currency of the last assumptions, read without pydantic (before finish())."""
        raw = self.settings.value("costs/assumptions")
        try:
            code = json.loads(raw).get("currency") if isinstance(raw, str) else None
        except (ValueError, AttributeError):
            code = None
        return code if isinstance(code, str) else "USD"

    def refresh(self, build: Build) -> None:
        from rigplan.rules import Severity, check

        self.report: Report = check(build)
        self.build_panel.show_build(build, self.report)
        self.findings.show_report(self.report)
        self.picker.set_build(build)
        self.costs.set_build(build)
        c = self.report.counts()
        self._status(
            f"{c[Severity.ERROR]} error{'s' if c[Severity.ERROR] != 1 else ''}, {c[Severity.WARNING]} warning"
            f"{'s' if c[Severity.WARNING] != 1 else ''}, {c[Severity.NOTE]} note{'s' if c[Severity.NOTE] != 1 else ''}"
            f"; {len(self.report.not_checked)} not checked  ·  {len(self.catalog):,} parts in the catalog"
        )

    def _status(self, text: str) -> None:
        if self.statusBar().currentMessage() != text:
            self.statusBar().showMessage(text)

    def _update_title(self) -> None:
        name = self.doc.build.name
        where = f" ({self.doc.path.name})" if self.doc.path else ""
        self.setWindowTitle(f"{name}{where}[*] - RigPlan")
        self.setWindowModified(self.doc.is_modified())

    def _slot_selected(self, kind: Kind) -> None:
        self.picker.set_kind(kind)

    def select_slot(self, kind: Kind) -> None:
        self.build_panel.select_kind(kind)
        self.picker.set_kind(kind)
        self.tabs.setCurrentIndex(0)

    def _focus_search(self) -> None:
        self.tabs.setCurrentIndex(0)
        self.picker.search.setFocus()
        self.picker.search.selectAll()

    def _price_edited(self, index: int, value: float | None) -> None:
        if value is None:
            self.doc.set_price(index, None)
        elif not math.isfinite(value) or value < 0:
            QMessageBox.warning(self, "Price", "A price must be a number of 0 or more.")
            self.refresh(self.doc.build)
        else:
            from rigplan.model import Price

            a = self.doc.build.assumptions
            self.doc.set_price(
                index, Price(amount=value, currency=a.currency, date=dt.date.today(), source="your price")
            )

    # --- files -------------------------------------------------------------------------------------------------------

    def maybe_save(self) -> bool:
        """True when it is fine to drop the current build (saved, discarded, or nothing to save)."""
        if not self.ready or not self.doc.is_modified():
            return True
        answer = QMessageBox.question(
            self,
            "Save changes?",
            f"“{self.doc.build.name}” has unsaved changes. Save them?",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Save,
        )
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    def new_build(self) -> None:
        from rigplan.model import Build

        if self.maybe_save():
            self.doc.reset(Build(assumptions=self._last_assumptions()), None)

    def suggest_build(self) -> None:
        """Issue 16: the best build for a budget opens as a new, unsaved build; Undo goes back to an empty one."""
        from rigplan.gui.suggest_dialog import SuggestDialog
        from rigplan.model import Build

        dlg = SuggestDialog(self.catalog, self.doc.build.assumptions, self)
        build = dlg.suggested_build() if dlg.exec() else None
        if build is not None and self.maybe_save():
            self.doc.reset(Build(assumptions=build.assumptions), None)
            self.doc.edit(build, "Suggest a build")

    def open_dialog(self) -> None:
        if not self.maybe_save():
            return
        path, _ = QFileDialog.getOpenFileName(self, "Open build", self._last_dir(), FILE_FILTER)
        if path:
            self.open_path(Path(path), ask=False)

    def open_path(self, path: Path, ask: bool = True) -> bool:
        path = Path(path).absolute()  # recent files must work from any folder
        self.finish()
        if ask and not self.maybe_save():
            return False
        from rigplan.files import BuildFileError, load, missing_from_catalog

        try:
            build = load(path)
        except BuildFileError as exc:
            QMessageBox.warning(self, "Cannot open build", exc.message + f"\n\n{path}")
            return False
        self.doc.reset(build, path)
        self._add_recent(path)
        gone = missing_from_catalog(build, self.catalog)
        if gone:
            QMessageBox.information(self, "Parts no longer in the catalog", "\n".join(gone))
        return True

    def save(self) -> bool:
        if self.doc.path is None:
            return self.save_as()
        return self._write(self.doc.path)

    def save_as(self) -> bool:
        suggested = str(Path(self._last_dir()) / (self.doc.build.name.replace("/", "-") + SUFFIX))
        path, _ = QFileDialog.getSaveFileName(self, "Save build", suggested, FILE_FILTER)
        if not path:
            return False
        p = Path(path)
        if not p.name.endswith((".yaml", ".yml")):
            p = p.with_name(p.name + SUFFIX)
        return self._write(p)

    def _write(self, path: Path) -> bool:
        from rigplan.files import BuildFileError, save

        try:
            save(self.doc.build, path)
        except BuildFileError as exc:
            QMessageBox.warning(self, "Cannot save", exc.message)
            return False
        self.doc.mark_saved(path)
        self._add_recent(path)
        self.statusBar().showMessage(f"Saved {path}", 4000)
        return True

    def _recent(self) -> list[str]:
        v = self.settings.value("files/recent")
        return [str(x) for x in v] if isinstance(v, list) else ([str(v)] if v else [])

    def _add_recent(self, path: Path) -> None:
        recent = [str(path)] + [r for r in self._recent() if r != str(path)]
        self.settings.setValue("files/recent", recent[:MAX_RECENT])
        self.settings.setValue("files/last_dir", str(path.parent))
        self._fill_recent()

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        for r in self._recent():
            self.recent_menu.addAction(r, lambda r=r: self.open_path(Path(r)))
        self.recent_menu.setEnabled(bool(self._recent()))

    def _last_dir(self) -> str:
        return str(self.settings.value("files/last_dir") or Path.home())

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802
        for url in event.mimeData().urls():
            if url.isLocalFile():
                self.open_path(Path(url.toLocalFile()))
                break

    # --- other commands --------------------------------------------------------------------------------------------

    def add_custom_part(self) -> None:
        from rigplan.gui.dialogs import CustomPartDialog

        dlg = CustomPartDialog(self, self.doc.build.assumptions.currency)
        if dlg.exec() and dlg.part is not None:
            self.doc.add_part(dlg.part)

    def rename_build(self) -> None:
        name, ok = QInputDialog.getText(self, "Rename build", "Name:", text=self.doc.build.name)
        if ok and name.strip():
            self.doc.rename(name.strip()[:200])

    def open_docs(self) -> None:
        local = self.docs_dir / "checks.md" if self.docs_dir else None
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(local.parent)) if local and local.exists() else QUrl(DOCS_URL))

    def about(self) -> None:
        from rigplan.gui.dialogs import ABOUT

        QMessageBox.about(self, f"About RigPlan {__version__}", ABOUT)

    # --- settings ----------------------------------------------------------------------------------------------------

    def _last_assumptions(self) -> Assumptions:
        from rigplan.model import Assumptions

        raw = self.settings.value("costs/assumptions")
        if isinstance(raw, str):
            try:
                return Assumptions.model_validate_json(raw)
            except ValueError:
                pass
        return Assumptions()

    def _restore_geometry(self) -> None:
        geo = self.settings.value("window/geometry")
        if geo is not None:
            self.restoreGeometry(geo)
        else:
            self.resize(1400, 880)
        state = self.settings.value("window/state")
        if state is not None:
            self.restoreState(state)
        sizes = self.settings.value("window/splitter")
        if sizes is not None:
            self.splitter.restoreState(sizes)

    def save_settings(self) -> None:
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState())
        self.settings.setValue("window/splitter", self.splitter.saveState())
        if self.ready:
            self.settings.setValue("window/costs_splitter", self.costs.splitter.saveState())
            self.settings.setValue("costs/assumptions", self.doc.build.assumptions.model_dump_json())
        self.settings.sync()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802
        if self.maybe_save():
            self.save_settings()
            if self.autosave:
                self.autosave.remove()  # a normal close leaves nothing to recover
            event.accept()
        else:
            event.ignore()


def warm_up(window: MainWindow) -> QTimer:
    """After the first paint: build the charts and the compatible-filter columns, so the first use is quick."""
    from rigplan.rules import compatible

    window.finish()
    steps = [lambda: window.costs.ensure_charts()] + [
        (lambda k=k: compatible(window.doc.build, k, window.catalog)) for k in Kind
    ]
    timer = QTimer(window)
    timer.setInterval(0)

    def step() -> None:
        if steps:
            steps.pop(0)()
        else:
            timer.stop()

    timer.timeout.connect(step)
    timer.start()
    return timer


__all__ = ["MainWindow", "warm_up"]
