"""Crash recovery end to end: a RigPlan with unsaved edits is killed; the next start offers them back."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from gui_helpers import click
from PySide6.QtCore import QSettings

from rigplan.cloud.offers import load_offers
from rigplan.costs.perf import load_perf
from rigplan.gui.files.recovery import RecoveryDialog
from rigplan.gui.mainwindow import MainWindow
from rigplan.model import Kind

ROOT = Path(__file__).resolve().parents[2]

EDITOR = """
import sys, tempfile
from pathlib import Path
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
from rigplan.gui.app import create_window
from rigplan.model import Kind
app = QApplication([])
w = create_window(QSettings(tempfile.mkdtemp() + "/s.ini", QSettings.Format.IniFormat), Path(sys.argv[1]))
w.show()
w.files.open_path(Path(sys.argv[2]), ask=False)
w.doc.set_quantity(w.doc.index_of_kind(Kind.STORAGE), 3)   # the edits that must survive
w.doc.rename("Edited then killed")
w.autosave.save_now()                                            # what the 60 s timer does
print("autosaved", flush=True)
app.exec()
"""


@pytest.mark.skipif(os.name != "posix", reason="SIGKILL is POSIX")
def test_edit_kill_restart_recover(qtbot, catalog, tmp_path: Path, examples_dir: Path, monkeypatch) -> None:  # noqa: ANN001
    data = tmp_path / "data"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    proc = subprocess.Popen(
        [sys.executable, "-c", EDITOR, str(data), str(examples_dir / "budget-1-gpu.rigplan")],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
    )
    assert proc.stdout is not None
    deadline = time.time() + 60
    line = ""
    while time.time() < deadline and "autosaved" not in line:
        line = proc.stdout.readline()
    assert "autosaved" in line
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert list((data / "autosave").glob("autosave-*.rigplan"))

    shown: list[list[str]] = []

    def choose_recover(dlg: RecoveryDialog) -> int:
        shown.append([dlg.list.item(i).text() for i in range(dlg.list.count())])
        dlg.show()  # exec's modal loop is the test's; the dialog is on screen and its button clicked
        qtbot.waitExposed(dlg)
        click(qtbot, dlg.recover_button)
        return dlg.result()

    monkeypatch.setattr(RecoveryDialog, "exec", choose_recover)
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    w = MainWindow(catalog, load_offers(), load_perf(), settings, None, data)
    qtbot.addWidget(w, before_close_func=lambda w: w.doc.undo_stack.setClean())
    assert w.autosave.offer_recovery() is True
    assert len(shown) == 1 and "Edited then killed" in shown[0][0] and "parts" in shown[0][0]
    assert w.doc.build.name == "Edited then killed"
    storage = w.doc.build.of_kind(Kind.STORAGE)
    assert storage and storage[0].quantity == 3
    assert w.isWindowModified()  # recovered edits are unsaved until the user saves them
    # The recovered file was taken over by this instance's own autosave.
    assert w.autosave.store is not None and w.autosave.store.file.exists()
    assert w.autosave.store.orphans() == []


def test_normal_close_removes_the_autosave(qtbot, catalog, tmp_path: Path, examples_dir: Path) -> None:  # noqa: ANN001
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    w = MainWindow(catalog, load_offers(), load_perf(), settings, None, tmp_path / "data")
    qtbot.addWidget(w)
    w.files.open_path(examples_dir / "budget-1-gpu.rigplan", ask=False)
    w.doc.rename("Changed")
    w.autosave.save_now()
    assert w.autosave.store is not None and w.autosave.store.file.exists()
    w.doc.undo_stack.setClean()
    assert not w.autosave.store.file.exists()  # saving (a clean stack) drops the autosave
    w.doc.rename("Changed again")
    w.autosave.save_now()
    w.doc.undo_stack.setClean()
    w.close()
    assert not list((tmp_path / "data" / "autosave").glob("autosave-*"))
