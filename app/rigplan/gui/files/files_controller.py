"""Opening and saving build files from the window: New, Open, Open Recent, Open Example, Save, Save As, drag and
drop, and the "save changes?" prompt. The one place the window reads or writes a build file; the window owns one
FilesController and gives it the document, the settings, the catalog and the two menus it fills."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QFileDialog, QMenu, QMessageBox, QWidget

from rigplan import BUILD_SUFFIX as SUFFIX
from rigplan import OPEN_SUFFIXES
from rigplan.gui.files.filewatch import FileGuard
from rigplan.gui.settings import LAST_DIR, RECENT_FILES, Settings
from rigplan.gui.widgets.plain import tip as plain
from rigplan.gui.window_state import last_assumptions

if TYPE_CHECKING:
    from rigplan.catalog import Catalog
    from rigplan.gui.files.document import BuildDocument

# Open lists the new and the old names; Save offers NAME.rigplan first (the OS associations key on it).
OPEN_FILTER = f"RigPlan builds ({' '.join('*' + s for s in OPEN_SUFFIXES)});;All files (*)"
SAVE_FILTER = f"RigPlan build (*{SUFFIX});;YAML (*.yaml *.yml)"


# The prompt's buttons with mnemonics (issue 29): Alt+S saves, Alt+D discards ("Don't Save", the wording of the
# GNOME and macOS prompts), Alt+C or Esc cancels. Qt's standard texts have none on most platforms.
PROMPT_TEXTS = {
    QMessageBox.StandardButton.Save: "&Save",
    QMessageBox.StandardButton.Discard: "&Don't Save",
    QMessageBox.StandardButton.Cancel: "&Cancel",
}


def save_changes_prompt(parent: QWidget | None, name: str) -> QMessageBox:
    """The "save changes?" box, not yet shown (tests drive it with the keyboard)."""
    box = QMessageBox(
        QMessageBox.Icon.Question,
        "Save changes?",
        f"“{name}” has unsaved changes. Save them?",
        QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
        parent,
    )
    for button, text in PROMPT_TEXTS.items():
        box.button(button).setText(text)
    box.setDefaultButton(QMessageBox.StandardButton.Save)
    box.setEscapeButton(QMessageBox.StandardButton.Cancel)
    return box


def ask_save_changes(parent: QWidget | None, name: str) -> QMessageBox.StandardButton:
    """Show the prompt and wait: Save, Discard or Cancel (closing the box is Cancel)."""
    box = save_changes_prompt(parent, name)
    box.exec()
    clicked = box.clickedButton()
    return box.standardButton(clicked) if clicked is not None else QMessageBox.StandardButton.Cancel


class FilesController(QObject):
    """File commands of the main window (`window` is the parent of its dialogs and takes dropped files)."""

    def __init__(
        self,
        window: QWidget,
        doc: BuildDocument,
        settings: Settings,
        catalog: Catalog,
        status: Callable[[str, int], None],
        recent_menu: QMenu,
        examples_menu: QMenu,
    ) -> None:
        super().__init__(window)
        self.window, self.doc, self.settings, self.catalog = window, doc, settings, catalog
        self.recent_menu, self.examples_menu = recent_menu, examples_menu
        # Changed on disk, write-protected, special files, failed backups: the guard asks or tells the user.
        self.guard = FileGuard(window, doc, save_as=self.save_as, saved=self.add_recent, status=status)
        self._fill_examples()
        self._fill_recent()
        window.setAcceptDrops(True)
        window.installEventFilter(self)

    def maybe_save(self) -> bool:
        """True when it is fine to drop the current build (saved, discarded, or nothing to save)."""
        if not self.doc.is_modified():
            return True
        answer = ask_save_changes(self.window, self.doc.build.name)
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    def new_build(self) -> None:
        from rigplan.model import Build

        if self.maybe_save():
            self.doc.reset(Build(assumptions=last_assumptions(self.settings)), None)

    def open_dialog(self) -> None:
        if not self.maybe_save():
            return
        path, _ = QFileDialog.getOpenFileName(self.window, "Open build", self.last_dir(), OPEN_FILTER)
        if path:
            self.open_path(Path(path), ask=False)

    def open_path(self, path: Path, ask: bool = True) -> bool:
        path = Path(path).absolute()  # recent files must work from any folder
        if ask and not self.maybe_save():
            return False
        from rigplan.files import BuildFileError, missing_from_catalog

        try:
            build = self.guard.open(path)  # remembers what the file held (gui/files/filewatch.py)
        except BuildFileError as exc:
            QMessageBox.warning(self.window, "Cannot open build", plain(exc.message + f"\n\n{path}"))
            return False
        self.doc.reset(build, path)
        self.add_recent(path)
        gone = missing_from_catalog(build, self.catalog)
        if gone:
            QMessageBox.information(self.window, "Parts no longer in the catalog", plain("\n".join(gone)))
        return True

    def open_example(self, path: Path) -> bool:
        """Open a copy of an example build: it has no file yet, so saving it asks where (the example stays as it is)."""
        if not self.maybe_save():
            return False
        from rigplan.files import BuildFileError, load

        try:
            build = load(path)
        except BuildFileError as exc:
            QMessageBox.warning(self.window, "Cannot open the example", plain(exc.message))
            return False
        self.doc.reset(build, None)
        return True

    def _fill_examples(self) -> None:
        from rigplan.gui.parts.build_header import example_builds

        for name, path in example_builds():
            self.examples_menu.addAction(name, partial(self.open_example, path))
        self.examples_menu.setEnabled(not self.examples_menu.isEmpty())

    def save(self) -> bool:
        if self.doc.path is None:
            return self.save_as()
        return self.write(self.doc.path)

    def save_as(self) -> bool:
        from rigplan.files.names import file_stem  # a name Windows, macOS and Linux all accept (issue 40)

        suggested = str(Path(self.last_dir()) / (file_stem(self.doc.build.name) + SUFFIX))
        path, _ = QFileDialog.getSaveFileName(self.window, "Save build", suggested, SAVE_FILTER)
        if not path:
            return False
        from rigplan.files import with_build_suffix

        # "My build" becomes "My build.rigplan"; a name the user ended in .yaml or .rigplan.yaml stays as typed.
        return self.write(with_build_suffix(path), as_new=True)

    def write(self, path: Path, as_new: bool = False) -> bool:
        return self.guard.write(path, as_new=as_new)

    # --- recent files ------------------------------------------------------------------------------------------------

    def recent(self) -> list[str]:
        return self.settings.get(RECENT_FILES)

    def add_recent(self, path: Path) -> None:
        """Locked read-merge-write: another RigPlan window may have added a file since this one read the list."""
        from rigplan.files.oslock import locked
        from rigplan.paths import shared_lock_folder

        def merge() -> None:
            self.settings.sync()  # re-read what is on disk now
            self.settings.add_recent(str(path))
            self.settings.set(LAST_DIR, str(path.parent))
            self.settings.sync()

        # A lock per settings file, in the user's private temporary folder: not next to the settings (<file>.lock
        # is QSettings' own QLockFile, and a settings file may sit in any folder), shared by every RigPlan process.
        key = hashlib.sha256(self.settings.store.fileName().encode()).hexdigest()[:16]
        try:
            with locked(shared_lock_folder() / f"recent-{key}", seconds=5):
                merge()
        except OSError:  # no lock possible (a read-only temporary folder, a registry on Windows): merge without it
            merge()
        self._fill_recent()

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        for r in self.recent():
            self.recent_menu.addAction(r, partial(self.open_path, Path(r)))
        self.recent_menu.setEnabled(bool(self.recent()))

    def last_dir(self) -> str:
        return self.settings.get(LAST_DIR) or str(Path.home())

    # --- drag and drop onto the window ----------------------------------------------------------------------------

    def eventFilter(self, obj: QObject, ev: QEvent) -> bool:  # noqa: N802
        if obj is not self.window:
            return False
        if ev.type() == QEvent.Type.DragEnter:
            assert isinstance(ev, QDragEnterEvent)
            if ev.mimeData().hasUrls():
                ev.acceptProposedAction()
                return True
        elif ev.type() == QEvent.Type.Drop:
            assert isinstance(ev, QDropEvent)
            for url in ev.mimeData().urls():
                if url.isLocalFile():
                    self.open_path(Path(url.toLocalFile()))
                    return True
        return False
