"""Every bad file opened in the GUI: a message naming the problem, no traceback, the current build untouched."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox

from rigplan.cloud.offers import load_offers
from rigplan.costs.perf import load_perf
from rigplan.gui.mainwindow import MainWindow

ROOT = Path(__file__).resolve().parents[2]
BAD = sorted((ROOT / "tests" / "data" / "bad").glob("*.rigplan.yaml"))


def test_each_bad_file_shows_a_message(qtbot, catalog, tmp_path: Path, examples_dir: Path, monkeypatch) -> None:  # noqa: ANN001
    messages: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text, *a, **k: messages.append(text))
    monkeypatch.setattr(QMessageBox, "critical", lambda *a, **k: pytest.fail("critical dialog: a crash"))
    hooked: list[BaseException] = []
    monkeypatch.setattr(sys, "excepthook", lambda t, v, tb: hooked.append(v))
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    w = MainWindow(catalog, load_offers(), load_perf(), settings)
    qtbot.addWidget(w, before_close_func=lambda w: w.doc.undo_stack.setClean())
    w.files.open_path(examples_dir / "2x-rtx-4090.rigplan", ask=False)
    good = w.doc.build
    big = tmp_path / "big.rigplan.yaml"
    big.write_bytes(b"format: rigplan-build\nnotes: '" + b"x" * (11 * 1024 * 1024) + b"'\n")
    paths = [*BAD, big, tmp_path, tmp_path / "missing.rigplan.yaml"]
    for path in paths:
        assert w.files.open_path(path, ask=False) is False
        assert w.doc.build == good  # the open build is untouched
    assert len(messages) == len(paths)
    assert all(m and "Traceback" not in m for m in messages)
    assert any("line 6, column 1" in m for m in messages)
    assert any("limited to 10 MB" in m for m in messages)
    assert any("this is a folder" in m for m in messages)
    assert hooked == []
