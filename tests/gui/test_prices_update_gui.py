"""Cloud prices > Update in the real window, against a local 127.0.0.1 server (tests/prices_server.py): the progress
dialog, the offers table and the "prices as of" line after the update, cancel, a failure, and revert."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from gui_helpers import choose, show_tab
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QMessageBox, QProgressDialog, QPushButton

from rigplan.gui import jobs
from rigplan.gui.costs.offers_model import COL_DATE, COL_INSTANCE, COL_OD, COL_REGION
from rigplan.gui.mainwindow import MainWindow

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from prices_server import serve  # noqa: E402


@pytest.fixture
def pwindow(qtbot, catalog, offers, perf, tmp_path: Path, monkeypatch) -> MainWindow:  # noqa: ANN001
    warnings: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text: warnings.append(text))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))  # the prices folder (rigplan.cloud.cachepath)
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(catalog, offers, perf, settings, data_dir=tmp_path / "data")
    w.warnings = warnings  # type: ignore[attr-defined]
    qtbot.addWidget(w, before_close_func=lambda w: w.doc.undo_stack.setClean())
    w.show()
    qtbot.waitExposed(w)
    show_tab(qtbot, w.tabs, "Costs")
    return w


def _row(w: MainWindow, instance: str, region: str) -> dict[int, str]:
    m = w.costs.offers_panel.model
    for r in range(m.rowCount()):
        if m.data(m.index(r, COL_INSTANCE)) == instance and m.data(m.index(r, COL_REGION)) == region:
            return {c: m.data(m.index(r, c)) for c in (COL_OD, COL_DATE)}
    raise AssertionError(f"{instance} {region} not in the table")


def test_update_shows_progress_then_new_dated_prices(qtbot, pwindow: MainWindow) -> None:  # noqa: ANN001
    w = pwindow
    panel = w.costs.offers_panel
    assert "bundled snapshot" in panel.as_of.text()
    assert _row(w, "g4dn.xlarge", "us-east-1")[COL_DATE] == "after 2025-06"
    labels: list[str] = []
    with serve() as (url, asked):
        w.prices.url, w.prices.providers = url, ("aws", "lambdalabs")
        with qtbot.waitSignal(w.prices.done, timeout=30000) as done:
            choose(qtbot, w, w.prices.act_update)  # Cloud prices > Update
            dialog = w.findChild(QProgressDialog)
            assert dialog is not None and dialog.isVisible() and dialog.windowTitle() == "Updating cloud prices"
            w.prices.job.progress.connect(lambda _done, _total, text: labels.append(text))
    assert any("/v3/aws/" in p for p in asked)
    assert "aws: reading the catalog" in labels  # the core's progress lines reached the dialog's label
    assert done.args[0].startswith("Cloud prices updated:") and "2026-11-01" in done.args[0]
    assert w.findChild(QProgressDialog) is None or not w.findChild(QProgressDialog).isVisible()
    row = _row(w, "g4dn.xlarge", "us-east-1")
    assert row == {COL_OD: "$0.53/h", COL_DATE: "2026-11-01"}
    assert "prices as of 2026-11-01 (aws, gcp" not in panel.as_of.text()  # only the providers fetched
    assert "prices as of 2026-11-01 (aws, azure, gcp, lambda)" not in panel.as_of.text()
    assert "updated" in panel.as_of.text() and "2026-11-01" in panel.as_of.text()
    assert w.prices.act_revert.isEnabled()
    assert w.statusBar().currentMessage().startswith("Cloud prices updated")

    choose(qtbot, w, w.prices.act_revert)
    assert "bundled snapshot" in panel.as_of.text()
    assert _row(w, "g4dn.xlarge", "us-east-1")[COL_DATE] == "after 2025-06"
    assert not w.prices.act_revert.isEnabled()


def test_cancel_keeps_the_old_prices(qtbot, pwindow: MainWindow) -> None:  # noqa: ANN001
    w = pwindow
    with serve("timeout") as (url, _):
        w.prices.url, w.prices.providers = url, ("aws", "lambdalabs")
        with qtbot.waitSignal(w.prices.done, timeout=40000) as done:
            choose(qtbot, w, w.prices.act_update)  # Cloud prices > Update
            dialog = w.findChild(QProgressDialog)
            qtbot.waitUntil(lambda: w.prices.job is not None and w.prices.job.running())
            qtbot.mouseClick(dialog.findChild(QPushButton), Qt.MouseButton.LeftButton)  # its Cancel button
    assert done.args[0] == "Price update cancelled; the prices in use are unchanged"
    assert not dialog.isVisible()
    qtbot.waitUntil(lambda: not jobs.live_jobs(), timeout=30000)  # the abandoned download's thread ends too
    assert w.warnings == []  # a cancel is not an error to shout about
    assert _row(w, "g4dn.xlarge", "us-east-1")[COL_DATE] == "after 2025-06"
    assert w.prices.act_update.isEnabled()


def test_broken_catalog_warns_in_one_line_and_keeps_prices(qtbot, pwindow: MainWindow) -> None:  # noqa: ANN001
    w = pwindow
    with serve("wrong-columns") as (url, _):
        w.prices.url, w.prices.providers = url, ("aws", "lambdalabs")
        with qtbot.waitSignal(w.prices.done, timeout=30000):
            choose(qtbot, w, w.prices.act_update)  # Cloud prices > Update
    assert len(w.warnings) == 1 and "columns missing" in w.warnings[0] and "\n" not in w.warnings[0]
    assert "bundled snapshot" in w.costs.offers_panel.as_of.text()
    assert _row(w, "g4dn.xlarge", "us-east-1")[COL_DATE] == "after 2025-06"


def test_menu_lists_the_three_actions(pwindow: MainWindow) -> None:
    menus = {a.text(): a.menu() for a in pwindow.menuBar().actions()}
    texts = [a.text() for a in menus["Cloud &prices"].actions() if not a.isSeparator()]
    assert texts == ["&Update prices from the internet...", "&Import a price file...", "&Revert to bundled prices"]
    assert list(menus)[-1] == "&Help"


def test_import_a_skypilot_file_from_the_menu(qtbot, pwindow: MainWindow, monkeypatch) -> None:  # noqa: ANN001
    from PySide6.QtWidgets import QFileDialog

    path = Path(__file__).resolve().parents[1] / "data" / "skypilot" / "aws" / "vms.csv"
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    w = pwindow
    with qtbot.waitSignal(w.prices.done, timeout=30000) as done:
        choose(qtbot, w, w.prices.act_import)
    assert done.args[0].startswith("Cloud prices updated: 2 offers")
    # the file has no date: the table says so rather than guessing one
    assert _row(w, "g4dn.xlarge", "us-east-1") == {COL_OD: "$0.53/h", COL_DATE: "date unknown"}
    assert "SkyPilot vms.csv" in w.costs.offers_panel.as_of.text()
    assert w.warnings == []


def test_unreadable_cache_is_said_and_bundled_prices_used(qtbot, catalog, perf, tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    from rigplan.cloud.cachepath import cache_file, prices_home

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    data = prices_home()
    cache_file(data).parent.mkdir(parents=True)
    cache_file(data).write_text("{not json", "utf-8")
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(catalog, None, perf, settings, data_dir=tmp_path / "data")  # offers None: it loads them
    qtbot.addWidget(w, before_close_func=lambda w: w.doc.undo_stack.setClean())
    text = w.costs.offers_panel.as_of.text()
    assert "bundled snapshot" in text and "unreadable" in text
    assert _row(w, "g4dn.xlarge", "us-east-1")[COL_DATE] == "after 2025-06"


def test_a_job_that_fails_while_its_progress_is_shown_does_not_crash(qtbot, pwindow: MainWindow) -> None:  # noqa: ANN001
    """The modal progress dialog's setValue runs queued events; a job that fails right after a progress report
    used to have its dialog closed and deleted inside that setValue (a segmentation fault in the suite). Many
    quick failing jobs, each reporting progress to the end: the window survives and warns once per job."""
    from rigplan.cloud.fetch import PriceUpdateError

    w = pwindow

    def work(progress, cancelled):  # noqa: ANN001, ANN202
        for i in range(200):
            progress(i / 200, f"step {i}")
        raise PriceUpdateError("the server went away")

    for n in range(15):
        with qtbot.waitSignal(w.prices.done, timeout=30000):
            w.prices._start("Stress", work)  # noqa: SLF001 - the path both menu actions take
        assert len(w.warnings) == n + 1 and w.warnings[-1] == "the server went away"
        assert w.prices.dialog is None and w.prices.act_update.isEnabled()
    qtbot.waitUntil(lambda: not jobs.live_jobs(), timeout=30000)


def test_offline_update_says_so_and_which_prices_stay(qtbot, pwindow: MainWindow) -> None:  # noqa: ANN001
    """Issue 29: with no connection, one plain sentence: no internet connection, and the prices still in use (no
    URL, no errno). A closed local port stands in for the missing network (connection refused)."""
    import socket

    w = pwindow
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    w.prices.url, w.prices.providers = f"http://127.0.0.1:{port}/catalog", ("aws",)
    with qtbot.waitSignal(w.prices.done, timeout=30000) as done:
        choose(qtbot, w, w.prices.act_update)  # Cloud prices > Update
    expected = "No internet connection; the bundled prices (from after 2025-06) are still in use."
    assert done.args == [expected] and w.warnings == [expected]
    assert "http" not in w.warnings[0] and "Errno" not in w.warnings[0]
