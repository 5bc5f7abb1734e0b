"""Issue 14 in the window: two windows on one file, a file changed by another program, write-protected files,
backups that fail, special files, and numbers that used to reach "inf". Real windows and real files; only the modal
dialogs are answered by the test."""

from __future__ import annotations

import math
import os
import stat
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from gui_helpers import click, show_tab
from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QFileDialog, QMessageBox

from rigplan.catalog import Catalog
from rigplan.cloud.offers import OfferCatalog
from rigplan.costs.perf import PerfTable
from rigplan.files import load, save
from rigplan.gui.mainwindow import MainWindow

DATA = Path(__file__).resolve().parents[1] / "data"
Button = QMessageBox.StandardButton


@pytest.fixture
def build_file(tmp_path: Path, examples_dir: Path) -> Path:
    path = tmp_path / "shared.rigplan.yaml"
    save(load(examples_dir / "budget-1-gpu.rigplan"), path)
    return path


@pytest.fixture
def second(qtbot, catalog: Catalog, offers: OfferCatalog, perf: PerfTable, tmp_path: Path) -> MainWindow:  # noqa: ANN001
    w = MainWindow(catalog, offers, perf, QSettings(str(tmp_path / "s2.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(w, before_close_func=lambda w: w.doc.undo_stack.setClean())
    return w


def record(monkeypatch: pytest.MonkeyPatch, name: str, answer: object = None) -> list[tuple[str, str]]:
    """Answer QMessageBox.<name> and keep (title, text) of each call."""
    calls: list[tuple[str, str]] = []

    def fake(parent: object, title: str, text: str, *args: object, **kwargs: object) -> object:
        calls.append((title, text))
        return answer

    monkeypatch.setattr(QMessageBox, name, fake)
    return calls


def click_in_box(monkeypatch: pytest.MonkeyPatch, *labels: str) -> list[str]:
    """Answer each custom QMessageBox by clicking the first of `labels` it has; keep the texts shown."""
    shown: list[str] = []

    def exec_(box: QMessageBox) -> int:
        shown.append(f"{box.text()} {box.informativeText()}")
        by_text = {b.text(): b for b in box.buttons()}
        box.show()  # on screen, the answer clicked with the mouse
        QTest.qWaitForWindowExposed(box)
        QTest.mouseClick(by_text[next(t for t in labels if t in by_text)], Qt.MouseButton.LeftButton)
        return box.result()

    monkeypatch.setattr(QMessageBox, "exec", exec_)
    return shown


# --- 1. two windows on one file --------------------------------------------------------------------------------------


@pytest.mark.parametrize("choice", ["Cancel", "Overwrite", "Reload"])
def test_second_window_asks_before_overwriting_the_first(
    window: MainWindow, second: MainWindow, build_file: Path, monkeypatch: pytest.MonkeyPatch, choice: str
) -> None:
    assert window.files.open_path(build_file, ask=False) and second.files.open_path(build_file, ask=False)
    window.doc.rename("Saved by window 1")
    assert window.files.save()
    second.doc.rename("Saved by window 2")
    # Each window's watcher offers to reload the other's save: not now.
    shown = click_in_box(monkeypatch, choice, "Keep my version", "Not now")
    saved = second.files.save()
    assert shown and "was changed by another window or program" in shown[0]  # silently overwritten before
    on_disk = load(build_file).name
    if choice == "Cancel":
        assert not saved and on_disk == "Saved by window 1" and second.doc.is_modified()
    elif choice == "Overwrite":
        assert saved and on_disk == "Saved by window 2" and not second.doc.is_modified()
    else:
        assert not saved and on_disk == "Saved by window 1"
        assert second.doc.build.name == "Saved by window 1" and not second.doc.is_modified()


def test_save_as_from_the_conflict_keeps_both_versions(
    window: MainWindow, second: MainWindow, build_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    window.files.open_path(build_file, ask=False)
    second.files.open_path(build_file, ask=False)
    window.doc.rename("Saved by window 1")
    window.files.save()
    second.doc.rename("Saved by window 2")
    click_in_box(monkeypatch, "Save As...", "Keep my version", "Not now")
    other = tmp_path / "mine.rigplan.yaml"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(other), ""))
    assert second.files.save()
    assert load(build_file).name == "Saved by window 1" and load(other).name == "Saved by window 2"
    assert second.doc.path == other


# --- 1. another program changes the open file --------------------------------------------------------------------


def test_a_change_by_another_program_offers_a_reload(
    window: MainWindow,
    build_file: Path,
    monkeypatch: pytest.MonkeyPatch,
    qtbot,  # noqa: ANN001
) -> None:
    window.files.open_path(build_file, ask=False)
    asked = click_in_box(monkeypatch, "Reload")
    save(load(build_file).model_copy(update={"name": "Written by another program"}), build_file)
    qtbot.waitUntil(lambda: window.doc.build.name == "Written by another program", timeout=5000)
    assert len(asked) == 1 and "changed by another program" in asked[0] and "Reload it to see" in asked[0]
    # Its own saves never ask.
    window.doc.rename("Mine")
    assert window.files.save()
    # A barrier instead of a sleep: the guard re-watches the folder after its own save, so the save's own events
    # may or may not be reported; a file written later in the same folder is reported after them (inotify keeps
    # order), so once it is, whatever the save caused has been delivered and handled.
    with qtbot.waitSignal(window.files.guard.watcher.directoryChanged, timeout=5000):
        (build_file.parent / "barrier.txt").write_text("later", "utf-8")
    assert len(asked) == 1 and load(build_file).name == "Mine"


def test_keeping_unsaved_edits_after_an_outside_change_then_saving_asks(
    window: MainWindow,
    build_file: Path,
    monkeypatch: pytest.MonkeyPatch,
    qtbot,  # noqa: ANN001
) -> None:
    window.files.open_path(build_file, ask=False)
    window.doc.rename("My unsaved edit")
    asked = click_in_box(monkeypatch, "Cancel", "Keep my version")
    save(load(build_file).model_copy(update={"name": "Outside"}), build_file)
    qtbot.waitUntil(lambda: len(asked) == 1, timeout=5000)
    assert "lose your unsaved changes" in asked[0]
    assert window.doc.build.name == "My unsaved edit"
    assert not window.files.save()  # the save asks; Cancel
    assert "changed by another window or program" in asked[1] and load(build_file).name == "Outside"


def test_a_deleted_file_is_reported_and_watched_again_when_it_comes_back(
    window: MainWindow,
    build_file: Path,
    monkeypatch: pytest.MonkeyPatch,
    qtbot,  # noqa: ANN001
) -> None:
    window.files.open_path(build_file, ask=False)
    asked = click_in_box(monkeypatch, "Reload")
    text = build_file.read_bytes()
    # Both watches report the deletion (the file's and its folder's) before it comes back.
    with qtbot.waitSignals([window.files.guard.watcher.fileChanged, window.files.guard.watcher.directoryChanged]):
        build_file.unlink()  # no reload offer for a file that is not there
    qtbot.waitUntil(lambda: "was deleted or moved" in window.statusBar().currentMessage(), timeout=5000)
    assert asked == []
    build_file.write_bytes(text.replace(b"Budget single-GPU learner", b"Put back by another program"))
    qtbot.waitUntil(lambda: window.doc.build.name == "Put back by another program", timeout=5000)
    assert len(asked) == 1


# --- 3. backups and write-protected files ---------------------------------------------------------------------------


def test_a_backup_that_fails_is_reported_not_hidden(
    window: MainWindow, build_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    window.files.open_path(build_file, ask=False)
    build_file.with_name(build_file.name + ".bak").mkdir()  # the backup cannot be written there
    warnings = record(monkeypatch, "warning")
    window.doc.rename("Second")
    assert window.files.save()
    assert load(build_file).name == "Second"
    assert len(warnings) == 1 and warnings[0][0] == "Saved without a backup"
    assert "could not be written" in warnings[0][1] and "previous backup is kept" in warnings[0][1]
    assert "without a backup" in window.statusBar().currentMessage()


@pytest.mark.skipif(os.name != "posix", reason="POSIX permission bits")
def test_a_write_protected_file_is_replaced_only_after_asking(
    window: MainWindow, build_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    window.files.open_path(build_file, ask=False)
    os.chmod(build_file, 0o444)
    window.doc.rename("Second")
    asked = record(monkeypatch, "question", Button.No)
    assert not window.files.save()
    assert "write-protected" in asked[0][1] and load(build_file).name != "Second"
    asked = record(monkeypatch, "question", Button.Yes)
    assert window.files.save()
    assert load(build_file).name == "Second" and stat.S_IMODE(build_file.stat().st_mode) == 0o444


# --- 7. special files -------------------------------------------------------------------------------------


def _within(seconds: float, call: Callable[[], object]) -> object:
    """Run `call`; fail (instead of hanging the suite) if it has not returned in time."""
    result: list[object] = []
    t = threading.Timer(seconds, lambda: os._exit(99) if not result else None)  # a blocked open cannot be undone
    t.start()
    try:
        result.append(call())
    finally:
        t.cancel()
    return result[0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_opening_or_saving_onto_a_fifo_is_refused_without_blocking(
    window: MainWindow, tmp_path: Path, examples_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fifo = tmp_path / "pipe.rigplan.yaml"
    os.mkfifo(fifo)
    warnings = record(monkeypatch, "warning")
    assert _within(20, lambda: window.files.open_path(fifo, ask=False)) is False
    assert warnings[-1][0] == "Cannot open build" and "named pipe (FIFO)" in warnings[-1][1]
    window.files.open_path(examples_dir / "budget-1-gpu.rigplan", ask=False)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(fifo), ""))
    assert _within(20, window.files.save_as) is False
    assert warnings[-1][0] == "Cannot save" and "named pipe (FIFO)" in warnings[-1][1]
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.endswith(".ini")) == ["pipe.rigplan.yaml"]


# --- 8, 9: numbers that reached inf ---------------------------------------------------------------------


def test_huge_figures_are_refused_and_the_largest_allowed_keep_the_chart_finite(
    window: MainWindow,
    examples_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    qtbot,  # noqa: ANN001
) -> None:
    warnings = record(monkeypatch, "warning")
    assert not window.files.open_path(DATA / "bad" / "huge-storage.rigplan.yaml", ask=False)  # an infinite range before
    assert not window.files.open_path(DATA / "bad" / "huge-price.rigplan.yaml", ask=False)  # "Total: $inf" before
    assert "storage_gb" in warnings[0][1] and "less than or equal to" in warnings[1][1]
    window.files.open_path(examples_dir / "budget-1-gpu.rigplan", ask=False)
    a = window.doc.build.assumptions.model_copy(update={"storage_gb": 1e8, "storage_per_gb_month": 1e4})
    window.doc.set_assumptions(a)
    show_tab(qtbot, window.tabs, "Costs")
    window.costs.ensure_charts()
    vb = window.costs.chart("breakeven").widget.getPlotItem().vb

    def finite_range() -> bool:
        (x0, x1), (y0, y1) = vb.viewRange()
        return all(math.isfinite(v) for v in (x0, x1, y0, y1)) and y1 > y0

    qtbot.waitUntil(finite_range)


def test_a_typed_price_beyond_the_limit_is_refused(
    window: MainWindow, examples_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    window.files.open_path(examples_dir / "budget-1-gpu.rigplan", ask=False)
    before = window.doc.build
    warnings = record(monkeypatch, "warning")
    window._price_edited(0, 1e308)  # what the build table sends for a typed "1e308"
    assert window.doc.build == before
    assert warnings == [("Price", "A price must be a number from 0 to 1,000,000,000.")]
    assert "Total: $" in window.build_panel.total.text() and "inf" not in window.build_panel.total.text()


# --- 2 + 1: a recovered build does not overwrite what changed on disk after its autosave -------------------------


def test_saving_a_recovered_build_asks_if_its_file_changed_after_the_autosave(
    catalog: Catalog,
    offers: OfferCatalog,
    perf: PerfTable,
    build_file: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    qtbot,  # noqa: ANN001
) -> None:
    from rigplan.gui.files.recovery import RecoveryDialog

    data = tmp_path / "data"
    crashed = MainWindow(
        catalog, offers, perf, QSettings(str(tmp_path / "a.ini"), QSettings.Format.IniFormat), None, data
    )
    qtbot.addWidget(crashed, before_close_func=lambda w: w.doc.undo_stack.setClean())
    crashed.files.open_path(build_file, ask=False)
    crashed.doc.rename("Unsaved when it crashed")
    crashed.autosave.save_now()
    assert crashed.autosave.store is not None
    crashed.autosave.store.lock.release()  # the process died: the OS dropped its lock, the autosave stays
    crashed.autosave.timer.stop()
    save(load(build_file).model_copy(update={"name": "Saved elsewhere after the crash"}), build_file)

    def recover(dlg: RecoveryDialog) -> int:
        dlg.show()  # exec's modal loop is the test's; the dialog is on screen and its button clicked
        qtbot.waitExposed(dlg)
        click(qtbot, dlg.recover_button)
        return dlg.result()

    monkeypatch.setattr(RecoveryDialog, "exec", recover)
    w = MainWindow(catalog, offers, perf, QSettings(str(tmp_path / "b.ini"), QSettings.Format.IniFormat), None, data)
    qtbot.addWidget(w, before_close_func=lambda w: w.doc.undo_stack.setClean())
    assert w.autosave.offer_recovery()
    assert w.doc.build.name == "Unsaved when it crashed" and w.doc.path == build_file
    shown = click_in_box(monkeypatch, "Cancel", "Keep my version", "Not now")
    assert not w.files.save()
    assert any("changed by another window or program" in s for s in shown)
    assert load(build_file).name == "Saved elsewhere after the crash"  # silently overwritten before
