"""Opening and saving build files from the window: New, Open, Open Recent, Open Example, Save, Save As, drag and
drop, and the "save changes?" prompt. The one place the window reads or writes a build file (mixed into
MainWindow, which provides `doc`, `settings`, `catalog`, `finish()` and the recent-files menu)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QFileDialog, QMainWindow, QMenu, QMessageBox

from rigplan import BUILD_SUFFIX as SUFFIX
from rigplan import OPEN_SUFFIXES

if TYPE_CHECKING:
    from PySide6.QtCore import QSettings

    from rigplan.catalog import Catalog
    from rigplan.gui.files.document import BuildDocument
    from rigplan.gui.files.filewatch import FileGuard
    from rigplan.model import Assumptions

# Open lists the new and the old names; Save offers NAME.rigplan first (the OS associations key on it).
OPEN_FILTER = f"RigPlan builds ({' '.join('*' + s for s in OPEN_SUFFIXES)});;All files (*)"
SAVE_FILTER = f"RigPlan build (*{SUFFIX});;YAML (*.yaml *.yml)"
MAX_RECENT = 8


# A mixin of MainWindow: the type checker sees a QMainWindow, Python a plain class (one Qt base only).
_Base = QMainWindow if TYPE_CHECKING else object


class FilesMixin(_Base):
    """File commands of the main window."""

    if TYPE_CHECKING:
        doc: BuildDocument
        settings: QSettings
        catalog: Catalog
        ready: bool
        recent_menu: QMenu

        def finish(self) -> None: ...
        def _last_assumptions(self) -> Assumptions: ...

    def maybe_save(self) -> bool:
        """True when it is fine to drop the current build (saved, discarded, or nothing to save)."""
        if not self.ready or not self.doc.is_modified():
            return True
        answer = QMessageBox.question(
            self,
            "Save changes?",
            f"“{self.doc.build.name}” has unsaved changes. Save them?",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Save,
        )
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    def new_build(self) -> None:
        from rigplan.model import Build

        if self.maybe_save():
            self.doc.reset(Build(assumptions=self._last_assumptions()), None)

    def suggest_build(self) -> None:
        """Issue 16: the best build for a budget opens as a new, unsaved build; Undo goes back to an empty one."""
        from rigplan.gui.suggest.suggest_dialog import SuggestDialog, own_prices_of
        from rigplan.model import Build

        current = self.doc.build
        costs = getattr(self, "costs", None)  # the offers in use (bundled or updated), once the Costs tab is built
        offers = getattr(costs, "offers", None)
        from rigplan.imports.user_prices import UserPricesError, load_user_prices

        try:
            yours = load_user_prices(getattr(self, "_data_dir", None))
        except UserPricesError:
            yours = {}  # said when the prices are applied at start; the suggester goes on without them
        dlg = SuggestDialog(
            self.catalog, current.assumptions, self, offers=offers, own_prices=own_prices_of(current), user_prices=yours
        )
        build = dlg.suggested_build() if dlg.exec() else None
        if build is not None and self.maybe_save():
            self.doc.reset(Build(assumptions=build.assumptions), None)
            self.doc.edit(build, "Suggest a build")

    def open_dialog(self) -> None:
        if not self.maybe_save():
            return
        path, _ = QFileDialog.getOpenFileName(self, "Open build", self._last_dir(), OPEN_FILTER)
        if path:
            self.open_path(Path(path), ask=False)

    def open_path(self, path: Path, ask: bool = True) -> bool:
        path = Path(path).absolute()  # recent files must work from any folder
        self.finish()
        if ask and not self.maybe_save():
            return False
        from rigplan.files import BuildFileError, missing_from_catalog

        try:
            build = self.file_guard.open(path)  # remembers what the file held (gui/files/filewatch.py)
        except BuildFileError as exc:
            QMessageBox.warning(self, "Cannot open build", exc.message + f"\n\n{path}")
            return False
        self.doc.reset(build, path)
        self._add_recent(path)
        gone = missing_from_catalog(build, self.catalog)
        if gone:
            QMessageBox.information(self, "Parts no longer in the catalog", "\n".join(gone))
        return True

    def open_example(self, path: Path) -> bool:
        """Open a copy of an example build: it has no file yet, so saving it asks where (the example stays as it is)."""
        self.finish()
        if not self.maybe_save():
            return False
        from rigplan.files import BuildFileError, load

        try:
            build = load(path)
        except BuildFileError as exc:
            QMessageBox.warning(self, "Cannot open the example", exc.message)
            return False
        self.doc.reset(build, None)
        return True

    def fill_examples(self, menu: QMenu) -> None:
        from rigplan.gui.parts.build_header import example_builds

        for name, path in example_builds():
            menu.addAction(name, lambda p=path: self.open_example(p))
        menu.setEnabled(not menu.isEmpty())

    def save(self) -> bool:
        if self.doc.path is None:
            return self.save_as()
        return self._write(self.doc.path)

    def save_as(self) -> bool:
        suggested = str(Path(self._last_dir()) / (self.doc.build.name.replace("/", "-") + SUFFIX))
        path, _ = QFileDialog.getSaveFileName(self, "Save build", suggested, SAVE_FILTER)
        if not path:
            return False
        from rigplan.files import with_build_suffix

        # "My build" becomes "My build.rigplan"; a name the user ended in .yaml or .rigplan.yaml stays as typed.
        return self._write(with_build_suffix(path), as_new=True)

    def _write(self, path: Path, as_new: bool = False) -> bool:
        # Changed on disk, write-protected, special files, failed backups: the guard asks or tells the user.
        return self.file_guard.write(path, as_new=as_new)

    @property
    def file_guard(self) -> FileGuard:
        guard = getattr(self, "_file_guard", None)
        if guard is None:
            from rigplan.gui.files.filewatch import FileGuard

            guard = self._file_guard = FileGuard(self)  # type: ignore[arg-type]
        return guard

    # --- recent files ------------------------------------------------------------------------------------------------

    def _recent(self) -> list[str]:
        v = self.settings.value("files/recent")
        return [str(x) for x in v] if isinstance(v, list) else ([str(v)] if v else [])

    def _add_recent(self, path: Path) -> None:
        recent = [str(path)] + [r for r in self._recent() if r != str(path)]
        self.settings.setValue("files/recent", recent[:MAX_RECENT])
        self.settings.setValue("files/last_dir", str(path.parent))
        self._fill_recent()

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        for r in self._recent():
            self.recent_menu.addAction(r, lambda r=r: self.open_path(Path(r)))
        self.recent_menu.setEnabled(bool(self._recent()))

    def _last_dir(self) -> str:
        return str(self.settings.value("files/last_dir") or Path.home())

    # --- drag and drop -----------------------------------------------------------------------------------------------

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802
        for url in event.mimeData().urls():
            if url.isLocalFile():
                self.open_path(Path(url.toLocalFile()))
                break
