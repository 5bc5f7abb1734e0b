"""Issue 18: the window saves NAME.rigplan, still opens .rigplan.yaml and .yaml builds, and opens the file of a
QFileOpenEvent (what macOS sends for a double-click in Finder, at launch and while RigPlan runs)."""

from __future__ import annotations

import shutil
from pathlib import Path

from gui_helpers import choose
from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QFileOpenEvent
from PySide6.QtWidgets import QApplication, QFileDialog

from rigplan.files import load
from rigplan.gui.files.file_open import FileOpenHandler
from rigplan.gui.mainwindow import MainWindow


def save_as(qtbot, window: MainWindow, monkeypatch, typed: Path) -> dict:  # noqa: ANN001
    """Save As, with the dialog answering `typed`; returns what the dialog was asked."""
    asked: dict = {}

    def dialog(parent, caption, suggested, filters):  # noqa: ANN001, ANN202
        asked.update(suggested=suggested, filters=filters)
        return str(typed), ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", dialog)
    choose(qtbot, window, window.menus.save_as)
    return asked


def test_save_as_suggests_and_writes_name_dot_rigplan(
    qtbot, window: MainWindow, monkeypatch, examples_dir: Path, tmp_path
):  # noqa: ANN001
    window.files.open_example(examples_dir / "budget-1-gpu.rigplan")
    monkeypatch.setattr(window.files, "last_dir", lambda: str(tmp_path))
    asked = save_as(qtbot, window, monkeypatch, tmp_path / "my box")  # the user typed a name without an extension
    assert asked["suggested"] == str(tmp_path / f"{window.doc.build.name}.rigplan")
    assert asked["filters"].startswith("RigPlan build (*.rigplan)")
    saved = tmp_path / "my box.rigplan"
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix != ".ini") == ["my box.rigplan"]
    assert window.doc.path == saved and "my box.rigplan" in window.windowTitle()
    assert saved.read_text("utf-8").startswith("format: rigplan-build\n")  # still YAML inside
    assert load(saved) == window.doc.build


def test_a_name_typed_with_yaml_keeps_it(qtbot, window: MainWindow, monkeypatch, examples_dir: Path, tmp_path):  # noqa: ANN001
    window.files.open_example(examples_dir / "budget-1-gpu.rigplan")
    save_as(qtbot, window, monkeypatch, tmp_path / "shared.rigplan.yaml")
    assert window.doc.path == tmp_path / "shared.rigplan.yaml" and load(window.doc.path) == window.doc.build


def test_old_names_still_open(window: MainWindow, examples_dir: Path, tmp_path: Path) -> None:
    for name in ("old.rigplan.yaml", "plain.yaml", "short.yml"):
        shutil.copy(examples_dir / "2x-rtx-4090.rigplan", tmp_path / name)
        window.files.new_build()
        assert window.files.open_path(tmp_path / name, ask=False)
        assert window.doc.build.name == "2x RTX 4090 workstation" and window.doc.path == tmp_path / name
        assert name in window.windowTitle()


def test_open_dialog_lists_new_and_old_names(window: MainWindow, monkeypatch, examples_dir: Path) -> None:  # noqa: ANN001
    asked: list[str] = []
    monkeypatch.setattr(
        QFileDialog,
        "getOpenFileName",
        lambda *a: (asked.append(a[3]), (str(examples_dir / "budget-1-gpu.rigplan"), ""))[1],
    )
    window.files.open_dialog()
    assert asked[0].startswith("RigPlan builds (*.rigplan *.rigplan.yaml *.yaml *.yml)")
    assert window.doc.build.name == load(examples_dir / "budget-1-gpu.rigplan").name


def test_file_open_event_opens_the_build_in_the_running_window(window: MainWindow, examples_dir: Path, tmp_path):  # noqa: ANN001
    handler = FileOpenHandler(window)
    try:
        window.showMinimized()
        target = examples_dir / "4-gpu-threadripper.rigplan"
        assert QCoreApplication.sendEvent(QApplication.instance(), QFileOpenEvent(str(target)))
        assert window.doc.path == target and window.doc.build.name == load(target).name
        assert not window.isMinimized()  # brought back to the front
        old = tmp_path / "older.rigplan.yaml"
        shutil.copy(examples_dir / "budget-1-gpu.rigplan", old)
        QCoreApplication.sendEvent(QApplication.instance(), QFileOpenEvent(str(old)))
        assert window.doc.path == old and window.doc.build.name == load(old).name
    finally:
        QApplication.instance().removeEventFilter(handler)


def test_file_open_event_for_a_bad_file_keeps_the_build_and_says_why(
    window: MainWindow, monkeypatch, examples_dir: Path, tmp_path: Path
) -> None:  # noqa: ANN001
    handler = FileOpenHandler(window)
    try:
        window.files.open_path(examples_dir / "budget-1-gpu.rigplan", ask=False)
        bad = tmp_path / "notes.rigplan"
        bad.write_text("just: some\nother: yaml\n", "utf-8")
        told: list[str] = []
        monkeypatch.setattr("rigplan.gui.files.files_controller.QMessageBox.warning", lambda *a: told.append(a[2]))
        QCoreApplication.sendEvent(QApplication.instance(), QFileOpenEvent(str(bad)))
        assert len(told) == 1 and str(bad) in told[0] and "Traceback" not in told[0]
        assert window.doc.path == examples_dir / "budget-1-gpu.rigplan"
    finally:
        QApplication.instance().removeEventFilter(handler)
