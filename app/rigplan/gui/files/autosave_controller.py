"""Autosave and crash recovery: unsaved edits are written every N seconds to the data folder (one file per running
window, see rigplan.files.autosave), and at start the builds a crashed or killed RigPlan left unsaved are offered
back. Without a data folder (tests, smoke runs) nothing is written."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QMainWindow, QMessageBox

from rigplan.gui.settings import AUTOSAVE_SECONDS, Settings

if TYPE_CHECKING:
    from rigplan.files.autosave import AutosaveStore
    from rigplan.gui.files.document import BuildDocument
    from rigplan.gui.files.filewatch import FileGuard


def usable_folder(folder: Path, report: Callable[[str], None]) -> Path:
    """`folder`, created if needed; when the data folder is a file, read-only or full, a private fallback in the
    temporary folder, said in one line: autosave happens whatever the data folder's state."""
    from rigplan.logs import fallback_folder
    from rigplan.paths import own_folder

    try:
        own_folder(folder)  # refused when another user owns it or may write in it (issue 35)
        probe = folder / f".probe-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
        return folder
    except OSError as exc:
        fallback = fallback_folder("autosave")  # private, made by mkdtemp
        report(f"cannot autosave in {folder} ({exc.strerror or exc}); autosaving in {fallback}")
        return fallback


class AutosaveController(QObject):
    def __init__(
        self, window: QMainWindow, doc: BuildDocument, guard: FileGuard, settings: Settings, data_dir: Path | None
    ) -> None:
        super().__init__(window)
        from rigplan.files.autosave import AutosaveStore

        self.window, self.doc, self.guard = window, doc, guard
        report = getattr(window, "note_problem", lambda line: None)
        folder = usable_folder(data_dir / "autosave", report) if data_dir else None
        self.store: AutosaveStore | None = AutosaveStore(folder) if folder else None
        self.timer = QTimer(self)
        self.timer.setInterval(settings.get(AUTOSAVE_SECONDS) * 1000)
        self.timer.timeout.connect(self.save_now)

    def start(self) -> None:
        if self.store is not None:
            store = self.store
            self.timer.start()
            self.doc.undo_stack.cleanChanged.connect(lambda clean: store.remove() if clean else None)

    def save_now(self) -> None:
        if self.store is None or not self.doc.is_modified():
            return
        from rigplan.files import BuildFileError

        try:
            fingerprint = self.guard.tracked.fingerprint if self.doc.path else None
            self.store.save(self.doc.build, self.doc.path, fingerprint)
        except (BuildFileError, OSError) as exc:
            self.window.statusBar().showMessage(f"Autosave failed: {exc}", 8000)

    def close(self) -> None:
        """A normal close leaves nothing to recover (and frees the lock)."""
        self.timer.stop()
        if self.store is not None:
            self.store.close()

    def offer_recovery(self) -> bool:
        """At start: offer the builds that a crashed or killed RigPlan left unsaved. True if one was recovered."""
        if self.store is None:
            return False
        from rigplan.files.autosave import AutosaveStore
        from rigplan.gui.files.recovery import RecoveryDialog
        from rigplan.paths import earlier_private_folders

        # and those a crashed RigPlan left in its private fallback folder (when the data folder could not be used)
        entries = self.store.orphans() + [
            e for f in earlier_private_folders("autosave") for e in AutosaveStore(f).orphans()
        ]
        if not entries:
            return False
        dlg = RecoveryDialog(entries, self.window)
        dlg.exec()
        for gone in dlg.discarded:
            AutosaveStore.discard(gone)
        if dlg.chosen is None:
            return False
        build = AutosaveStore.try_load(dlg.chosen)
        if isinstance(build, str):
            QMessageBox.warning(self.window, "Cannot recover", build)
            return False
        original = Path(dlg.chosen.original) if dlg.chosen.original else None
        self.doc.reset(build, original if original and original.exists() else None)
        if self.doc.path is not None:  # saving there asks first if the file changed since the autosave
            self.guard.forget(self.doc.path, dlg.chosen.original_fingerprint)
        self.doc.undo_stack.resetClean()  # recovered edits are unsaved until the user saves them
        AutosaveStore.discard(dlg.chosen)
        self.save_now()
        return True
