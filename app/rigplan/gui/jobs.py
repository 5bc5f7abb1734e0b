"""The one way the GUI runs work off its thread (issue 34): a `Job` runs a plain function in a QThread and delivers
its end (result, failure or cancel) to the GUI thread.

Why it is built this way:
- **Ends arrive in the GUI thread, always.** The worker thread only stores the outcome; the thread's `finished`
  signal reaches `Job._thread_finished`, a bound slot of the Job, which lives in the GUI thread, so Qt queues it
  there. Only then does the Job emit `succeeded`, `failed` or `cancelled`, and `ended`. A receiver connected with a
  lambda therefore also runs in the GUI thread (issue 37: a lambda connected to a worker's signal ran in the worker
  thread, touched widgets there and killed the app with "QThread::wait: Thread tried to wait on itself").
  Progress is emitted from the worker thread; connect it to bound slots of QObjects (queued to the GUI thread).
- **The job outlives its window.** A Job has no Qt parent; while its thread runs it is held in `_LIVE`, so closing
  the window that started it never destroys a running QThread ("QThread: Destroyed while thread is still running"
  aborts the process). The window calls `cancel()`; the work sees it at its next check and the thread ends.
- **Cancel is cooperative.** The work function receives a `Control`: `control.cancelled()` to poll, `control.check()`
  to raise `JobCancelled`, `control.progress(done, total, text)`. A cancelled job ends with `cancelled`, whatever
  its function returned.
- **Failures are one line.** An exception of a type in `expected` is the user's answer (its text is shown as is);
  any other exception is a bug, logged with its traceback and shown as one line naming it.
- **Quit waits.** `shutdown()` (connected to the application's aboutToQuit) cancels every live job and waits for its
  thread, a bounded time.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, QThread, Signal, Slot

log = logging.getLogger(__name__)

_LIVE: set[Job] = set()  # jobs whose thread has started and whose end has not been delivered yet
QUIT_WAIT_MS = 40_000  # the longest job bound: a price download gives up after 30 s whatever the server does


class JobCancelled(Exception):
    """Raised by `Control.check()` when the job was cancelled; the job then ends with `cancelled`."""


class Control:
    """What the work function sees of its job: the cancel flag and a progress channel. Thread-safe."""

    def __init__(self, job: Job) -> None:
        self._job = job
        self._event = threading.Event()

    def cancelled(self) -> bool:
        return self._event.is_set()

    def check(self) -> None:
        if self._event.is_set():
            raise JobCancelled

    def progress(self, done: int, total: int, text: str = "") -> None:
        if not self._event.is_set():
            self._job.progress.emit(int(done), int(total), text)


class _Runner(QThread):
    """Runs the work and keeps its outcome; emits nothing itself (QThread.finished carries the end)."""

    def __init__(self, work: Callable[[Control], Any], control: Control, expected: tuple[type[BaseException], ...]):
        super().__init__()
        self.work, self.control, self.expected = work, control, expected
        self.result: Any = None
        self.error: str | None = None

    def run(self) -> None:
        try:
            self.result = self.work(self.control)
        except JobCancelled:
            pass
        except Exception as exc:
            if self.control.cancelled():
                return  # the work stopped the way it stops when told to (its own "cancelled" exception)
            if isinstance(exc, self.expected):
                self.error = str(exc) or type(exc).__name__
                return
            # a bug: logged whole, shown in one line, never a dead thread with no word
            log.exception("background job %s failed", self.objectName())
            self.error = f"{self.objectName()} failed: {type(exc).__name__}: {exc}"


class Job(QObject):
    """One piece of work in its own thread. Create it, connect its signals to bound slots, `start()` it."""

    progress = Signal(int, int, str)  # done, total (0: unknown), what is happening; from the worker thread
    succeeded = Signal(object)  # the work's return value; in the GUI thread
    failed = Signal(str)  # one line; in the GUI thread
    cancelled = Signal()  # in the GUI thread
    ended = Signal()  # after any of the three; the thread has finished

    def __init__(
        self,
        work: Callable[[Control], Any],
        *,
        name: str,
        expected: tuple[type[BaseException], ...] = (),
    ) -> None:
        super().__init__()
        self.setObjectName(name)
        self.control = Control(self)
        self._runner = _Runner(work, self.control, expected)
        self._runner.setObjectName(name)
        self._runner.finished.connect(self._thread_finished)  # queued: the Job lives in the GUI thread
        self._started = self._over = False

    def start(self) -> None:
        if self._started:
            raise RuntimeError("a Job runs once")
        self._started = True
        _LIVE.add(self)
        _connect_quit()
        self._runner.start()

    def cancel(self) -> None:
        """Ask the work to stop; the job ends with `cancelled` once its thread has returned."""
        self.control._event.set()

    def is_cancelled(self) -> bool:
        return self.control.cancelled()

    def running(self) -> bool:
        """Started and its end not yet delivered."""
        return self._started and not self._over

    def wait(self, ms: int = QUIT_WAIT_MS) -> bool:
        """Wait for the thread (not for the delivery of its end); True if it has finished."""
        return self._runner.wait(ms) if self._started else True

    @Slot()
    def _thread_finished(self) -> None:
        if self._over:
            return
        self._runner.wait()  # returns at once: `finished` is the thread's last act
        self._over = True
        runner = self._runner
        try:
            if self.control.cancelled():
                self.cancelled.emit()
            elif runner.error is not None:
                self.failed.emit(runner.error)
            else:
                self.succeeded.emit(runner.result)
        finally:
            _LIVE.discard(self)
            self.ended.emit()


def live_jobs() -> list[Job]:
    return list(_LIVE)


def shutdown(wait_ms: int = QUIT_WAIT_MS) -> None:
    """Cancel every live job and wait for its thread (on quit: a running QThread must not be destroyed)."""
    jobs = list(_LIVE)
    for job in jobs:
        job.cancel()
    for job in jobs:
        if not job.wait(wait_ms):
            log.warning("background job %s still running at quit", job.objectName())


_quit_hooked = False


def _connect_quit() -> None:
    global _quit_hooked
    app = QCoreApplication.instance()
    if app is not None and not _quit_hooked:
        app.aboutToQuit.connect(_on_quit)
        _quit_hooked = True


def _on_quit() -> None:
    shutdown()
