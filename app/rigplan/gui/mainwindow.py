"""The main window: a Parts tab (build panel | part picker) and a Costs tab (the break-even workspace, full width),
the findings dock; the one place the view follows the build.

The window is composed of parts it owns and builds in its constructor, each given what it needs: the document
(`doc`, the build and its undo stack), the files controller (open, save, recent files, the changed-on-disk guard),
autosave and recovery, the menus and their actions, File > Export and the cloud-prices controller. No mixins, and
nothing sets attributes on the window from outside.

Early paint: with paint_early=True (run_gui) the constructor shows the window as soon as the parts that need only Qt
and the catalog's columns exist (build panel, the whole catalog in the picker, findings, menus), lets Qt paint it
with user input held back, and then builds the rest (pydantic models, checks, numpy, cloud offers, speed table, the
Costs tab) before it returns. The window is complete when the constructor returns, either way.
"""

from __future__ import annotations

import datetime as dt
import gc
import json
import logging
import math
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from PySide6.QtCore import QEventLoop, QSettings, Qt, QTimer
from PySide6.QtGui import QCloseEvent, QUndoStack
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QInputDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from rigplan import __version__
from rigplan.catalog import Catalog
from rigplan.cloud.cachepath import prices_home
from rigplan.gui import window_state
from rigplan.gui.exports.export_actions import install_export_menu, window_chart_offers
from rigplan.gui.menus import WindowMenus
from rigplan.gui.parts.build_header import BuildHeader
from rigplan.gui.parts.build_notes import BuildNotes
from rigplan.gui.parts.build_panel import BuildPanel
from rigplan.gui.parts.findings_panel import FindingsPanel
from rigplan.gui.parts.picker import PickerPanel
from rigplan.gui.prices.prices_update import PricesController
from rigplan.gui.settings import ASSUMPTIONS_SHOWN, FINDINGS_SHOWN, PICKER_SORT, Settings
from rigplan.gui.widgets.money import Money
from rigplan.gui.widgets.plain import plain_label
from rigplan.gui.widgets.when_shown import WhenShown
from rigplan.kinds import Kind

T = TypeVar("T")
if TYPE_CHECKING:
    from rigplan.cloud.offers import OfferCatalog
    from rigplan.costs.perf import PerfTable
    from rigplan.model import Build

COSTS_TAB = 1


def paint_now(window: QWidget) -> None:
    """Show `window` and let Qt paint it now, holding back user input (nothing can be clicked before it is built)."""
    window.show()
    app = QApplication.instance()
    if app is not None:
        app.processEvents(QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents)


class MainWindow(QMainWindow):
    def __init__(
        self,
        catalog: Catalog,
        offers: OfferCatalog | None,
        perf: PerfTable | None,
        settings: Settings | QSettings,
        docs_dir: Path | None = None,
        data_dir: Path | None = None,
        *,
        paint_early: bool = False,
    ) -> None:
        """offers and perf may be None: they are loaded here (the updated cloud prices, or the bundled ones)."""
        super().__init__()
        self.catalog, self.settings, self.docs_dir, self.data_dir = catalog, Settings.of(settings), docs_dir, data_dir
        self.startup_problems: list[str] = []  # one line each, shown in the status bar (see note_problem)
        self.problem_label: QLabel | None = None
        self.settings.on_problem = self.note_problem  # a bad stored setting: its default, and one line
        if (why := self.settings.unusable()) is not None:
            self.note_problem(why)
        # Issue 29: the one money formatter: every amount on screen is converted and labelled by it, in the build's
        # currency (kept in step by refresh()); the panels and charts below are given it.
        self.money = Money(window_state.saved_currency(self.settings))
        self.money_short = self.money.short
        self.undo_stack = QUndoStack(self)
        self.picker = PickerPanel(catalog, perf, self.money)
        self.build_panel = BuildPanel(self.money)
        self.findings = FindingsPanel()
        self.build_header = BuildHeader()
        self.notes = BuildNotes()  # the build file's notes:, an undoable edit
        self.splitter = QSplitter(Qt.Orientation.Horizontal)  # the build panel shares the Parts tab with the picker
        self.tabs = QTabWidget()
        self.findings_dock = QDockWidget("Findings", self)
        self.findings_wanted = True  # the View menu's choice; the Costs tab hides the dock while it is shown
        self._lay_out()
        self.menus = WindowMenus(self)
        # File > Export and Cloud prices: Qt only until they run; their callbacks read the document when they do.
        self.exporter = install_export_menu(
            self,
            self.menus.file_menu,
            self.menus.quit,
            lambda: self.doc.build,
            lambda: self.costs_follow.read(lambda: window_chart_offers(self.costs)),  # the offers for this build
            self.settings,
        )
        self.prices = PricesController(self, prices_home(), lambda new: self.costs.set_offers(new))
        self.menus.add_prices_menu(self.prices)
        self.prices.done.connect(lambda text: self.statusBar().showMessage(text, 15000))
        window_state.restore(self, self.splitter, self.settings)
        # Issue 29: the View menu's choice is what is kept, not the dock as last seen (the Costs tab hides it), so
        # quitting on the Costs tab never loses the findings.
        self.menus.findings.setChecked(self.settings.get(FINDINGS_SHOWN))
        self.set_findings_wanted(self.menus.findings.isChecked())
        self.picker.restore_sorts(window_state.saved_sorts(self.settings))
        self.build_panel.show_build(None, None)
        self.build_header.show_build(None)
        self.setWindowTitle("RigPlan")
        self._status(f"Checking...  ·  {len(self.catalog):,} parts in the catalog")
        if paint_early:
            paint_now(self)
        self._build_core(offers, perf)

    def _lay_out(self) -> None:
        left = QWidget()
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        ll.addWidget(self.build_header)
        ll.addWidget(self.build_panel, 1)
        ll.addWidget(self.notes)
        self.splitter.addWidget(left)
        self.splitter.addWidget(self.picker)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([470, 930])
        placeholder = QLabel("Loading the cost model...")
        placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.tabs.addTab(self.splitter, "Parts")
        self.tabs.addTab(placeholder, "Costs")
        self.tabs.setAccessibleName("Parts and costs")
        self.setCentralWidget(self.tabs)
        dock = self.findings_dock
        dock.setObjectName("findings")
        dock.setWidget(self.findings)
        dock.setFeatures(
            QDockWidget.DockWidgetFeature.DockWidgetMovable | QDockWidget.DockWidgetFeature.DockWidgetFloatable
        )
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, dock)
        self.tabs.currentChanged.connect(lambda _: self._place_findings())
        self.build_header.rename_requested.connect(self.rename_build)

    def _build_core(self, offers: OfferCatalog | None, perf: PerfTable | None) -> None:
        """The parts that need pydantic, the checks, numpy and the cost model (see the module's note)."""
        from rigplan.cloud.store import load_prices
        from rigplan.costs.perf import load_perf
        from rigplan.gui.costs.costs_view import CostsView
        from rigplan.gui.files.autosave_controller import AutosaveController
        from rigplan.gui.files.document import BuildDocument
        from rigplan.gui.files.files_controller import FilesController
        from rigplan.gui.imports.import_actions import apply_saved_prices
        from rigplan.model import Build
        from rigplan.rules import check

        if offers is None:  # bundled or updated; a cache that cannot be read is moved aside, the bundled ones used
            offers = self.degrade("cloud prices", lambda: load_prices(prices_home(), move_bad=True))
            offers = offers or load_prices(None)
            if offers.problem:
                self.note_problem(f"cloud prices: {offers.problem}")
        if perf is None:
            perf = load_perf()
            self.picker.set_perf(perf)
        self.doc = BuildDocument(self, self.undo_stack)
        self.report = check(self.doc.build)
        self.costs = CostsView(offers, perf, self.money)
        self.costs_follow = WhenShown(self.tabs, COSTS_TAB, self.costs.set_build)  # computed when on screen
        current = self.tabs.currentIndex()
        placeholder = self.tabs.widget(COSTS_TAB)
        self.tabs.removeTab(COSTS_TAB)
        self.tabs.insertTab(COSTS_TAB, self.costs, "Costs")
        self.tabs.setCurrentIndex(current)
        if placeholder is not None:
            placeholder.deleteLater()
        menus = (self.menus.recent_menu, self.menus.examples_menu)
        self.files = FilesController(self, self.doc, self.settings, self.catalog, self._status_for, *menus)
        self.autosave = AutosaveController(self, self.doc, self.files.guard, self.settings, self.data_dir)
        # wiring: user actions -> document edits -> one refresh
        self.picker.part_chosen.connect(lambda part: self.doc.add_part(part, self.picker.target.replacing()))
        self.build_panel.remove_requested.connect(self.doc.remove_item)
        self.build_panel.quantity_changed.connect(self.doc.set_quantity)
        self.build_panel.price_edited.connect(self._price_edited)
        self.build_panel.slot_selected.connect(self.picker.set_kind)
        from rigplan.gui.parts.other_items import OtherItemsController  # with the model, after the first paint

        self.other_items = OtherItemsController(self, self.doc, self.build_panel)  # issue 29: fans, OS, cables...
        self.build_panel.remove_requested.connect(self._said_removed)  # after the edits, so the stack names them
        self.build_panel.other_remove_requested.connect(self._said_removed)
        self.findings.slot_selected.connect(self.select_slot)
        self.build_header.example_requested.connect(self.files.open_example)
        self.notes.edited.connect(lambda t: self.doc.edit(self.doc.build.model_copy(update={"notes": t}), "Edit notes"))
        self.notes.refused.connect(self.statusBar().showMessage)
        self.costs.assumptions_changed.connect(lambda a: self.doc.set_assumptions(a))
        self.costs.comparison_changed.connect(self.doc.set_comparison)
        self.costs.workload_changed.connect(self.doc.set_workload)
        self.doc.changed.connect(self.refresh)
        self.undo_stack.cleanChanged.connect(lambda _: self._update_title())
        self.doc.path_changed.connect(lambda _: self._update_title())
        self.tabs.currentChanged.connect(lambda i: self.costs.ensure_charts() if i == COSTS_TAB else None)
        self.costs.assumptions_wanted = self.settings.get(ASSUMPTIONS_SHOWN)  # None: the tab decides by its width
        gc.freeze()  # the modules and data just loaded live as long as the app (see create_window)
        self.doc.reset(Build(assumptions=window_state.last_assumptions(self.settings)), None)
        if current == COSTS_TAB:
            self.costs.ensure_charts()
        self.exporter.source = lambda: self.doc.path  # File > Export never writes over the open build
        # Autosave first: whatever fails below (a bad data file), unsaved edits are written every N seconds.
        self.degrade("autosave", self.autosave.start)
        self.degrade("your prices", lambda: apply_saved_prices(self))  # issue 19: your prices over the catalog's

    def degrade(self, what: str, step: Callable[[], T]) -> T | None:
        """Run one start-up step that may fail on a bad data file or setting: on failure, one line in the status
        bar and the log, and the app carries on without it (start-up degrades, never dies)."""
        try:
            return step()
        except Exception as exc:  # noqa: BLE001 - any failure here must leave a working window
            logging.getLogger("rigplan.startup").exception("%s failed at start-up", what)
            self.note_problem(f"{what}: {' '.join(str(exc).split()) or type(exc).__name__}")
            return None

    def note_problem(self, line: str) -> None:
        """A start-up problem (a bad data file or setting and what was done about it): one line, kept in the status
        bar (a permanent label, so the next status message does not hide it) and in the log."""
        logging.getLogger("rigplan.startup").warning("%s", line)
        self.startup_problems.append(line)
        if self.problem_label is None:
            self.problem_label = plain_label(QLabel())
            self.statusBar().addPermanentWidget(self.problem_label)
        self.problem_label.setText("; ".join(self.startup_problems))

    # --- formatting ------------------------------------------------------------------------------------------------

    @property
    def currency(self) -> str:
        return self.money.currency

    # --- refresh: the one place the view follows the build ---------------------------------------------------------

    def refresh(self, build: Build) -> None:
        from rigplan.rules import check
        from rigplan.rules.passed import passed

        self.money.set_assumptions(build.assumptions)  # first: everything below formats with it
        self.report = self.menus.catalog_updates.annotate(check(build), build, self.catalog)  # your corrections
        self.build_panel.show_build(build, self.report)
        self.findings.show_report(self.report, passed(build, self.report))
        self.picker.set_build(build)
        self.costs_follow(build, len(self.report.errors()))  # now if the Costs tab is shown, else when it is
        self.build_header.show_build(build)
        self.notes.follow(build)
        self._update_title()  # a rename shows at once
        self._status(f"{self.report.summary()}  ·  {len(self.catalog):,} parts in the catalog")

    def _status(self, text: str) -> None:
        if self.statusBar().currentMessage() != text:
            self.statusBar().showMessage(text)

    def _status_for(self, text: str, ms: int) -> None:
        self.statusBar().showMessage(text, ms)

    def set_findings_wanted(self, on: bool) -> None:
        """View > Findings: shown on the Parts tab or not at all."""
        self.findings_wanted = on
        self._place_findings()

    def _place_findings(self) -> None:
        """The Costs tab has the window's full height for its chart; the findings come back on the Parts tab."""
        on_costs = self.tabs.currentIndex() == COSTS_TAB
        self.findings_dock.setVisible(self.findings_wanted and not on_costs)

    def _update_title(self) -> None:
        name = self.doc.build.name
        where = f" ({self.doc.path.name})" if self.doc.path else ""
        self.setWindowTitle(f"{name}{where}[*] - RigPlan")
        self.setWindowModified(self.doc.is_modified())

    def _said_removed(self, _index: int) -> None:  # what went and how to bring it back (issue 40: GPUs went unsaid)
        self._status_for(f"{self.undo_stack.undoText()}. Edit > Undo (Ctrl+Z) brings it back.", 15000)

    def select_slot(self, kind: Kind) -> None:
        self.build_panel.select_kind(kind)
        self.picker.set_kind(kind)
        self.tabs.setCurrentIndex(0)

    def focus_search(self) -> None:
        self.tabs.setCurrentIndex(0)
        self.picker.search.setFocus()
        self.picker.search.selectAll()

    def _price_edited(self, index: int, value: float | None) -> None:
        from rigplan.model import Price
        from rigplan.model.common import MAX_AMOUNT

        if value is None:
            self.doc.set_price(index, None)
        elif not math.isfinite(value) or not 0 <= value <= MAX_AMOUNT:  # bounded: totals never reach inf
            QMessageBox.warning(self, "Price", f"A price must be a number from 0 to {MAX_AMOUNT:,.0f}.")
            self.refresh(self.doc.build)
        else:
            a = self.doc.build.assumptions
            self.doc.set_price(
                index, Price(amount=value, currency=a.currency, date=dt.date.today(), source="your price")
            )

    # --- other commands --------------------------------------------------------------------------------------------

    def add_custom_part(self) -> None:
        from rigplan.gui.parts.custom_part import CustomPartDialog

        dlg = CustomPartDialog(self, self.doc.build.assumptions.currency)
        if dlg.exec() and dlg.part is not None:
            self.doc.add_part(dlg.part)

    def rename_build(self) -> None:
        name, ok = QInputDialog.getText(self, "Rename build", "Name:", text=self.doc.build.name)
        if ok and name.strip():
            self.doc.rename(name.strip()[:200])

    def suggest_build(self) -> None:
        """Issue 16: the best build for a budget opens as a new, unsaved build; Undo goes back to an empty one."""
        from rigplan.gui.suggest.menu_action import run_suggest

        run_suggest(
            self, self.doc, self.catalog, self.costs.offers, self.data_dir, self.files.maybe_save, self.settings
        )

    def open_docs(self) -> None:
        """F1: the bundled docs in a window of their own (issue 29): no browser or network needed."""
        from rigplan.gui.help_docs import DocsDialog

        self.docs_dialog = DocsDialog(self, self.docs_dir)
        self.docs_dialog.show()

    def about(self) -> None:
        from rigplan.gui.about import ABOUT, data_in_use

        QMessageBox.about(self, f"About RigPlan {__version__}", ABOUT + data_in_use(self.catalog, self.costs.offers))

    def save_settings(self) -> None:
        self.settings.set(FINDINGS_SHOWN, self.findings_wanted)
        self.settings.set(PICKER_SORT, json.dumps(self.picker.sorts()))
        window_state.save(
            self, self.splitter, self.settings, self.doc.build.assumptions, not self.costs.side.isHidden()
        )

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802
        if self.files.maybe_save():
            self.save_settings()
            self.autosave.close()  # a normal close leaves nothing to recover (and frees the lock)
            event.accept()
        else:
            event.ignore()


def warm_up(window: MainWindow) -> QTimer:
    """After the first paint: build the charts and the compatible-filter columns, so the first use is quick."""
    from rigplan.rules import compatible

    steps = [window.costs.ensure_charts] + [(lambda k=k: compatible(window.doc.build, k, window.catalog)) for k in Kind]
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


__all__ = ["MainWindow", "paint_now", "warm_up"]
