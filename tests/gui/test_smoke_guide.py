"""The frozen smoke test's guide check (rigplan.gui.smoke_guide, packaging/smoke_test.py): it opens the guide through
the action on the Help key (F1) and fails when the guide is missing, when F1 opens nothing, or when the first page is
empty. The frozen run itself is recorded in docs/packaging.md; here the same check runs from the checkout."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtGui import QKeySequence

from rigplan.gui.mainwindow import MainWindow
from rigplan.gui.smoke_guide import guide_smoke_line, help_key_action

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "resources" / "guide"


def make(qtbot, catalog, offers, perf, tmp_path: Path, guide: Path | None) -> MainWindow:  # noqa: ANN001
    w = MainWindow(catalog, offers, perf, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat), guide)
    qtbot.addWidget(w, before_close_func=lambda w: w.doc.undo_stack.setClean())
    w.show()
    qtbot.waitExposed(w)
    return w


def test_the_guide_line_reads_the_opened_page(qtbot, catalog, offers, perf, tmp_path: Path) -> None:  # noqa: ANN001
    w = make(qtbot, catalog, offers, perf, tmp_path, GUIDE)
    assert help_key_action(w) is w.menus.docs  # the Help menu's "RigPlan user guide", on F1 here
    line = guide_smoke_line(w)
    m = re.fullmatch(r"GUIDE OK pages=(\d+) first='Getting started' file=(\S+) chars=(\d+) images=(\d+)", line)
    assert m, line
    assert int(m.group(1)) == len(list(GUIDE.glob("*.md"))) == 8
    assert Path(m.group(2)) == GUIDE / "1-getting-started.md"
    assert int(m.group(3)) == len(w.docs_dialog.view.toPlainText().strip()) >= 500
    shown = (GUIDE / "1-getting-started.md").read_text("utf-8").count("](images/")
    assert int(m.group(4)) == shown == 2  # both screenshots of the first page were found and decoded


def test_no_guide_or_no_f1_fails(qtbot, catalog, offers, perf, tmp_path: Path) -> None:  # noqa: ANN001
    w = make(qtbot, catalog, offers, perf, tmp_path, None)  # a copy without resources/guide
    assert guide_smoke_line(w) == "GUIDE FAIL no guide pages: resources/guide is missing from this copy"
    w2 = make(qtbot, catalog, offers, perf, tmp_path, GUIDE)
    w2.menus.docs.setShortcuts([QKeySequence("Ctrl+H")])  # the guide moved off F1
    assert guide_smoke_line(w2) == "GUIDE FAIL no single action on the Help key (F1) in the main window"
    assert getattr(w2, "docs_dialog", None) is None


def test_smoke_mode_prints_the_guide_line() -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "RIGPLAN_SMOKE_TEST": "1", "RIGPLAN_SMOKE_GUIDE": "1"}
    run = subprocess.run(
        [sys.executable, "-m", "rigplan", str(ROOT / "examples" / "2x-rtx-4090.rigplan")],
        capture_output=True, text=True, timeout=120, env=env, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].startswith("RIGPLAN READY parts=")
    assert lines[1].startswith("GUIDE OK pages=8 first='Getting started'")
