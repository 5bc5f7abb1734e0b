"""Fixtures of the GUI tests: the real cloud offers and speed table, and a real main window driven by qtbot."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox

from rigplan.catalog import Catalog
from rigplan.cloud.offers import OfferCatalog, load_offers
from rigplan.costs.perf import PerfTable, load_perf
from rigplan.gui.files import files_controller
from rigplan.gui.mainwindow import MainWindow


@pytest.fixture(scope="session")
def offers() -> OfferCatalog:
    return load_offers()


@pytest.fixture(scope="session")
def perf() -> PerfTable:
    return load_perf()


@pytest.fixture
def window(qtbot, catalog: Catalog, offers: OfferCatalog, perf: PerfTable, tmp_path: Path, monkeypatch) -> MainWindow:  # noqa: ANN001
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    # No modal dialog may block a test: unexpected ones fail loudly.
    for name in ("warning", "information", "critical", "question"):
        monkeypatch.setattr(QMessageBox, name, lambda *a, **k: pytest.fail(f"unexpected QMessageBox: {a[1:3]}"))
    monkeypatch.setattr(files_controller, "ask_save_changes", lambda *a: pytest.fail(f"unexpected save prompt: {a}"))
    w = MainWindow(catalog, offers, perf, settings)
    # Teardown closes the window: mark it saved first so no "save changes?" prompt can block.
    qtbot.addWidget(w, before_close_func=lambda w: w.doc.undo_stack.setClean())
    w.show()
    qtbot.waitExposed(w)
    return w
