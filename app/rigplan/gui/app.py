"""GUI entry point (placeholder main window until the desktop-app issue lands)."""

from __future__ import annotations

import sys
from collections.abc import Sequence


def run_gui(args: Sequence[str]) -> int:
    from PySide6.QtWidgets import QApplication, QLabel, QMainWindow

    from rigplan import __version__
    from rigplan.catalog import load_catalog

    app = QApplication.instance() or QApplication([sys.argv[0], *args])
    app.setApplicationName("RigPlan")
    catalog = load_catalog()
    win = QMainWindow()
    win.setWindowTitle(f"RigPlan {__version__}")
    win.setCentralWidget(QLabel(f"RigPlan: {len(catalog):,} parts loaded."))
    win.resize(900, 600)
    win.show()
    return app.exec()
