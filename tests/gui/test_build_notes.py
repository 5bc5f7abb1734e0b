"""Issue 29: the build's notes are edited in the window, saved in the file's `notes:` and undoable as one edit."""

from __future__ import annotations

from pathlib import Path

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
    window.doc.undo_stack.undo()
    assert window.doc.build.notes == before and window.notes.toPlainText() == before
    window.doc.undo_stack.setClean()
    assert window.files.open_path(target, ask=False)
    assert window.notes.toPlainText() == "Quote from shop A, valid to Friday"
