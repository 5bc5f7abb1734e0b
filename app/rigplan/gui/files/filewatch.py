"""The window's guard on its build file: nothing another window or program wrote is overwritten without asking,
and nothing on disk changes behind the user's back without an offer to reload.

- Save: the core (files.tracked) refuses when the file changed on disk since this window opened or saved it; the
  user picks Overwrite, Save As or Reload. A write-protected file is replaced only after asking. A backup that
  could not be written is reported ("saved, but..."), never hidden behind "Saved".
- Watch: a QFileSystemWatcher on the open file. When it fires and the content really differs (a touch or this
  window's own save does not count), the user is offered to reload; with unsaved edits, keeping them is the default.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QFileSystemWatcher, QObject
from PySide6.QtWidgets import QMessageBox, QWidget

from rigplan.files import BuildFileError, FileChangedError, Fingerprint, ReadOnlyFileError, SaveResult
from rigplan.files.tracked import TrackedFile
from rigplan.gui.widgets.plain import tip as plain
from rigplan.model import Build

if TYPE_CHECKING:
    from rigplan.gui.files.document import BuildDocument

Button = QMessageBox.StandardButton


class FileGuard(QObject):
    """The guard of `doc`'s file. `window` parents its questions; `save_as` is the window's Save As (offered when the
    file changed on disk), `saved` is told each path written, `status` shows a line for some milliseconds."""

    def __init__(
        self,
        window: QWidget,
        doc: BuildDocument,
        *,
        save_as: Callable[[], bool],
        saved: Callable[[Path], None],
        status: Callable[[str, int], None],
    ) -> None:
        super().__init__(window)
        self.window, self.doc = window, doc
        self._save_as, self._saved_to, self._status = save_as, saved, status
        self.tracked = TrackedFile(doc.path)
        self.watcher = QFileSystemWatcher(self)
        self.watcher.fileChanged.connect(self._on_file_changed)
        self.watcher.directoryChanged.connect(self._on_folder_changed)
        self._asking = False
        self._declined: Fingerprint | None = None  # the outside version the user chose not to reload
        doc.path_changed.connect(self._follow)
        self._watch(doc.path)

    # --- which file -----------------------------------------------------------------------------------------------

    def _watch(self, path: Path | None) -> None:
        old = self.watcher.files() + self.watcher.directories()
        if old:
            self.watcher.removePaths(old)
        if path is not None and path.parent.is_dir():
            # The folder too: a file deleted (or replaced by a save through rename) drops its own watch, and the
            # folder's change says when it is back.
            self.watcher.addPath(str(path.parent))
        if path is not None and path.exists():
            self.watcher.addPath(str(path))

    def _follow(self, path: Path | None) -> None:
        """The document got another file (New, an example, a recovered build): forget the old fingerprint."""
        if path != self.tracked.path:
            self.tracked.forget(path)
        self._declined = None
        self._watch(path)

    def forget(self, path: Path | None, fingerprint: Fingerprint | None) -> None:
        """A recovered build: its file held `fingerprint` when it was autosaved."""
        self.tracked.forget(path, fingerprint)
        self._watch(path)

    def open(self, path: Path) -> Build:
        """Read a build and remember its fingerprint. Raises BuildFileError (special files refused without
        blocking, every problem in one line)."""
        build = self.tracked.open(path)
        self._declined = None
        self._watch(path)
        return build

    # --- saving -----------------------------------------------------------------------------------------------------

    def write(self, path: Path, *, as_new: bool = False) -> bool:
        """Save the document to `path` (as_new: Save As, the file dialog has asked about replacing). True when
        saved; every refusal or problem has been shown to the user."""
        w = self.window
        overwrite = replace_read_only = False
        while True:
            try:
                if as_new or path != self.tracked.path:
                    result = self.tracked.save_as(self.doc.build, path, replace_read_only=replace_read_only)
                else:
                    result = self.tracked.save(self.doc.build, overwrite=overwrite, replace_read_only=replace_read_only)
            except FileChangedError:
                choice = self._ask_changed(path)
                if choice == "overwrite":
                    overwrite = True
                    continue
                if choice == "save-as":
                    return self._save_as()
                if choice == "reload":
                    self.reload()
                return False
            except ReadOnlyFileError:
                if self._ask_read_only(path):
                    replace_read_only = True
                    continue
                return False
            except BuildFileError as exc:
                QMessageBox.warning(w, "Cannot save", plain(exc.message + f"\n\n{path}"))
                return False
            break
        self._saved(path, result)
        return True

    def _saved(self, path: Path, result: SaveResult) -> None:
        w = self.window
        self.doc.mark_saved(path)
        self._saved_to(path)
        self._declined = None
        self._watch(path)
        if result.backup_error:
            self._status(f"Saved {path}, but without a backup", 8000)
            QMessageBox.warning(
                w,
                "Saved without a backup",
                f"The build was saved, but {result.backup_error}.\n\n{path}",
            )
        else:
            self._status(f"Saved {path}", 4000)

    def _ask_changed(self, path: Path) -> str:
        box = QMessageBox(self.window)
        box.setIcon(QMessageBox.Icon.Warning)
        box.setWindowTitle("File changed on disk")
        box.setText(f"“{path.name}” was changed by another window or program since you opened or saved it.")
        box.setInformativeText("Overwrite it with this build, save this build under another name, or reload it?")
        buttons = {
            "overwrite": box.addButton("Overwrite", QMessageBox.ButtonRole.DestructiveRole),
            "save-as": box.addButton("Save As...", QMessageBox.ButtonRole.AcceptRole),
            "reload": box.addButton("Reload", QMessageBox.ButtonRole.ResetRole),
        }
        box.addButton(Button.Cancel)
        box.setDefaultButton(buttons["save-as"])
        box.exec()
        clicked = box.clickedButton()
        return next((name for name, b in buttons.items() if b is clicked), "cancel")

    def _ask_read_only(self, path: Path) -> bool:
        answer = QMessageBox.question(
            self.window,
            "Write-protected file",
            f"“{path.name}” is write-protected. Replace it anyway? It stays write-protected.",
            Button.Yes | Button.No,
            Button.No,
        )
        return answer == Button.Yes

    # --- outside changes --------------------------------------------------------------------------------------------

    def reload(self) -> bool:
        w = self.window
        try:
            build = self.tracked.reload()
        except (BuildFileError, ValueError) as exc:
            QMessageBox.warning(w, "Cannot reload", plain(getattr(exc, "message", str(exc))))
            return False
        self.doc.reset(build, self.tracked.path)
        self._declined = None
        return True

    def _on_file_changed(self, name: str) -> None:
        path = self.tracked.path
        if path is None or Path(name) != path:
            return
        if not path.exists():  # deleted or moved: nothing to reload; the folder's watch says when it is back
            self._status(f"{path.name} was deleted or moved; Save writes it again", 8000)
            return
        if name not in self.watcher.files():
            self.watcher.addPath(name)  # editors that save by rename drop the watch
        if self._asking or not self.tracked.changed_on_disk():
            return  # this window's own save, a touch, or a question already on screen
        try:
            now = self.tracked.disk_fingerprint()
        except BuildFileError:
            now = None  # no longer a regular file: offering to reload will say why it cannot
        if now is not None and now.same_content(self._declined):
            return
        self._asking = True
        try:
            if self._offer_reload(path):
                self.reload()
            else:
                self._declined = now
        finally:
            self._asking = False

    def _on_folder_changed(self, _folder: str) -> None:
        path = self.tracked.path
        if path is not None and path.exists() and str(path) not in self.watcher.files():
            self.watcher.addPath(str(path))  # the file is back
            self._on_file_changed(str(path))

    def _offer_reload(self, path: Path) -> bool:
        modified = self.doc.is_modified()
        box = QMessageBox(self.window)
        box.setIcon(QMessageBox.Icon.Question)
        box.setWindowTitle("File changed on disk")
        box.setText(f"“{path.name}” was changed by another program.")
        if modified:
            box.setInformativeText(
                "Reload it and lose your unsaved changes, or keep your version? If you keep it, saving will ask "
                "before overwriting the other version."
            )
        else:
            box.setInformativeText("Reload it to see the new version?")
        reload = box.addButton("Reload", QMessageBox.ButtonRole.AcceptRole)
        keep = box.addButton("Keep my version" if modified else "Not now", QMessageBox.ButtonRole.RejectRole)
        box.setDefaultButton(keep if modified else reload)
        box.exec()
        return box.clickedButton() is reload
