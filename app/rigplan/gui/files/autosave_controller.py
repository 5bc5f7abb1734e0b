"""Autosave and crash recovery from the window: unsaved edits are written every N seconds to the data folder, and
at start the builds a crashed or killed RigPlan left unsaved are offered back."""

from __future__ import annotations

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


class AutosaveMixin(_Base):
    if TYPE_CHECKING:
        doc: BuildDocument
        settings: QSettings
        autosave: AutosaveStore | None
        autosave_timer: QTimer
        _data_dir: Path | None

        def _update_title(self) -> None: ...

        @property
        def file_guard(self) -> FileGuard: ...

    def start_autosave(self) -> None:
        from rigplan.files.autosave import AutosaveStore

        self.autosave = AutosaveStore(self._data_dir / "autosave") if self._data_dir else None
        self.autosave_timer.setInterval(max(5, int(self.settings.value("autosave/seconds", 60))) * 1000)
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
