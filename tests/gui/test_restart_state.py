"""Issue 29, Major 2: what the window shows after a restart. The Findings dock is shown whenever View > Findings is
ticked (also after quitting on the Costs tab), File > Open Recent is filled at start, and a size kept from another
screen is fitted to this one (never larger than it, never squeezed), with the dock the menu says is shown."""

from __future__ import annotations

from pathlib import Path

from gui_helpers import choose, press, show_tab
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from rigplan.gui.mainwindow import MainWindow
from rigplan.gui.settings import WINDOW_SIZE, Settings

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "2x-rtx-4090.rigplan"


def _restart(qtbot, window: MainWindow) -> MainWindow:  # noqa: ANN001
    """Quit as the user does (settings saved on close) and start a new window on the same settings file."""
    window.doc.undo_stack.setClean()
    window.save_settings()
    settings = QSettings(window.settings.store.fileName(), QSettings.Format.IniFormat)
    w = MainWindow(window.catalog, window.costs.offers, window.costs.perf, settings)
    qtbot.addWidget(w, before_close_func=lambda w: w.doc.undo_stack.setClean())
    w.show()
    qtbot.waitExposed(w)
    return w


def test_findings_shown_after_quitting_on_the_costs_tab(qtbot, window: MainWindow) -> None:  # noqa: ANN001
    show_tab(qtbot, window.tabs, "Costs")
    assert not window.findings_dock.isVisible() and window.menus.findings.isChecked()
    again = _restart(qtbot, window)
    assert again.tabs.currentIndex() == 0
    assert again.menus.findings.isChecked() and again.findings_dock.isVisible()


def test_unticked_findings_stay_hidden_after_a_restart(qtbot, window: MainWindow) -> None:  # noqa: ANN001
    choose(qtbot, window, window.menus.findings)  # View > Findings, ticked: untick it
    assert not window.findings_dock.isVisible()
    again = _restart(qtbot, window)
    assert not again.menus.findings.isChecked() and not again.findings_dock.isVisible()
    press(qtbot, again.picker.search, "Ctrl+3")  # one press of Ctrl+3 brings it back
    assert again.findings_dock.isVisible()


def test_open_recent_is_filled_at_start(qtbot, window: MainWindow) -> None:  # noqa: ANN001
    assert window.files.open_path(EXAMPLE, ask=False)
    again = _restart(qtbot, window)
    assert [a.text() for a in again.menus.recent_menu.actions()] == [str(EXAMPLE.absolute())]
    assert again.menus.recent_menu.isEnabled()


def test_a_size_from_another_screen_fits_this_one(qtbot, window: MainWindow) -> None:  # noqa: ANN001
    avail = QApplication.primaryScreen().availableGeometry()
    for kept in ("9000x7000", "300x200"):  # a big monitor's size; a size squeezed on another screen
        Settings(window.settings.store).set(WINDOW_SIZE, kept)
        window.settings.store.remove("window/geometry")  # as when Qt refuses another screen's geometry
        w = MainWindow(window.catalog, window.costs.offers, window.costs.perf, window.settings.store)
        qtbot.addWidget(w, before_close_func=lambda w: w.doc.undo_stack.setClean())
        assert w.width() <= avail.width() and w.height() <= avail.height()
        assert w.width() >= min(1400, int(avail.width() * 0.6)) and w.height() >= min(880, int(avail.height() * 0.6))
        w.show()
        qtbot.waitExposed(w)
        assert w.findings_dock.isVisible()
