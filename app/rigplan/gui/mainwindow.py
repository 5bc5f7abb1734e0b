"""The main window: a Parts tab (build panel | part picker) and a Costs tab (the break-even workspace, full width),
the findings dock; the one place the view follows the build.

Files (files_controller), autosave and recovery (autosave_controller), remembered settings (window_settings) and
the menus (menus) live in their own modules.

Start-up is staged so that the window paints early. The constructor builds the shell (build panel, the whole catalog
in the part picker, findings, menus), which needs Qt and the catalog's columns only. `finish()` then brings in the
rest (pydantic models, checks, numpy, cloud offers, speed table, costs view) and shows the build; `run_gui` calls it
right after the first paint, everything else (tests, tools) at construction. That is why most imports from
pydantic-backed modules sit inside the methods that use them.
"""

from __future__ import annotations

import datetime as dt
import gc
import math
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QLocale, QSettings, Qt, QTimer, QUrl
from PySide6.QtGui import (
    QCloseEvent,
    QDesktopServices,
    QUndoStack,
)
from PySide6.QtWidgets import (
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
from rigplan.gui.files.autosave_controller import AutosaveMixin
from rigplan.gui.files.files_controller import FilesMixin
from rigplan.gui.menus import make_actions
from rigplan.gui.parts.build_header import BuildHeader
from rigplan.gui.parts.build_panel import BuildPanel
from rigplan.gui.parts.findings_panel import FindingsPanel
from rigplan.gui.parts.picker import PickerPanel
from rigplan.gui.window_settings import SettingsMixin
from rigplan.kinds import Kind

if TYPE_CHECKING:
    from rigplan.cloud.offers import OfferCatalog
    from rigplan.costs.perf import PerfTable
    from rigplan.files.autosave import AutosaveStore
    from rigplan.gui.costs.costs_view import CostsView
    from rigplan.gui.files.document import BuildDocument
    from rigplan.model import Build
    from rigplan.rules import Report

DOCS_URL = "https://github.com/rigplan/rigplan/tree/main/docs"


class MainWindow(FilesMixin, AutosaveMixin, SettingsMixin, QMainWindow):
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
        self.build_header = BuildHeader()
        self.build_header.rename_requested.connect(lambda: self.rename_build())
        self.build_header.example_requested.connect(lambda p: self.open_example(p))
        left = QWidget()
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        ll.addWidget(self.build_header)
        ll.addWidget(self.build_panel, 1)
        # The build panel shares the Parts tab with the picker; the Costs tab has the whole width for its chart.
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(left)
        self.splitter.addWidget(self.picker)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([470, 930])
        self.tabs = QTabWidget()
        self.tabs.addTab(self.splitter, "Parts")
        self.tabs.addTab(self.costs_placeholder, "Costs")
        self.tabs.setAccessibleName("Parts and costs")
        self.setCentralWidget(self.tabs)
        dock = QDockWidget("Findings", self)
        dock.setObjectName("findings")
        dock.setWidget(self.findings)
        dock.setFeatures(
            QDockWidget.DockWidgetFeature.DockWidgetMovable | QDockWidget.DockWidgetFeature.DockWidgetFloatable
        )
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, dock)
        self.findings_dock = dock
        self.findings_wanted = True  # the View menu's choice; the Costs tab hides the dock while it is shown
        self.tabs.currentChanged.connect(lambda _: self._place_findings())
        self.setAcceptDrops(True)
        make_actions(self)
        self.build_panel.slot_selected.connect(self._slot_selected)
        self.findings.slot_selected.connect(self.select_slot)
        self._restore_geometry()
        self.build_panel.show_build(None, None)
        self.build_header.show_build(None)
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
        from rigplan.cloud.cachepath import prices_home
        from rigplan.cloud.store import load_prices
        from rigplan.costs.perf import load_perf
        from rigplan.gui.costs.costs_view import CostsView
        from rigplan.gui.files.document import BuildDocument
        from rigplan.model import Build

        offers = self._offers if self._offers is not None else load_prices(prices_home())  # bundled or updated
        if self._perf is None:
            self._perf = load_perf()
            self.picker.set_perf(self._perf)
        self.doc: BuildDocument = BuildDocument(self, self.undo_stack)
        self.costs: CostsView = CostsView(offers, self._perf, self.money, self.money_short)
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
        self.costs.comparison_changed.connect(self.doc.set_comparison)
        self.doc.changed.connect(self.refresh)
        self.undo_stack.cleanChanged.connect(lambda _: self._update_title())
        self.doc.path_changed.connect(lambda _: self._update_title())
        self.tabs.currentChanged.connect(lambda i: self.costs.ensure_charts() if i == 1 else None)
        shown = self.settings.value("costs/assumptions_shown")
        if shown is not None:  # the user's last choice, else the Costs tab decides by the window's width
            self.costs.assumptions_wanted = str(shown).lower() in ("true", "1")
        gc.freeze()  # the modules and data just loaded live as long as the app (see create_window)
        self.ready = True
        self.doc.reset(Build(assumptions=self._last_assumptions()), None)
        if current == 1:
            self.costs.ensure_charts()
        for a in self.doc_actions:
            a.setEnabled(True)
        self._update_title()
        from rigplan.gui.imports.import_actions import apply_saved_prices

        apply_saved_prices(self)  # issue 19: your own prices over the catalog's
        # Autosave: unsaved edits are written every N seconds to the data folder, one file per instance.
        self.start_autosave()

    # --- formatting ------------------------------------------------------------------------------------------------

    def money(self, amount: float, currency: str | None = None) -> str:
        """An amount in the build's currency, or in `currency` when it is another (a catalog price in USD)."""
        return self.locale.toCurrencyString(float(amount), self._currency_symbol(currency))

    def money_short(self, amount: float) -> str:
        """Whole units with the locale's thousands separators, for chart axes and the read-out."""
        text = self.locale.toCurrencyString(abs(float(amount)), self._currency_symbol(), 0)
        return "-" + text if amount < 0 else text  # "-$5,000", not the accounting style "($5,000)"

    def _currency_symbol(self, currency: str | None = None) -> str:
        code = currency or (self.doc.build.assumptions.currency if self.ready else self._saved_currency())
        return {"USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥"}.get(code, code + " ")

    # --- actions and menus -----------------------------------------------------------------------------------------

    # --- refresh: the one place the view follows the build ---------------------------------------------------------

    def refresh(self, build: Build) -> None:
        from rigplan.rules import Severity, check

        self.report: Report = check(build)
        self.build_panel.show_build(build, self.report)
        self.findings.show_report(self.report)
        self.picker.set_build(build)
        self.costs.set_build(build)
        self.build_header.show_build(build)
        self._update_title()  # a rename shows at once
        c = self.report.counts()
        self._status(
            f"{c[Severity.ERROR]} error{'s' if c[Severity.ERROR] != 1 else ''}, {c[Severity.WARNING]} warning"
            f"{'s' if c[Severity.WARNING] != 1 else ''}, {c[Severity.NOTE]} note{'s' if c[Severity.NOTE] != 1 else ''}"
            f"; {len(self.report.not_checked)} not checked  ·  {len(self.catalog):,} parts in the catalog"
        )

    def _status(self, text: str) -> None:
        if self.statusBar().currentMessage() != text:
            self.statusBar().showMessage(text)

    def set_findings_wanted(self, on: bool) -> None:
        """View > Findings: shown on the Parts tab or not at all."""
        self.findings_wanted = on
        self._place_findings()

    def _place_findings(self) -> None:
        """The Costs tab has the window's full height for its chart; the findings come back on the Parts tab."""
        on_costs = self.tabs.currentIndex() == 1
        self.findings_dock.setVisible(self.findings_wanted and not on_costs)

    def _update_title(self) -> None:
        if not self.ready:
            return
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

    def focus_search(self) -> None:
        self.tabs.setCurrentIndex(0)
        self.picker.search.setFocus()
        self.picker.search.selectAll()

    def _price_edited(self, index: int, value: float | None) -> None:
        from rigplan.model.common import MAX_AMOUNT

        if value is None:
            self.doc.set_price(index, None)
        elif not math.isfinite(value) or not 0 <= value <= MAX_AMOUNT:  # bounded: totals never reach inf
            QMessageBox.warning(self, "Price", f"A price must be a number from 0 to {MAX_AMOUNT:,.0f}.")
            self.refresh(self.doc.build)
        else:
            from rigplan.model import Price

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

    def open_docs(self) -> None:
        local = self.docs_dir / "checks.md" if self.docs_dir else None
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(local.parent)) if local and local.exists() else QUrl(DOCS_URL))

    def about(self) -> None:
        from rigplan.gui.about import ABOUT

        QMessageBox.about(self, f"About RigPlan {__version__}", ABOUT)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802
        if self.maybe_save():
            self.save_settings()
            if self.autosave:
                self.autosave.close()  # a normal close leaves nothing to recover (and frees the lock)
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
