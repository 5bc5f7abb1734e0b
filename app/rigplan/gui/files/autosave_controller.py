"""Autosave and crash recovery from the window: unsaved edits are written every N seconds to the data folder, and
at start the builds a crashed or killed RigPlan left unsaved are offered back."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QMainWindow, QMessageBox

if TYPE_CHECKING:
    from PySide6.QtCore import QSettings, QTimer

    from rigplan.files.autosave import AutosaveStore
    from rigplan.gui.files.document import BuildDocument
    from rigplan.gui.files.filewatch import FileGuard


# A mixin of MainWindow: the type checker sees a QMainWindow, Python a plain class (one Qt base only).
_Base = QMainWindow if TYPE_CHECKING else object


def usable_folder(folder: Path, report: Callable[[str], None]) -> Path:
    """`folder`, created if needed; when the data folder is a file, read-only or full, a private fallback in the
    temporary folder, said in one line: autosave happens whatever the data folder's state."""
    from rigplan.logs import fallback_folder

    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".probe-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
        return folder
    except OSError as exc:
        fallback = fallback_folder("autosave")
        fallback.mkdir(parents=True, exist_ok=True)
        report(f"cannot autosave in {folder} ({exc.strerror or exc}); autosaving in {fallback}")
        return fallback


class AutosaveMixin(_Base):
    if TYPE_CHECKING:
        doc: BuildDocument
        settings: QSettings
        autosave: AutosaveStore | None
        autosave_timer: QTimer
        _data_dir: Path | None

        def _update_title(self) -> None: ...

        def note_problem(self, line: str) -> None: ...

        def whole_setting(self, key: str, default: int, lo: int, hi: int) -> int: ...

        @property
        def file_guard(self) -> FileGuard: ...

    def start_autosave(self) -> None:
        from rigplan.files.autosave import AutosaveStore

        folder = usable_folder(self._data_dir / "autosave", self.note_problem) if self._data_dir else None
        self.autosave = AutosaveStore(folder) if folder else None
        self.autosave_timer.setInterval(self.whole_setting("autosave/seconds", 60, 5, 86_400) * 1000)
        self.autosave_timer.timeout.connect(self.autosave_now)
        if self.autosave:
            self.autosave_timer.start()
            self.doc.undo_stack.cleanChanged.connect(lambda clean: self.autosave.remove() if clean else None)

    def autosave_now(self) -> None:
        if self.autosave is None or not self.doc.is_modified():
            return
        from rigplan.files import BuildFileError

        try:
            fingerprint = self.file_guard.tracked.fingerprint if self.doc.path else None
            self.autosave.save(self.doc.build, self.doc.path, fingerprint)
        except (BuildFileError, OSError) as exc:
            self.statusBar().showMessage(f"Autosave failed: {exc}", 8000)

    def offer_recovery(self) -> bool:
        """At start: offer the builds that a crashed or killed RigPlan left unsaved. True if one was recovered."""
        if self.autosave is None:
            return False
        from rigplan.files.autosave import AutosaveStore
        from rigplan.gui.files.recovery import RecoveryDialog

        entries = self.autosave.orphans()
        if not entries:
            return False
        dlg = RecoveryDialog(entries, self)
        dlg.exec()
        for gone in dlg.discarded:
            AutosaveStore.discard(gone)
        if dlg.chosen is None:
            return False
        build = AutosaveStore.try_load(dlg.chosen)
        if isinstance(build, str):
            QMessageBox.warning(self, "Cannot recover", build)
            return False
        original = Path(dlg.chosen.original) if dlg.chosen.original else None
        self.doc.reset(build, original if original and original.exists() else None)
        if self.doc.path is not None:  # saving there asks first if the file changed since the autosave
            self.file_guard.forget(self.doc.path, dlg.chosen.original_fingerprint)
        self.doc.undo_stack.resetClean()  # recovered edits are unsaved until the user saves them
        self._update_title()
        AutosaveStore.discard(dlg.chosen)
        self.autosave_now()
        return True
