"""The suggester's search in a worker thread (as gui/prices runs the price download): the dialog stays responsive,
Cancel and closing the dialog set the flag the search checks at every node, and Qt queues the answer back."""

from __future__ import annotations

import threading

from PySide6.QtCore import QObject, Qt, QThread, Signal, Slot

from rigplan.catalog.loader import Catalog
from rigplan.model.assumptions import Assumptions
from rigplan.suggest import Cancelled, Question, SuggestError, suggest


class SuggestJob(QObject):
    """One question, answered in its own thread."""

    progress = Signal(int, int)  # options tried, options in all
    succeeded = Signal(object)  # rigplan.suggest.Suggestion
    failed = Signal(str)  # one line: why there is no answer
    cancelled = Signal()
    ended = Signal()  # after any of the three: the thread may stop

    def __init__(self, catalog: Catalog, assumptions: Assumptions, question: Question) -> None:
        super().__init__()
        self.catalog, self.assumptions, self.question = catalog, assumptions, question
        self.cancel_event = threading.Event()

    @Slot()
    def run(self) -> None:
        try:
            answer = suggest(
                self.catalog,
                self.assumptions,
                self.question,
                progress=self.progress.emit,
                cancelled=self.cancel_event.is_set,
            )
        except SuggestError as exc:
            self.failed.emit(str(exc))
        except Cancelled:
            self.cancelled.emit()
        except Exception as exc:  # a bug must not kill the thread silently: say it in one line
            self.failed.emit(f"the search failed: {type(exc).__name__}: {exc}")
        else:
            self.succeeded.emit(answer)
        finally:
            self.ended.emit()


def start(job: SuggestJob) -> QThread:
    """Run the job in a new thread; the thread quits when the job ends."""
    thread = QThread()
    job.moveToThread(thread)
    thread.started.connect(job.run)
    # Direct: QThread.quit is thread-safe, and queued to the GUI thread it would wait for that thread's event loop,
    # so a second Suggest pressed as the first answer arrives found the old thread "running" and did nothing.
    job.ended.connect(thread.quit, Qt.ConnectionType.DirectConnection)
    thread.start()
    return thread
