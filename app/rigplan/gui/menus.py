"""The window's actions and menu bar (File, Edit, View, Help)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtGui import QAction, QKeySequence

if TYPE_CHECKING:
    from rigplan.gui.mainwindow import MainWindow


def _action(
    w: MainWindow, text: str, slot: Callable[[], object], shortcut: QKeySequence.StandardKey | str | None = None
) -> QAction:
    a = QAction(text, w)
    if shortcut is not None:
        a.setShortcut(QKeySequence(shortcut))
    a.triggered.connect(lambda _=False: slot())
    return a


def make_actions(w: MainWindow) -> None:
    """Create the actions as attributes of the window (act_*) and fill the menu bar."""
    sk = QKeySequence.StandardKey
    w.act_new = _action(w, "&New", w.new_build, sk.New)
    w.act_open = _action(w, "&Open...", w.open_dialog, sk.Open)
    w.act_suggest = _action(w, "Suggest a &build...", w.suggest_build)  # issue 16
    from rigplan.gui.imports import import_actions  # issue 19: File > Import

    w.act_import_pcpp = _action(w, "&PCPartPicker list...", lambda: import_actions.import_pcpartpicker(w))
    w.act_import_prices = _action(w, "P&rice file...", lambda: import_actions.import_price_file(w))
    w.act_remove_prices = _action(w, "Remove &your prices...", lambda: import_actions.remove_your_prices(w))
    w.act_save = _action(w, "&Save", w.save, sk.Save)
    w.act_save_as = _action(w, "Save &As...", w.save_as, sk.SaveAs)
    w.act_quit = _action(w, "&Quit", w.close, sk.Quit)
    w.act_undo = w.undo_stack.createUndoAction(w, "&Undo")
    w.act_undo.setShortcut(QKeySequence(sk.Undo))
    w.act_redo = w.undo_stack.createRedoAction(w, "&Redo")
    w.act_redo.setShortcut(QKeySequence(sk.Redo))
    w.act_custom = _action(w, "Add &custom part...", w.add_custom_part, "Ctrl+Shift+N")
    w.act_rename = _action(w, "&Rename build...", w.rename_build, "F2")
    w.act_find = _action(w, "&Find part", w.focus_search, sk.Find)
    w.act_parts = _action(w, "&Parts", lambda: w.tabs.setCurrentIndex(0), "Ctrl+1")
    w.act_costs = _action(w, "&Costs", lambda: w.tabs.setCurrentIndex(1), "Ctrl+2")
    w.act_docs = _action(w, "RigPlan &documentation", w.open_docs, sk.HelpContents)
    w.act_about = _action(w, "&About RigPlan", w.about)
    bar = w.menuBar()
    m = bar.addMenu("&File")
    for a in (w.act_new, w.act_suggest, w.act_open):
        m.addAction(a)
    w.recent_menu = m.addMenu("Open &Recent")
    w.examples_menu = m.addMenu("Open E&xample")
    w.fill_examples(w.examples_menu)
    w.import_menu = m.addMenu("&Import")
    w.import_menu.addAction(w.act_import_pcpp)
    w.import_menu.addAction(w.act_import_prices)
    w.import_menu.addSeparator()
    w.import_menu.addAction(w.act_remove_prices)
    m.addSeparator()
    for a in (w.act_save, w.act_save_as):
        m.addAction(a)
    m.addSeparator()
    m.addAction(w.act_quit)
    e = bar.addMenu("&Edit")
    for a in (w.act_undo, w.act_redo, w.act_custom, w.act_rename, w.act_find):
        e.addAction(a)
    v = bar.addMenu("&View")
    v.addAction(w.act_parts)
    v.addAction(w.act_costs)
    # Our own action, not the dock's toggleViewAction: the Costs tab hides the dock, which must not count as the
    # user's choice.
    w.act_findings = QAction("&Findings", w, checkable=True, checked=True)
    w.act_findings.setShortcut(QKeySequence("Ctrl+3"))
    w.act_findings.toggled.connect(w.set_findings_wanted)
    v.addAction(w.act_findings)
    h = bar.addMenu("&Help")
    h.addAction(w.act_docs)
    h.addAction(w.act_about)
    w.file_menu, w.view_menu = m, v
    # Enabled by finish(), a moment after the first paint: they need the build document.
    w.doc_actions = (w.act_new, w.act_suggest, w.act_save, w.act_save_as, w.act_custom, w.act_rename)
    w.doc_actions += (w.act_import_pcpp, w.act_import_prices, w.act_remove_prices)
    for a in w.doc_actions:
        a.setEnabled(False)
    from rigplan.gui.exports.export_actions import install_in_window  # imports no numpy/pydantic until an export runs

    install_in_window(w)
    from rigplan.gui.prices.prices_update import install_prices_menu  # issue 17; the core loads only when a job runs

    install_prices_menu(w)
