"""The macOS way of opening a document: a QFileOpenEvent to the running application.

Finder sends one when a build is double-clicked, dropped on the Dock icon or opened with `open x.rigplan`, both at
launch (instead of a command-line argument) and while RigPlan runs (instead of a second process). Linux and Windows
start a new process with the file as its argument, which run_gui handles; Qt sends this event on macOS only.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QFileOpenEvent
from PySide6.QtWidgets import QApplication

if TYPE_CHECKING:
    from rigplan.gui.mainwindow import MainWindow


class FileOpenHandler(QObject):
    """Opens the file of each QFileOpenEvent in `window`, which comes to the front. The usual "save changes?"
    question comes first, and a file that cannot be read gets the usual one-line message (FilesController.open_path)."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        app = QApplication.instance()
        assert app is not None
        app.installEventFilter(self)

    def eventFilter(self, obj: QObject, ev: QEvent) -> bool:  # noqa: N802
        if ev.type() != QEvent.Type.FileOpen or obj is not QApplication.instance():
            return False
        assert isinstance(ev, QFileOpenEvent)
        name = ev.file() or ev.url().toLocalFile()
        if not name:
            return False
        w = self.window
        if w.isMinimized():
            w.showNormal()
        else:
            w.show()
        w.raise_()
        w.activateWindow()
        w.files.open_path(Path(name))
        return True
