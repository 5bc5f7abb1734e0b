"""Parts catalog menu (issue 38): "Update parts from OpenDB...", "Update from a downloaded archive...", "Revert to
the previous catalog", "Revert to the shipped catalog", as the Cloud prices menu does for prices.

The update runs as a Job (gui/jobs.py) behind a progress dialog whose Cancel stops it; when it has read, converted and
compared the archive, the change summary is shown and nothing is switched until the user says so. The switch and the
reload of the catalog are a second Job. Any failure is one line; the catalog in use stays as it was."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal, Slot
from PySide6.QtGui import QAction, QFontDatabase
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QLabel,
    QMessageBox,
    QPlainTextEdit,
    QProgressDialog,
    QVBoxLayout,
    QWidget,
)

from rigplan.gui.jobs import Control, Job
from rigplan.gui.widgets.plain import tip as plain


def _prepare_work(archive: Path | None, commit: str | None, data_dir: Path | None) -> Callable[[Control], Any]:
    def run(control: Control) -> Any:
        import tempfile

        from rigplan.opendb.update import archive_url, fetch_archive, prepare

        def progress(share: float, text: str) -> None:
            control.progress(int(share * 1000), 1000, text)

        with tempfile.TemporaryDirectory(prefix="rigplan-opendb-") as tmp:
            path = archive or fetch_archive(commit, Path(tmp), progress, control.cancelled)
            origin = str(archive) if archive else archive_url(commit)
            return prepare(path, data_dir, progress, control.cancelled, origin)

    return run


def _install_work(prepared: Any, data_dir: Path | None) -> Callable[[Control], Any]:
    def run(control: Control) -> Any:
        from rigplan.catalog import load_catalog
        from rigplan.opendb.store import install

        control.progress(0, 0, "switching to the new catalog")
        install(prepared, data_dir)
        return load_catalog(data_dir=data_dir)

    return run


class SummaryDialog(QDialog):
    """What the update would change; "Switch to it" or "Keep the current catalog"."""

    def __init__(self, parent: QWidget | None, prepared: Any) -> None:
        from rigplan.opendb.summary import summary_lines

        super().__init__(parent)
        about, s = prepared.about, prepared.summary
        self.setWindowTitle("Parts catalog update")
        head = f"BuildCores OpenDB @{(about['commit'] or 'unknown')[:7]} of {about['date'] or 'unknown date'}"
        lay = QVBoxLayout(self)
        self.heading = QLabel(f"<b>{plain(head)}</b>: what would change against the catalog in use")
        lay.addWidget(self.heading)
        self.text = QPlainTextEdit("\n".join(summary_lines(s)))
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))  # the counts line up
        self.text.setReadOnly(True)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        lay.addWidget(self.text, 1)
        self.buttons = QDialogButtonBox()
        self.switch = self.buttons.addButton("Switch to it", QDialogButtonBox.ButtonRole.AcceptRole)
        self.keep = self.buttons.addButton("Keep the current catalog", QDialogButtonBox.ButtonRole.RejectRole)
        self.switch.setEnabled(not s.too_many_gone)
        if s.too_many_gone:
            self.switch.setToolTip("More than a fifth of a kind's parts would be gone: OpenDB may be broken here")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        lay.addWidget(self.buttons)
        self.resize(900, 520)


class CatalogController(QObject):
    """Owns the Parts catalog menu's actions and at most one running job. `reload` gets the new Catalog."""

    done = Signal(str)  # the status line after a job ends (tests wait on it)
    summary_shown = Signal(object)  # the SummaryDialog, before it runs (tests press its buttons)

    def __init__(self, parent: QWidget, data_dir: Path | None, reload: Callable[[Any], None]) -> None:
        super().__init__(parent)
        self.parent_widget, self.data_dir, self.reload = parent, data_dir, reload
        self.job: Job | None = None
        self.dialog: QProgressDialog | None = None
        self.summary: SummaryDialog | None = None
        self._on_result: Callable[[Any], None] = self._prepared
        self.act_update = QAction("&Update parts from OpenDB...", parent)
        self.act_update.setToolTip("Download BuildCores OpenDB's newest parts, see what changes, then switch to it")
        self.act_file = QAction("Update from a &downloaded archive...", parent)
        self.act_file.setToolTip("An OpenDB archive (.tar.gz) downloaded from GitHub")
        self.act_previous = QAction("Revert to the &previous catalog", parent)
        self.act_shipped = QAction("Revert to the &shipped catalog", parent)
        self.act_update.triggered.connect(self._update_clicked)
        self.act_file.triggered.connect(self._file_clicked)
        self.act_previous.triggered.connect(self._previous_clicked)
        self.act_shipped.triggered.connect(self._shipped_clicked)
        self._sync()
        app = QApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.shutdown)

    def actions(self) -> list[QAction | None]:
        return [self.act_update, self.act_file, None, self.act_previous, self.act_shipped]

    def _sync(self) -> None:
        from rigplan.catalog.overlay import read_state

        state, _ = read_state(self.data_dir)
        idle = self.job is None
        self.act_update.setEnabled(idle)
        self.act_file.setEnabled(idle)
        self.act_previous.setEnabled(idle and state["previous"] is not None)
        self.act_shipped.setEnabled(idle and state["current"] is not None)

    @Slot()
    def _update_clicked(self) -> None:
        self.start(None)

    @Slot()
    def _file_clicked(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self.parent_widget, "OpenDB archive", "", "OpenDB archives (*.tar.gz *.tgz);;All files (*)"
        )
        if path:
            self.start(Path(path))

    def start(self, archive: Path | None, commit: str | None = None) -> None:
        from rigplan.opendb.update import UpdateError

        if self.job is not None:
            return
        self._progress_dialog("Updating the parts catalog")
        self._run(Job(_prepare_work(archive, commit, self.data_dir), name="catalog update", expected=(UpdateError,)),
                  self._prepared)  # fmt: skip

    def _progress_dialog(self, title: str) -> None:
        d = self.dialog = QProgressDialog(title + "...", "Cancel", 0, 1000, self.parent_widget)
        d.setWindowTitle(title)
        d.setWindowModality(Qt.WindowModality.WindowModal)
        d.setMinimumDuration(0)
        d.setAutoClose(False)
        d.setAutoReset(False)
        d.setMinimumWidth(520)
        d.canceled.connect(self.cancel)
        d.show()

    def _run(self, job: Job, on_result: Callable[[Any], None]) -> None:
        self.job, self._on_result = job, on_result
        self.destroyed.connect(job.cancel)  # the window closed and went: the job stops, the catalog stays as it was
        job.progress.connect(self._progress)
        job.succeeded.connect(on_result)
        job.failed.connect(self._failed)
        self._sync()
        job.start()

    @Slot(int, int, str)
    def _progress(self, done: int, total: int, text: str) -> None:
        if self.dialog is not None and self.job is not None and not self.job.is_cancelled():
            self.dialog.setLabelText(text)
            if total:
                self.dialog.setValue(done)

    def cancel(self) -> None:
        job = self.job
        if job is None:
            return
        job.progress.disconnect(self._progress)
        job.failed.disconnect(self._failed)
        job.succeeded.disconnect(self._on_result)
        job.cancel()
        self._finish("Catalog update cancelled; the catalog in use is unchanged")

    def _finish(self, message: str) -> None:
        dialog, self.dialog = self.dialog, None
        self.job = None
        if dialog is not None:
            dialog.canceled.disconnect(self.cancel)
            dialog.close()
            dialog.deleteLater()
        self._sync()
        self.done.emit(message)

    @Slot(object)
    def _prepared(self, prepared: Any) -> None:
        self._finish("Catalog update read; see what changes")
        self.summary = SummaryDialog(self.parent_widget, prepared)
        self.summary.accepted.connect(self._switch_chosen)
        self.summary.rejected.connect(self._kept)
        self._pending = prepared
        self.summary_shown.emit(self.summary)
        self.summary.open()

    @Slot()
    def _kept(self) -> None:
        self.summary = None
        self.done.emit("Nothing switched; the catalog in use is unchanged")

    @Slot()
    def _switch_chosen(self) -> None:
        from rigplan.opendb.update import UpdateError

        self.summary = None
        self._progress_dialog("Switching the parts catalog")
        self._run(Job(_install_work(self._pending, self.data_dir), name="catalog switch", expected=(UpdateError,)),
                  self._installed)  # fmt: skip

    @Slot(object)
    def _installed(self, catalog: Any) -> None:
        from rigplan.catalog.overlay import snapshot_line

        self.reload(catalog)
        self._finish(f"Parts catalog switched: {snapshot_line(catalog.about)}")

    @Slot(str)
    def _failed(self, message: str) -> None:
        self._finish(message)
        QMessageBox.warning(self.parent_widget, "Parts catalog not updated", plain(message))

    @Slot()
    def _previous_clicked(self) -> None:
        self.revert(False)

    @Slot()
    def _shipped_clicked(self) -> None:
        self.revert(True)

    def revert(self, to_shipped: bool) -> None:
        from rigplan.catalog import load_catalog
        from rigplan.catalog.overlay import snapshot_line
        from rigplan.opendb.store import revert
        from rigplan.opendb.update import UpdateError

        try:
            revert(self.data_dir, to_shipped)
        except UpdateError as exc:
            QMessageBox.warning(self.parent_widget, "Parts catalog not changed", plain(str(exc)))
            return
        catalog = load_catalog(data_dir=self.data_dir)
        self.reload(catalog)
        self._sync()
        self.done.emit(f"Parts catalog: {snapshot_line(catalog.about)}")

    def annotate(self, report: Any, build: Any, catalog: Any) -> Any:
        """The report with the findings that read one of your corrections saying so (rigplan.opendb.findings)."""
        from rigplan.opendb.findings import with_correction_notes

        return with_correction_notes(report, build, catalog.user_corrections)

    @Slot()
    def shutdown(self) -> None:
        self.cancel()


def install_catalog_menu(w: Any, menus: Any) -> CatalogController:
    """The window's Parts catalog menu and its controller; a finished job's line goes to the status bar."""
    ctl = CatalogController(w, None, lambda catalog: use_catalog(w, catalog))
    menus.add_catalog_menu(ctl)
    ctl.done.connect(w.statusBar().showMessage)
    return ctl


def use_catalog(w: Any, catalog: Any) -> None:
    """An update, a revert or a correction changed the catalog in use: every view of the window reads the new one
    (the build keeps its parts as chosen, whole, until they are picked again)."""
    w.catalog = w.files.catalog = catalog
    w.picker.set_catalog(catalog)
    w.refresh(w.doc.build)
