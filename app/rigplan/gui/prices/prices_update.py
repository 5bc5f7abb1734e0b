"""Cloud prices menu: "Update prices from the internet...", "Import a price file..." and "Revert to bundled prices".

The download runs in a worker thread (never on the GUI thread) and reports to a QProgressDialog whose Cancel stops
it between chunks; the core (rigplan.cloud) does the work and raises one clear line on any failure, before
the cache is touched, so the prices in use stay as they were. On success the Costs tab reloads its offers."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox, QProgressDialog, QWidget

from rigplan.gui.jobs import Control, Job
from rigplan.gui.widgets.plain import tip as plain

OFFLINE = "offline"  # the job's word for "no connection at all"; the controller says what stays in use


def offline_message(user_dir: Path | None) -> str:
    """ "No internet connection; the bundled prices (from after 2025-06) are still in use." (or the updated ones)."""
    from rigplan.cloud.store import BUNDLED, load_cache

    cache, _ = load_cache(user_dir) if user_dir is not None else (None, None)
    if cache is not None:
        when = f"{cache.saved:%Y-%m-%d} (as of {cache.as_of()})"
        return f"No internet connection; the prices updated on {when} are still in use."
    bundled = BUNDLED.split(", ")[-1].rstrip(")")  # "prices from after 2025-06"
    return f"No internet connection; the bundled prices ({bundled.removeprefix('prices ')}) are still in use."


class _Offline(Exception):
    """No connection at all: the controller says which prices stay in use."""


def _price_work(work: Callable[[Callable[[float, str], None], Callable[[], bool]], Any]) -> Callable[[Control], Any]:
    """The core's update or import as a job's work: its progress (a fraction, a line) as per mille."""

    def run(control: Control) -> Any:
        from rigplan.cloud.fetch import PriceUpdateError

        try:
            return work(lambda share, text: control.progress(int(share * 1000), 1000, text), control.cancelled)
        except PriceUpdateError as exc:
            raise (_Offline(OFFLINE) if exc.offline else exc) from None

    return run


class PricesController(QObject):
    """Owns the menu actions and at most one running job. `reload` gets the new OfferCatalog."""

    done = Signal(str)  # the status line after a job ends (tests wait on it)

    def __init__(self, parent: QWidget, user_dir: Path | None, reload: Callable[[Any], None], url: str | None = None):
        super().__init__(parent)
        self.parent_widget, self.user_dir, self.reload, self.url = parent, user_dir, reload, url
        self.providers: tuple[str, ...] | None = None  # None: gpuhunt's names of the four clouds (fetch.py)
        self.job: Job | None = None
        self.dialog: QProgressDialog | None = None
        self._in_set_value = 0  # how deep inside the dialog's setValue (see _progress; reports can nest)
        self._closing: QProgressDialog | None = None
        self.act_update = QAction("&Update prices from the internet...", parent)
        self.act_update.setToolTip("Fetch current prices (gpuhunt's published catalog: AWS, Azure, GCP, Lambda)")
        self.act_import = QAction("&Import a price file...", parent)
        self.act_import.setToolTip("A SkyPilot vms.csv or a gpuhunt CSV")
        self.act_revert = QAction("&Revert to bundled prices", parent)
        self.act_update.triggered.connect(lambda _=False: self.start_update())
        self.act_import.triggered.connect(lambda _=False: self.import_dialog())
        self.act_revert.triggered.connect(lambda _=False: self.revert())
        for a in (self.act_update, self.act_import, self.act_revert):
            a.setEnabled(user_dir is not None)  # no data folder: nowhere to keep prices
        self._sync_revert()
        app = QApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.shutdown)

    def _sync_revert(self) -> None:
        from rigplan.cloud.cachepath import cache_file

        self.act_revert.setEnabled(self.user_dir is not None and cache_file(self.user_dir).is_file())

    def start_update(self, providers: tuple[str, ...] | None = None) -> None:
        from rigplan.cloud.fetch import DEFAULT_PROVIDERS
        from rigplan.cloud.update import update

        assert self.user_dir is not None
        user_dir, url, wanted = self.user_dir, self.url, providers or self.providers or DEFAULT_PROVIDERS
        self._start("Updating cloud prices", lambda p, c: update(user_dir, wanted, url, p, c))

    def import_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self.parent_widget, "Import a price file", "", "Price files (*.csv);;All files (*)"
        )
        if path:
            self.start_import(Path(path))

    def start_import(self, path: Path, provider: str | None = None, date: dt.date | None = None) -> None:
        from rigplan.cloud.update import import_file

        assert self.user_dir is not None
        user_dir = self.user_dir
        self._start(f"Importing {path.name}", lambda p, c: import_file(user_dir, path, provider, date))

    def _start(self, title: str, work: Callable[..., Any]) -> None:
        from rigplan.cloud.fetch import PriceUpdateError

        if self.job is not None:
            return  # one job at a time; its dialog is already showing
        self.dialog = QProgressDialog(title + "...", "Cancel", 0, 1000, self.parent_widget)
        self.dialog.setWindowTitle(title)
        self.dialog.setWindowModality(Qt.WindowModality.WindowModal)
        self.dialog.setMinimumDuration(0)
        self.dialog.setAutoClose(False)
        self.dialog.setAutoReset(False)
        self.dialog.setMinimumWidth(460)
        self.job = job = Job(_price_work(work), name="price update", expected=(PriceUpdateError, _Offline))
        job.progress.connect(self._progress)
        job.succeeded.connect(self._succeeded)
        job.failed.connect(self._failed)
        self.dialog.canceled.connect(self.cancel)
        for a in (self.act_update, self.act_import, self.act_revert):
            a.setEnabled(False)
        job.start()
        self.dialog.show()

    def cancel(self) -> None:
        """Stop at once for the user: the job is told to stop (it checks between chunks and before saving) and
        nothing it still delivers reaches this controller; its thread ends on its own."""
        job = self.job
        if job is None:
            return
        job.progress.disconnect(self._progress)
        job.succeeded.disconnect(self._succeeded)
        job.failed.disconnect(self._failed)
        job.cancel()
        self._finish("Price update cancelled; the prices in use are unchanged")

    @Slot(int, int, str)
    def _progress(self, per_mille: int, _total: int, text: str) -> None:
        if self.dialog is None or self.job is None or self.job.is_cancelled():
            return  # a report still queued when the job ended, or the user cancelled
        dialog = self.dialog
        dialog.setLabelText(text)
        # A modal dialog's setValue runs queued events: the job may end inside it, and closing and deleting the
        # dialog there crashed the process (seen in the test suite: its setValue went on with a deleted dialog).
        # _finish leaves the dialog to us while we are inside; we close it once setValue has returned.
        self._in_set_value += 1
        try:
            dialog.setValue(per_mille)
        finally:
            self._in_set_value -= 1
        if self._closing is not None and not self._in_set_value:
            closing, self._closing = self._closing, None
            self._close(closing)

    def _close(self, dialog: QProgressDialog) -> None:
        dialog.canceled.disconnect(self.cancel)  # closing a progress dialog emits canceled
        dialog.close()
        dialog.deleteLater()

    def _finish(self, message: str) -> None:
        dialog, self.dialog = self.dialog, None
        self.job = None
        if dialog is not None:
            if self._in_set_value:
                dialog.hide()  # the user sees it go now; _progress closes and deletes it after its setValue
                self._closing = dialog
            else:
                self._close(dialog)
        self.act_update.setEnabled(True)
        self.act_import.setEnabled(True)
        self._sync_revert()
        self.done.emit(message)

    @Slot(object)
    def _succeeded(self, ps: Any) -> None:
        from rigplan.cloud.store import load_prices

        self.reload(load_prices(self.user_dir))
        self._finish(f"Cloud prices updated: {len(ps.offers):,} offers, prices as of {ps.as_of()}")

    @Slot(str)
    def _failed(self, message: str) -> None:
        if message == OFFLINE:  # issue 29: what it means for the user, not a URL and an errno
            message = offline_message(self.user_dir)
        self._finish(message)
        QMessageBox.warning(self.parent_widget, "Cloud prices not updated", plain(message))

    def revert(self) -> None:
        from rigplan.cloud.store import load_prices, revert

        if self.user_dir is None:
            return
        revert(self.user_dir)
        self.reload(load_prices(self.user_dir))
        self._sync_revert()
        self.done.emit("Using the bundled cloud prices")

    @Slot()
    def shutdown(self) -> None:
        """On quitting: tell a running job to stop (gui/jobs.py then waits for its thread)."""
        self.cancel()
