"""The window's actions and menu bar (File, Edit, View, Cloud prices, Help), owned by the window as `menus`.

The actions call the window's parts through small lambdas, so they may be made before the parts that need the cost
model exist (the window paints its menus first; user input waits until the window is complete)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu

OTHER_KEY = "Ctrl+Shift+O"  # Edit > Add other item...; the build panel's button names it in its tooltip

if TYPE_CHECKING:
    from rigplan.gui.catalog.update_dialog import CatalogController
    from rigplan.gui.mainwindow import MainWindow
    from rigplan.gui.prices.prices_update import PricesController


def _action(
    w: MainWindow, text: str, slot: Callable[[], object], shortcut: QKeySequence.StandardKey | str | None = None
) -> QAction:
    a = QAction(text, w)
    if shortcut is not None:
        a.setShortcut(QKeySequence(shortcut))
    a.triggered.connect(lambda _=False: slot())
    return a


class WindowMenus:
    """Every action of the menu bar, by name, and the menus the other parts add to (File, Open Recent, ...)."""

    def __init__(self, w: MainWindow) -> None:
        from rigplan.gui.catalog.correct_dialog import correct_value
        from rigplan.gui.catalog.update_dialog import install_catalog_menu
        from rigplan.gui.imports import import_actions  # issue 19: File > Import

        sk = QKeySequence.StandardKey
        self.new = _action(w, "&New", lambda: w.files.new_build(), sk.New)
        self.open = _action(w, "&Open...", lambda: w.files.open_dialog(), sk.Open)
        self.suggest = _action(w, "Suggest a &build...", w.suggest_build)  # issue 16
        self.import_pcpp = _action(w, "&PCPartPicker list...", lambda: import_actions.import_pcpartpicker(w))
        self.import_prices = _action(w, "P&rice file...", lambda: import_actions.import_price_file(w))
        self.remove_prices = _action(w, "Remove &your prices...", lambda: import_actions.remove_your_prices(w))
        self.save = _action(w, "&Save", lambda: w.files.save(), sk.Save)
        self.save_as = _action(w, "Save &As...", lambda: w.files.save_as(), sk.SaveAs)
        self.quit = _action(w, "&Quit", w.close, sk.Quit)
        self.undo = w.undo_stack.createUndoAction(w, "&Undo")
        self.undo.setShortcut(QKeySequence(sk.Undo))
        self.redo = w.undo_stack.createRedoAction(w, "&Redo")
        self.redo.setShortcut(QKeySequence(sk.Redo))
        self.custom = _action(w, "Add &custom part...", w.add_custom_part, "Ctrl+Shift+N")
        # The build panel's "Add other item..." button, in the menu with its shortcut (issue 29): fans, OS, cables.
        self.add_other = _action(w, "Add &other item...", lambda: w.build_panel.other_add_requested.emit(), OTHER_KEY)
        self.rename = _action(w, "&Rename build...", w.rename_build, "F2")
        self.find = _action(w, "&Find part", w.focus_search, sk.Find)
        self.correct = _action(w, "Correct a &value...", lambda: correct_value(w))  # issue 38: the picker's part
        self.parts = _action(w, "&Parts", lambda: w.tabs.setCurrentIndex(0), "Ctrl+1")
        self.costs = _action(w, "&Costs", lambda: w.tabs.setCurrentIndex(1), "Ctrl+2")
        self.docs = _action(w, "RigPlan &user guide", w.open_docs, sk.HelpContents)
        self.about = _action(w, "&About RigPlan", w.about)
        # Our own action, not the dock's toggleViewAction: the Costs tab hides the dock, which must not count as the
        # user's choice.
        self.findings = QAction("&Findings", w, checkable=True, checked=True)
        self.findings.setShortcut(QKeySequence("Ctrl+3"))
        self.findings.toggled.connect(w.set_findings_wanted)

        self.bar = bar = w.menuBar()
        self.file_menu = m = bar.addMenu("&File")
        for a in (self.new, self.suggest, self.open):
            m.addAction(a)
        self.recent_menu: QMenu = m.addMenu("Open &Recent")
        self.examples_menu: QMenu = m.addMenu("Open E&xample")
        self.import_menu: QMenu = m.addMenu("&Import")
        self.import_menu.addAction(self.import_pcpp)
        self.import_menu.addAction(self.import_prices)
        self.import_menu.addSeparator()
        self.import_menu.addAction(self.remove_prices)
        m.addSeparator()
        for a in (self.save, self.save_as):
            m.addAction(a)
        m.addSeparator()
        m.addAction(self.quit)  # File > Export and its neighbours go above it (install_export_menu)
        e = bar.addMenu("&Edit")
        for a in (self.undo, self.redo, self.custom, self.add_other, self.rename, self.find, self.correct):
            e.addAction(a)
        self.view_menu = v = bar.addMenu("&View")
        for a in (self.parts, self.costs, self.findings):
            v.addAction(a)
        self.help_menu = h = bar.addMenu("&Help")
        h.addAction(self.docs)
        h.addAction(self.about)
        self.catalog_updates = install_catalog_menu(w, self)  # issue 38: Parts catalog, before Help

    def add_catalog_menu(self, ctl: CatalogController) -> QMenu:
        """A "Parts catalog" menu before Help (issue 38): the update from OpenDB and the reverts."""
        menu = QMenu("Parts c&atalog", self.bar)
        for a in ctl.actions():
            if a is None:
                menu.addSeparator()
            else:
                menu.addAction(a)
        self.bar.insertMenu(self.help_menu.menuAction(), menu)
        return menu

    def add_prices_menu(self, prices: PricesController) -> QMenu:
        """A "Cloud prices" menu before Help (issue 17)."""
        menu = QMenu("Cloud &prices", self.bar)
        for a in (prices.act_update, prices.act_import):
            menu.addAction(a)
        menu.addSeparator()
        menu.addAction(prices.act_revert)
        self.bar.insertMenu(self.help_menu.menuAction(), menu)
        return menu
