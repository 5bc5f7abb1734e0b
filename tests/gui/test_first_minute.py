"""A new user's first minute (issue 13 item 7): how to start, the example builds, the build's name in view."""

from __future__ import annotations

from gui_helpers import choose, press
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QInputDialog

from rigplan.gui.mainwindow import MainWindow


def test_empty_build_shows_how_to_start_and_opens_an_example(qtbot, window: MainWindow) -> None:  # noqa: ANN001
    header = window.build_header
    assert header.start.isVisible()
    assert len(header.example_buttons) == 3
    button = next(b for b in header.example_buttons if "2x RTX 4090" in b.text())
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert window.doc.build.name == "2x RTX 4090 workstation" and len(window.doc.build.items) > 5
    assert window.doc.path is None  # a copy: saving asks where, the example stays as shipped
    assert not header.start.isVisible()
    assert header.name.text() == "2x RTX 4090 workstation"
    assert window.windowTitle().startswith("2x RTX 4090 workstation")


def test_file_menu_offers_the_examples(qtbot, window: MainWindow) -> None:  # noqa: ANN001
    actions = window.menus.examples_menu.actions()
    assert {a.text() for a in actions} >= {"Budget single-GPU learner", "4-GPU Threadripper workstation"}
    choose(qtbot, window, next(a for a in actions if a.text() == "Budget single-GPU learner"))  # File > Open Example
    assert window.doc.build.name == "Budget single-GPU learner"


def test_rename_shows_at_once_in_title_and_header(qtbot, window: MainWindow, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("My lab box", True))
    press(qtbot, window, "F2")  # Edit > Rename build..., by its key
    assert window.doc.build.name == "My lab box"
    assert window.windowTitle().startswith("My lab box") and window.build_header.name.text() == "My lab box"
    press(qtbot, window, "Ctrl+Z")  # Edit > Undo
    assert window.windowTitle().startswith("Untitled build")
