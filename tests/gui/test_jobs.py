"""The one background job class (gui/jobs.py) at each of its ends, with real threads and real widgets, and the
Suggest dialog's ends through the real menu as a user reaches them (issue 37: a question with no answer killed the
app: the job's `failed` ran a lambda in the worker thread, which touched widgets there)."""

from __future__ import annotations

import logging
import threading
import time

import pytest
from gui_helpers import choose, click, pick, type_into
from PySide6.QtCore import QThread, QTimer, Slot
from PySide6.QtWidgets import QApplication, QLabel

from rigplan.gui import jobs
from rigplan.gui.jobs import Control, Job
from rigplan.gui.mainwindow import MainWindow
from rigplan.gui.suggest.suggest_dialog import SuggestDialog


class Shown(QLabel):
    """A widget that shows a job's end through bound slots, as the GUI's controllers do."""

    @Slot(object)
    def result(self, value: object) -> None:
        self.setText(f"result {value}")

    @Slot(str)
    def failure(self, text: str) -> None:
        self.setText(f"failed: {text}")

    @Slot()
    def cancelled(self) -> None:
        self.setText("cancelled")

    @Slot(int, int, str)
    def progress(self, done: int, total: int, text: str) -> None:
        self.setText(f"{done}/{total} {text}")


def watch(job: Job, label: Shown) -> None:
    job.succeeded.connect(label.result)
    job.failed.connect(label.failure)
    job.cancelled.connect(label.cancelled)
    job.progress.connect(label.progress)


def test_the_result_reaches_the_gui_thread_even_through_a_lambda(qtbot) -> None:  # noqa: ANN001
    label = Shown()
    qtbot.addWidget(label)
    worker: list[QThread] = []
    job = Job(lambda control: worker.append(QThread.currentThread()) or 6 * 7, name="answer")
    watch(job, label)
    where: list[QThread] = []
    job.succeeded.connect(lambda _value: where.append(QThread.currentThread()))  # the pattern that crashed
    with qtbot.waitSignal(job.ended, timeout=10_000):
        job.start()
        assert job.running()
    gui = QApplication.instance().thread()  # type: ignore[union-attr]
    assert label.text() == "result 42"
    assert worker and worker[0] is not gui  # the work ran off the GUI thread...
    assert where == [gui]  # ...and even a lambda receiving the end runs in the GUI thread
    assert not job.running() and job not in jobs.live_jobs()


def test_an_expected_failure_is_its_own_line_and_a_bug_is_named(qtbot, caplog) -> None:  # noqa: ANN001
    label = Shown()
    qtbot.addWidget(label)

    def refuse(control: Control) -> None:
        raise ValueError("no priced build fits $300")

    job = Job(refuse, name="suggest", expected=(ValueError,))
    watch(job, label)
    with qtbot.waitSignal(job.ended, timeout=10_000):
        job.start()
    assert label.text() == "failed: no priced build fits $300"

    def bug(control: Control) -> None:
        raise KeyError("gpu")

    job = Job(bug, name="suggest", expected=(ValueError,))
    watch(job, label)
    with caplog.at_level(logging.ERROR, logger="rigplan.gui.jobs"), qtbot.waitSignal(job.ended, timeout=10_000):
        job.start()
    assert label.text() == "failed: suggest failed: KeyError: 'gpu'"
    assert "Traceback" in caplog.text and "KeyError" in caplog.text  # the bug is logged whole, shown in one line


def test_cancel_ends_with_cancelled_whatever_the_work_returns(qtbot) -> None:  # noqa: ANN001
    label = Shown()
    qtbot.addWidget(label)
    steps: list[int] = []

    def loop(control: Control) -> str:
        while not control.cancelled():
            steps.append(1)
            control.progress(len(steps), 0, "working")
            time.sleep(0.005)
        return "a result nobody asked for any more"

    job = Job(loop, name="loop")
    watch(job, label)
    job.start()
    qtbot.waitUntil(lambda: label.text().endswith("working"), timeout=10_000)
    with qtbot.waitSignal(job.cancelled, timeout=10_000):
        job.cancel()
    assert label.text() == "cancelled" and not job.running() and job not in jobs.live_jobs()

    def raising(control: Control) -> None:  # work that stops with its own exception when told to
        while True:
            control.check()
            time.sleep(0.005)

    job = Job(raising, name="check")
    watch(job, label)
    label.setText("")  # the test's own read-out label cleared between two jobs, not a user's input
    job.start()
    with qtbot.waitSignal(job.cancelled, timeout=10_000):
        job.cancel()
    assert label.text() == "cancelled"


def test_closing_the_window_meanwhile_loses_nothing_and_crashes_nothing(qtbot) -> None:  # noqa: ANN001
    release = threading.Event()
    label = Shown()
    job = Job(lambda control: release.wait(10) and "late", name="late")
    watch(job, label)
    job.start()
    label.close()
    label.deleteLater()  # the window goes while its job runs
    qtbot.wait(50)
    release.set()
    with qtbot.waitSignal(job.ended, timeout=10_000):
        pass
    assert job not in jobs.live_jobs()  # the job outlived its window, then let go of itself


def test_shutdown_cancels_and_waits_for_every_live_job(qtbot) -> None:  # noqa: ANN001
    started = threading.Event()

    def spin(control: Control) -> None:
        started.set()
        while not control.cancelled():
            time.sleep(0.005)

    job = Job(spin, name="spin")
    job.start()
    assert started.wait(10)
    jobs.shutdown(wait_ms=10_000)
    assert job.is_cancelled() and job.wait(0)
    qtbot.waitUntil(lambda: not job.running(), timeout=10_000)


# The Suggest dialog through Build > Suggest a build..., exec'd as the app runs it.


def suggest_through_the_menu(qtbot, window: MainWindow, setup, press: str = "run") -> str:  # noqa: ANN001
    """Open the dialog from the menu, set it up, press a button; return the answer text once it has shown."""
    seen: list[str] = []

    def drive() -> None:
        dlg = QApplication.activeModalWidget()
        if not isinstance(dlg, SuggestDialog):
            QTimer.singleShot(20, drive)
            return
        setup(dlg)

        def answered() -> None:
            seen.append(dlg.result_view.toPlainText())
            QTimer.singleShot(0, dlg.reject)

        dlg.answered.connect(answered)
        click(qtbot, dlg.run_button)
        if press == "close":
            seen.append("closed while searching" if dlg.searching() else "was not searching")
            click(qtbot, dlg.buttons.button(dlg.buttons.StandardButton.Close))

    QTimer.singleShot(0, drive)
    choose(qtbot, window, window.menus.suggest)  # File > Suggest a build...; returns when the dialog closes
    return "\n".join(seen)


def test_no_answer_through_the_menu_leaves_the_window_alive(qtbot, window: MainWindow) -> None:  # noqa: ANN001
    text = suggest_through_the_menu(qtbot, window, lambda d: type_into(qtbot, d.budget, "300"))
    assert text.startswith("No answer:") and "$300" in text
    assert window.isVisible() and window.doc.build.items == ()  # the window lives on, its build untouched


def test_a_workload_no_budget_can_fit_is_no_answer_not_a_crash(qtbot, window: MainWindow) -> None:  # noqa: ANN001
    def setup(d: SuggestDialog) -> None:
        type_into(qtbot, d.budget, "5000")
        pick(qtbot, d.fit.model, data="llama-3.1-70b")
        pick(qtbot, d.fit.task, "LoRA")

    text = suggest_through_the_menu(qtbot, window, setup)
    assert text.startswith("No answer:")
    assert window.isVisible()


def test_closing_while_searching_then_using_the_window(qtbot, window: MainWindow) -> None:  # noqa: ANN001
    text = suggest_through_the_menu(qtbot, window, lambda d: type_into(qtbot, d.budget, "25000"), press="close")
    assert text == "closed while searching"
    qtbot.waitUntil(lambda: not jobs.live_jobs(), timeout=60_000)  # the abandoned search ends on its own
    assert window.isVisible() and window.doc.build.items == ()


@pytest.fixture(autouse=True)
def no_live_jobs_left(qtbot):  # noqa: ANN001, ANN201
    yield
    qtbot.waitUntil(lambda: not jobs.live_jobs(), timeout=60_000)
