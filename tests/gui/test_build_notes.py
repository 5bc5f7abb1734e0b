"""Issue 29: the build's notes are edited in the window, saved in the file's `notes:` and undoable as one edit."""

from __future__ import annotations

from pathlib import Path

from gui_helpers import choose
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor

from rigplan.files import load, save
from rigplan.gui.mainwindow import MainWindow

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "2x-rtx-4090.rigplan"


def test_notes_are_saved_with_the_build_and_undoable(window: MainWindow, qtbot, tmp_path: Path) -> None:  # noqa: ANN001
    assert window.files.open_path(EXAMPLE, ask=False)
    before = window.doc.build.notes
    window.notes.setFocus()
    window.notes.selectAll()
    qtbot.keyClicks(window.notes, "Quote from shop A, valid to Friday")
    qtbot.waitUntil(lambda: window.doc.build.notes == "Quote from shop A, valid to Friday", timeout=3000)
    assert window.doc.undo_stack.undoText() == "Edit notes" and window.doc.is_modified()
    target = tmp_path / "noted.rigplan"
    save(window.doc.build, target)
    assert load(target).notes == "Quote from shop A, valid to Friday"
    assert "Quote from shop A" in target.read_text("utf-8")
    choose(qtbot, window, window.menus.undo)  # Edit > Undo
    assert window.doc.build.notes == before and window.notes.toPlainText() == before
    window.doc.undo_stack.setClean()
    assert window.files.open_path(target, ask=False)
    assert window.notes.toPlainText() == "Quote from shop A, valid to Friday"


def test_long_notes_are_never_cut_when_typed_at_the_end_saved_and_reloaded(
    window: MainWindow,
    qtbot,  # noqa: ANN001
    tmp_path: Path,
) -> None:
    """Issue 35: a build whose notes were 30,180 characters lost the last 10,180 (and what was typed) on the first
    edit, because the box kept the first 20,000. Real keys typed at the end, saved through the window, reloaded."""
    long_notes = "".join(f"line {i:05d}: quote, delivery, check <b>&amp;</b> \u00e9\n" for i in range(700))[:30_180]
    assert len(long_notes) == 30_180
    source = tmp_path / "long.rigplan"
    save(load(EXAMPLE).model_copy(update={"notes": long_notes}), source)
    assert window.files.open_path(source, ask=False)
    assert window.notes.toPlainText() == long_notes
    window.notes.setFocus()
    window.notes.moveCursor(QTextCursor.MoveOperation.End)
    qtbot.keyClicks(window.notes, " typed at the end")
    qtbot.keyClick(window.notes, Qt.Key.Key_Tab)  # focus leaves the box (tab changes focus): the edit is committed
    want = long_notes + " typed at the end"
    qtbot.waitUntil(lambda: window.doc.build.notes == want, timeout=3000)
    assert window.notes.toPlainText() == want
    window.files.save()
    assert load(source).notes == want
    window.doc.undo_stack.setClean()
    assert window.files.open_path(source, ask=False)
    assert window.notes.toPlainText() == want and len(window.doc.build.notes) == 30_197


def test_notes_over_the_models_limit_are_refused_with_a_message_not_cut(
    window: MainWindow,
    qtbot,  # noqa: ANN001
    monkeypatch,  # noqa: ANN001
) -> None:
    """The box and the model share one limit (model.build.MAX_NOTES); beyond it the text stays in the box, the
    build keeps its notes, and the status bar says why. The limit is lowered here so the test types a few keys."""
    from rigplan.gui.parts import build_notes
    from rigplan.model.build import MAX_NOTES, Build

    assert build_notes.notes_limit() == MAX_NOTES == Build.model_fields["notes"].metadata[0].max_length
    assert window.files.open_path(EXAMPLE, ask=False)
    monkeypatch.setattr(build_notes, "notes_limit", lambda: 10)
    before = window.doc.build.notes
    window.notes.setFocus()
    window.notes.selectAll()
    qtbot.keyClicks(window.notes, "twelve chars")
    window.notes.commit()
    assert window.notes.toPlainText() == "twelve chars"  # nothing cut in the box
    assert window.doc.build.notes == before  # and nothing half-kept in the build
    assert "Notes are limited to 10 characters and these are 12" in window.statusBar().currentMessage()
    qtbot.keyClick(window.notes, Qt.Key.Key_Backspace)
    qtbot.keyClick(window.notes, Qt.Key.Key_Backspace)
    window.notes.commit()
    assert window.doc.build.notes == "twelve cha"
