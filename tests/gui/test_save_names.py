"""Issue 40: Save As proposed "Suggested: 15,000 GBP budget.rigplan" (':' is invalid on Windows); the name offered
now suits every platform, in Save As and in File > Export."""

from __future__ import annotations

from pathlib import Path

import pytest
from gui_helpers import choose
from PySide6.QtWidgets import QFileDialog

from rigplan.files.names import file_stem
from rigplan.gui.mainwindow import MainWindow

WINDOWS_BAD = set('<>:"/\\|?*')


@pytest.mark.parametrize(
    ("name", "stem"),
    [
        ("Suggested: 15,000 GBP budget", "Suggested - 15,000 GBP budget"),
        ('4x "3090" <test>?', "4x -3090- -test-"),
        ("a/b\\c", "a-b-c"),
        ("CON", "CON_"),
        ("lpt1.x", "lpt1.x_"),
        ("My build. ", "My build"),
        ("  ...  ", "build"),
    ],
)
def test_file_stem(name: str, stem: str) -> None:
    assert file_stem(name) == stem
    assert not WINDOWS_BAD & set(stem) and not stem.endswith((".", " "))


def test_save_as_and_export_offer_a_name_windows_accepts(
    qtbot, window: MainWindow, monkeypatch, tmp_path: Path
) -> None:  # noqa: ANN001
    build = window.doc.build.model_copy(update={"name": "Suggested: 15,000 GBP budget"})
    window.doc.edit(build, "Rename")
    offered: list[str] = []

    def dialog(_parent, _title, start, _filter):  # noqa: ANN001, ANN202
        offered.append(start)
        return "", ""  # the user cancels: nothing is written

    monkeypatch.setattr(QFileDialog, "getSaveFileName", dialog)
    choose(qtbot, window, window.menus.save_as)  # File > Save As...
    window.exporter.ask_path("md", "Markdown (*.md)", ".md")
    names = [Path(p).name for p in offered]
    assert names == ["Suggested - 15,000 GBP budget.rigplan", "Suggested - 15,000 GBP budget.md"]
