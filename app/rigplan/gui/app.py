"""GUI entry point.

Smoke-test contract (packaging/smoke_test.py relies on it): with RIGPLAN_SMOKE_TEST=1, open the build given on the
command line, print `RIGPLAN READY parts=<n> build=<name or ->` after the first paint, and exit 0 (non-zero with a
one-line message if the build could not be opened).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence


def run_gui(args: Sequence[str]) -> int:
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QLabel, QMainWindow

    from rigplan import __version__
    from rigplan.catalog import load_catalog
    from rigplan.files import BuildFileError, load

    smoke = os.environ.get("RIGPLAN_SMOKE_TEST") == "1"
    app = QApplication.instance() or QApplication([sys.argv[0], *args])
    app.setApplicationName("RigPlan")
    catalog = load_catalog()
    build = None
    if args:
        try:
            build = load(args[0])
        except BuildFileError as exc:
            if smoke:
                print(f"RIGPLAN ERROR {exc}", flush=True)
                return 2
            raise
    win = QMainWindow()
    win.setWindowTitle(f"{build.name if build else 'Untitled build'} - RigPlan {__version__}")
    win.setCentralWidget(QLabel(f"RigPlan: {len(catalog):,} parts loaded."))
    win.resize(900, 600)
    win.show()
    if smoke:
        def ready() -> None:
            print(f"RIGPLAN READY parts={len(catalog)} build={build.name if build else '-'}", flush=True)
            app.quit()

        QTimer.singleShot(0, ready)
    return app.exec()
