"""An unexpected exception reaches the log, not the user's screen as a traceback; the app goes on."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtWidgets import QMessageBox


def test_exception_hook_logs_and_shows_a_short_dialog(qtbot, tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    from rigplan.gui.crash import install_exception_hook

    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "critical", lambda parent, title, text, *a, **k: shown.append(text))
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)  # restored after the test
    import threading

    monkeypatch.setattr(threading, "excepthook", threading.excepthook)
    log = install_exception_hook(tmp_path / "logs")
    try:
        raise ValueError("boom in a slot")
    except ValueError:
        sys.excepthook(*sys.exc_info())
    assert len(shown) == 1
    assert "ValueError: boom in a slot" in shown[0] and str(log) in shown[0] and "autosaved" in shown[0]
    assert "Traceback" not in shown[0]
    text = log.read_text("utf-8")
    assert "Traceback (most recent call last)" in text and "boom in a slot" in text
    # Qt's own warnings go to the same log.
    from PySide6.QtCore import qWarning

    qWarning("a Qt warning for the log")
    assert "a Qt warning for the log" in log.read_text("utf-8")
    from PySide6.QtCore import qInstallMessageHandler

    qInstallMessageHandler(None)  # give Qt messages back to pytest-qt for the tests that follow
