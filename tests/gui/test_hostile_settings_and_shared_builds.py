"""Issue 35 in the window: a settings file with 100,000 recent files, a settings file that is a folder, and a shared
build whose workload names a config.json that is a FIFO (it froze the window when opened)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings

from rigplan.catalog import Catalog
from rigplan.cloud.offers import OfferCatalog
from rigplan.costs.perf import PerfTable
from rigplan.files import load, save
from rigplan.gui.mainwindow import MainWindow
from rigplan.gui.settings import MAX_RECENT

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "2x-rtx-4090.rigplan"


def open_window(qtbot, catalog: Catalog, offers: OfferCatalog, perf: PerfTable, settings: QSettings) -> MainWindow:  # noqa: ANN001
    w = MainWindow(catalog, offers, perf, settings)
    qtbot.addWidget(w, before_close_func=lambda w: w.doc.undo_stack.setClean())
    w.show()
    qtbot.waitExposed(w)
    return w


def test_a_settings_file_with_100000_recent_files_starts_fast_with_a_short_menu(
    qtbot,  # noqa: ANN001
    catalog: Catalog,
    offers: OfferCatalog,
    perf: PerfTable,
    tmp_path: Path,
) -> None:
    """It froze start-up for about 110 s: every entry became a menu item. Now the list is trimmed as it is read."""
    path = tmp_path / "settings.ini"
    writer = QSettings(str(path), QSettings.Format.IniFormat)
    # a hostile settings file, written by hand: no user can type 100,000 recent files
    writer.setValue("files/recent", [f"/nowhere/build-{i:06d}.rigplan" for i in range(100_000)])
    writer.sync()
    del writer
    assert path.stat().st_size > 2_000_000
    start = time.monotonic()
    w = open_window(qtbot, catalog, offers, perf, QSettings(str(path), QSettings.Format.IniFormat))
    took = time.monotonic() - start
    items = [a.text() for a in w.menus.recent_menu.actions()]
    assert len(items) == MAX_RECENT == 8
    assert items[0] == "/nowhere/build-000000.rigplan"  # the newest first, as stored
    assert took < 20, took  # about 3 s here for the whole window; 110 s before
    w.settings.sync()
    stored = QSettings(str(path), QSettings.Format.IniFormat).value("files/recent")
    assert len(stored) == MAX_RECENT  # stored back trimmed: the next start reads 8


def test_a_settings_file_that_is_a_folder_is_said_once(
    qtbot,  # noqa: ANN001
    catalog: Catalog,
    offers: OfferCatalog,
    perf: PerfTable,
    tmp_path: Path,
) -> None:
    folder = tmp_path / "settings.ini"
    folder.mkdir()
    w = open_window(qtbot, catalog, offers, perf, QSettings(str(folder), QSettings.Format.IniFormat))
    said = [p for p in w.startup_problems if "settings and recent files will not be kept" in p]
    assert said == [f"the settings file {folder} is a folder: settings and recent files will not be kept"]
    assert w.problem_label is not None and said[0] in w.problem_label.text()
    assert w.files.open_path(EXAMPLE, ask=False)  # and the window works
    assert folder.is_dir() and list(folder.iterdir()) == []


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_opening_a_build_whose_workload_config_is_a_fifo_never_freezes_the_window(tmp_path: Path) -> None:
    """Hang guard: the real app (its smoke mode, Costs tab and workload shown) opens the build in a subprocess with a
    timeout (before the fix it never printed READY: the workload panel read the FIFO)."""
    from rigplan.model.workload import WorkloadSpec

    os.mkfifo(tmp_path / "config.json")
    build = tmp_path / "shared.rigplan"
    save(load(EXAMPLE).model_copy(update={"workload": WorkloadSpec(model=str(tmp_path / "config.json"))}), build)
    env = {**os.environ, "RIGPLAN_SMOKE_TEST": "charts", "QT_QPA_PLATFORM": "offscreen", "XDG_DATA_HOME": str(tmp_path)}
    run = subprocess.run(
        [sys.executable, "-m", "rigplan", str(build)], capture_output=True, text=True, timeout=90, env=env, cwd=ROOT
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "RIGPLAN READY" in run.stdout and "Traceback" not in run.stderr
