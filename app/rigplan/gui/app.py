"""GUI entry point.

Smoke-test contract (packaging/smoke_test.py relies on it): with RIGPLAN_SMOKE_TEST=1, open the build given on the
command line, print `RIGPLAN READY parts=<n> build=<name or ->` after the first paint, and exit 0 (non-zero with a
one-line message if the build could not be opened). With RIGPLAN_SMOKE_TEST=charts, also build the Costs tab's
charts (pyqtgraph) first and end the line with ` curves=<n>`, the curves on the break-even chart. With
RIGPLAN_SMOKE_GUIDE=1 as well, press F1 (its action) and print a second line, `GUIDE OK pages=<n> first=<title>
file=<first page, relative to the bundle> chars=<rendered> images=<loaded>` or `GUIDE FAIL <why>`
(rigplan.gui.smoke_guide).
"""

from __future__ import annotations

import gc
import os
import sys
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QWidget

    from rigplan.gui.mainwindow import MainWindow


def data_dir() -> Path:
    """The user's data folder (autosaves, logs, their own part prices, updated cloud prices): the CLI's folder,
    rigplan.paths.default_data_dir(), so a price imported or updated with `rigplan` shows in the app and back.
    Qt's AppDataLocation would be a second folder (RigPlan/RigPlan on Linux, from the organisation and app names)."""
    from rigplan.paths import default_data_dir

    return default_data_dir()


def create_window(settings: QSettings | None = None, data: Path | None = None, paint_early: bool = False) -> MainWindow:
    """Load the catalog and make the main window (shared by run_gui, tests and benchmarks).

    paint_early=True shows the window and lets it paint as soon as the catalog is listed, before the cost model is
    loaded (run_gui does); the window is complete when this returns either way. See rigplan.gui.mainwindow.
    """
    from PySide6.QtCore import QSettings

    from rigplan.catalog import load_catalog
    from rigplan.gui.help_docs import guide_dir
    from rigplan.gui.mainwindow import MainWindow

    catalog = load_catalog()
    # The catalog is ~100,000 long-lived lists and dicts: keep them out of the cyclic GC's full collections,
    # which otherwise stall an edit now and then by ~50 ms to scan them all.
    gc.freeze()
    guide = guide_dir()  # F1: the user guide (resources/guide), shipped in the wheel and the bundle (issue 40)
    return MainWindow(
        catalog,
        None,
        None,
        settings or QSettings("RigPlan", "RigPlan"),
        guide if guide.is_dir() else None,
        data,
        paint_early=paint_early,
    )


def run_gui(args: Sequence[str]) -> int:
    from rigplan.render.syslibs import check_frozen_linux

    problem = check_frozen_linux()  # before Qt loads: the portable tarball on a system without libGL or libxcb
    if problem:
        print(problem, file=sys.stderr)
        return 2
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from rigplan import APP_ID

    smoke_mode = os.environ.get("RIGPLAN_SMOKE_TEST", "")
    smoke = smoke_mode in ("1", "charts")
    data = data_dir()
    holder: list[QWidget] = []
    if not smoke:  # before anything else can fail: the crash hook and its log (a fallback folder if need be)
        from rigplan.gui.crash import install_exception_hook

        install_exception_hook(data / "logs", lambda: holder[0] if holder else None)
    app = QApplication.instance() or QApplication([sys.argv[0], *args])
    app.setApplicationName("RigPlan")
    app.setOrganizationName("RigPlan")
    QApplication.setDesktopFileName(APP_ID)
    if smoke and args:
        from rigplan.files import BuildFileError, load

        try:
            load(args[0])
        except BuildFileError as exc:
            print(f"RIGPLAN ERROR {exc}", flush=True)
            return 2
    settings = None
    if smoke:
        import tempfile

        from PySide6.QtCore import QSettings

        # No dialog to wait on: print the traceback and fail at once.
        sys.excepthook = lambda kind, value, tb: (traceback.print_exception(kind, value, tb), os._exit(3))
        # Throwaway settings: a smoke run must not leave its window size or recent files in the user's.
        scratch = tempfile.TemporaryDirectory(prefix="rigplan-smoke-")  # removed when run_gui returns
        settings = QSettings(str(Path(scratch.name) / "settings.ini"), QSettings.Format.IniFormat)
    window = create_window(settings, data=None if smoke else data, paint_early=not smoke)
    holder.append(window)
    if smoke:
        if args:
            window.files.open_path(Path(args[0]), ask=False)
        window.show()

        def ready() -> None:
            line = f"RIGPLAN READY parts={len(window.catalog)} build={window.doc.build.name}"
            if smoke_mode == "charts":
                window.tabs.setCurrentIndex(1)
                window.costs.ensure_charts()
                line += f" curves={sum(1 for x, _ in window.costs.curve_data().values() if len(x))}"
            print(line, flush=True)
            if os.environ.get("RIGPLAN_SMOKE_GUIDE"):  # F1's user guide is in the bundle and opens (issue 40)
                from rigplan.gui.smoke_guide import guide_smoke_line

                print(guide_smoke_line(window), flush=True)
            window.doc.undo_stack.setClean()
            window.close()
            app.quit()

        QTimer.singleShot(0, ready)
        return app.exec()
    # macOS hands a double-clicked build to the running RigPlan as a file-open event, both at launch and later;
    # Linux and Windows start a new process with the file as its argument instead.
    from rigplan.gui.files.file_open import FileOpenHandler
    from rigplan.gui.mainwindow import warm_up

    kept: list[object] = [FileOpenHandler(window)]  # lives as long as run_gui's event loop
    if args:
        window.statusBar().showMessage(f"Opening {Path(args[0]).name}...")

    def after_paint() -> None:
        # Each step on its own: a bad data file or setting in one never stops the command-line file from opening,
        # autosave from running or recovery from being offered (window.degrade logs it and says it in one line).
        if args:
            window.degrade(f"opening {args[0]}", lambda: window.files.open_path(Path(args[0]), ask=False))
        kept.append(window.degrade("warm-up", lambda: warm_up(window)))
        window.degrade("recovery", window.autosave.offer_recovery)

    after_first_paint(window, after_paint)
    return app.exec()


def after_first_paint(window: QWidget, fn: Callable[[], None], fallback_ms: int = 1500) -> None:
    """Call fn once, on the event-loop turn after the window's first paint (or after fallback_ms if it is never
    painted, e.g. started minimised). A zero timer alone is not enough: on X11 the expose event may come later."""
    from PySide6.QtCore import QEvent, QObject, QTimer
    from PySide6.QtWidgets import QApplication, QWidget

    app = QApplication.instance()
    assert app is not None
    done = False

    def fire() -> None:
        nonlocal done
        if not done:
            done = True
            app.removeEventFilter(watcher)
            fn()

    class Watcher(QObject):
        def eventFilter(self, obj: QObject, ev: QEvent) -> bool:  # noqa: N802
            if ev.type() == QEvent.Type.Paint and isinstance(obj, QWidget) and obj.window() is window:
                QTimer.singleShot(0, fire)
            return False

    watcher = Watcher(window)
    app.installEventFilter(watcher)
    QTimer.singleShot(fallback_ms, fire)
