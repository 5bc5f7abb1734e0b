"""Issue 29: F1 shows the bundled documentation inside the app (no browser needed)."""

from __future__ import annotations

from pathlib import Path

from gui_helpers import press
from PySide6.QtCore import QSettings

from rigplan.gui.mainwindow import MainWindow

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_f1_shows_the_bundled_docs(qtbot, catalog, offers, perf, tmp_path: Path) -> None:  # noqa: ANN001
    w = MainWindow(catalog, offers, perf, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat), DOCS)
    qtbot.addWidget(w, before_close_func=lambda w: w.doc.undo_stack.setClean())
    w.show()
    qtbot.waitExposed(w)
    assert getattr(w, "docs_dialog", None) is None  # nothing opened it yet
    press(qtbot, w.picker.search, "F1")  # the real key, from wherever the focus is in the window
    dlg = w.docs_dialog
    assert dlg is not None
    assert dlg.isVisible() and dlg.pages.count() == len(list(DOCS.glob("*.md")))
    assert dlg.pages.item(0).text() == "Checks"
    assert "How a rule is added" in dlg.view.toPlainText()
    dlg.pages.setCurrentRow(1)
    assert "Work per money" in dlg.view.toPlainText() or "break-even" in dlg.view.toPlainText().lower()


def test_without_bundled_docs_it_says_where_they_are(window: MainWindow) -> None:
    window.open_docs()
    assert "github.com/rigplan/rigplan" in window.docs_dialog.view.toPlainText()
