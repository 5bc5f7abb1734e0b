"""Never a raw traceback: unexpected exceptions and Qt warnings go to the log, the user gets a short dialog."""

from __future__ import annotations

import logging
import sys
import threading
import traceback
from collections.abc import Callable
from pathlib import Path
from types import TracebackType

from PySide6.QtCore import QtMsgType, qInstallMessageHandler
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from rigplan.gui.widgets.plain import tip
from rigplan.logs import setup_logging

log = logging.getLogger("rigplan.crash")


def install_exception_hook(log_dir: Path, parent: Callable[[], QWidget | None] = lambda: None) -> Path:
    """Route uncaught exceptions (main and other threads) and Qt messages to the log; show a short dialog for
    exceptions. The app keeps running: Qt slots return and the event loop goes on. Returns the log path."""
    path = setup_logging(log_dir)
    showing = [False]

    def hook(kind: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
        if issubclass(kind, KeyboardInterrupt):
            sys.__excepthook__(kind, value, tb)
            return
        log.error("Unexpected error:\n%s", "".join(traceback.format_exception(kind, value, tb)))
        if showing[0]:
            return
        if QApplication.instance() is None:  # before the window exists: one line, never a raw traceback
            print(f"rigplan: {kind.__name__}: {' '.join(str(value).split())} (details in {path})", file=sys.stderr)
            return
        showing[0] = True
        try:
            QMessageBox.critical(
                parent(),
                "RigPlan hit a problem",
                tip(
                    f"Something went wrong: {kind.__name__}: {value}\n\nThe details are in the log:\n{path}\n\n"
                    "Your unsaved edits are autosaved while autosave runs (the status bar says when it cannot); "
                    "you can keep working, and save your build under a new name to be safe."
                ),
            )
        finally:
            showing[0] = False

    def thread_hook(args: threading.ExceptHookArgs) -> None:
        log.error(
            "Unexpected error in thread %s:\n%s",
            args.thread.name if args.thread else "?",
            "".join(traceback.format_exception(args.exc_type, args.exc_value, args.exc_traceback)),
        )

    def qt_messages(mode: QtMsgType, context: object, message: str) -> None:
        level = {
            QtMsgType.QtDebugMsg: logging.DEBUG,
            QtMsgType.QtInfoMsg: logging.INFO,
            QtMsgType.QtWarningMsg: logging.WARNING,
        }.get(mode, logging.ERROR)
        logging.getLogger("rigplan.qt").log(level, "%s", message)

    sys.excepthook = hook
    threading.excepthook = thread_hook
    qInstallMessageHandler(qt_messages)
    return path
