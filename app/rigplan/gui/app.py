"""GUI entry point.

Smoke-test contract (packaging/smoke_test.py relies on it): with RIGPLAN_SMOKE_TEST=1, open the build given on the
command line, print `RIGPLAN READY parts=<n> build=<name or ->` after the first paint, and exit 0 (non-zero with a
one-line message if the build could not be opened).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path


def data_dir() -> Path:
    from PySide6.QtCore import QStandardPaths

    return Path(QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation))


def create_window(settings: object | None = None, data: Path | None = None):  # noqa: ANN201 - MainWindow, lazy
    """Load the data and make the main window (shared by run_gui, tests and benchmarks)."""
    from PySide6.QtCore import QSettings

    from rigplan.catalog import load_catalog
    from rigplan.costs.offers import load_offers
    from rigplan.costs.perf import load_perf
    from rigplan.gui.mainwindow import MainWindow
    from rigplan.paths import parts_dir

    catalog = load_catalog()
    offers = load_offers()
    perf = load_perf()
    docs = parts_dir().parent / "docs"
    return MainWindow(
        catalog, offers, perf, settings or QSettings("RigPlan", "RigPlan"), docs if docs.is_dir() else None, data
    )


def run_gui(args: Sequence[str]) -> int:
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from rigplan import APP_ID
    from rigplan.files import BuildFileError, load

    smoke = os.environ.get("RIGPLAN_SMOKE_TEST") == "1"
    app = QApplication.instance() or QApplication([sys.argv[0], *args])
    app.setApplicationName("RigPlan")
    app.setOrganizationName("RigPlan")
    app.setDesktopFileName(APP_ID)
    if smoke and args:
        try:
            load(args[0])
        except BuildFileError as exc:
            print(f"RIGPLAN ERROR {exc}", flush=True)
            return 2
    from rigplan.gui.crash import install_exception_hook

    data = data_dir()
    holder: list[object] = []
    install_exception_hook(data / "logs", lambda: holder[0] if holder else None)  # type: ignore[return-value]
    window = create_window(data=None if smoke else data)
    holder.append(window)
    if args:
        window.open_path(Path(args[0]), ask=False)
    window.show()
    from rigplan.gui.mainwindow import warm_up

    if smoke:

        def ready() -> None:
            print(f"RIGPLAN READY parts={len(window.catalog)} build={window.doc.build.name}", flush=True)
            window.doc.undo_stack.setClean()
            window.close()
            app.quit()

        QTimer.singleShot(0, ready)
    else:
        window._warm = warm_up(window)  # type: ignore[attr-defined]
        QTimer.singleShot(0, window.offer_recovery)
    return app.exec()
