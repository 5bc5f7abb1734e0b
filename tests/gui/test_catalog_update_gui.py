"""Parts catalog > Update in the real window (issue 38): each end of the job (the change summary then the switch,
a failure, cancel, the window closed meanwhile), the About box's dates, and Edit > Correct a value... on the
picker's part with the tooltip naming the user's source. The shipped catalog is a reduced real one
(tests/reduced_parts.py, RIGPLAN_PARTS_DIR pointing at it; the window opens on it), so an update converts about 1,860
parts through the same code; the archives are built from it."""

from __future__ import annotations

import json
import os
import sys
import tarfile
from pathlib import Path
from typing import Any

import pytest
from gui_helpers import choose, click_cell, pick, type_into
from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtWidgets import QApplication, QDialog, QMessageBox, QProgressDialog, QPushButton

from rigplan.gui import jobs
from rigplan.gui.catalog.correct_dialog import CorrectDialog
from rigplan.gui.catalog.update_dialog import SummaryDialog
from rigplan.gui.mainwindow import MainWindow
from rigplan.model.parts import Kind

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import opendb_archive as oa  # noqa: E402

GPU = "08690e09-bcad-4acd-99d9-72f0093db590"  # Asus TUF Gaming OG OC GeForce RTX 4090, 326 mm shipped


pytestmark = pytest.mark.usefixtures("shipped_is_reduced")


@pytest.fixture(scope="module")
def archive(reduced_catalog, tmp_path_factory: pytest.TempPathFactory) -> Path:  # noqa: ANN001
    records = oa.shipped_records(reduced_catalog)
    path = tmp_path_factory.mktemp("archives") / "opendb.tar.gz"
    return oa.build(path, records, edit=lambda k, r: {**r, "length": 341} if r["opendb_id"] == GPU else r)


@pytest.fixture
def cwindow(qtbot, reduced_catalog, offers, perf, tmp_path: Path, monkeypatch) -> MainWindow:  # noqa: ANN001
    warnings: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text: warnings.append(text))
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(reduced_catalog, offers, perf, settings, data_dir=tmp_path / "data")
    w.warnings = warnings  # type: ignore[attr-defined]
    qtbot.addWidget(w, before_close_func=lambda w: w.doc.undo_stack.setClean())
    w.show()
    qtbot.waitExposed(w)
    return w


def _state() -> Path:
    return Path(os.environ["XDG_DATA_HOME"]) / "RigPlan" / "catalog" / "state.json"


def _gpu_row(w: MainWindow) -> int:
    w.picker.set_kind(Kind.GPU)  # a lookup helper (no qtbot): the kind is set up, not the behaviour under test
    return w.picker.catalog.table(Kind.GPU).ids.index(GPU)


def _length_shown(w: MainWindow) -> Any:
    model = w.picker.model_for(Kind.GPU)
    col = next(i for i, c in enumerate(model.columns) if c[0] == "Length")
    return model.data(model.index(_gpu_row(w), col)), model.data(model.index(_gpu_row(w), col), Qt.ToolTipRole)


@pytest.mark.slow
def test_update_shows_the_changes_then_switches_on_request(qtbot, cwindow: MainWindow, archive: Path) -> None:  # noqa: ANN001
    w = cwindow
    assert _length_shown(w)[0] == "326 mm"
    shown: list[SummaryDialog] = []
    w.menus.catalog_updates.summary_shown.connect(shown.append)
    with qtbot.waitSignal(w.menus.catalog_updates.done, timeout=240_000) as read:
        w.menus.catalog_updates.start(archive)
        dialog = w.findChild(QProgressDialog)
        assert dialog is not None and dialog.isVisible() and dialog.windowTitle() == "Updating the parts catalog"
    assert read.args[0] == "Catalog update read; see what changes"
    (summary,) = shown
    text = summary.text.toPlainText()
    assert "OpenDB @0123456 of 2026-09-21" in summary.heading.text()
    (line,) = [x.strip() for x in text.splitlines() if x.strip().startswith("length_mm on 1 gpu")]
    assert line.startswith("length_mm on 1 gpu, Asus TUF Gaming OG OC GeForce RTX 4090 24GB GDDR6X: 326 -> 341 [")
    assert "gpu-length" in line, line
    assert not _state().exists()  # nothing switched while the summary is open
    with qtbot.waitSignal(w.menus.catalog_updates.done, timeout=120_000) as switched:
        qtbot.mouseClick(summary.switch, Qt.MouseButton.LeftButton)
    assert switched.args[0].startswith(
        "Parts catalog switched: parts: BuildCores OpenDB @0123456 (2026-09-21), updated"
    )
    assert _length_shown(w)[0] == "341 mm"
    assert w.catalog.about["commit"] == oa.COMMIT
    # Revert to the shipped catalog from the menu: the shipped value is back.
    with qtbot.waitSignal(w.menus.catalog_updates.done, timeout=60_000):
        choose(qtbot, w, w.menus.catalog_updates.act_shipped)  # Parts catalog > Revert to the shipped
    assert _length_shown(w)[0] == "326 mm"
    assert w.menus.catalog_updates.act_previous.isEnabled() and not w.menus.catalog_updates.act_shipped.isEnabled()


def test_a_hostile_archive_fails_in_one_line_and_changes_nothing(qtbot, cwindow: MainWindow, tmp_path: Path) -> None:  # noqa: ANN001
    w = cwindow
    top = f"buildcores-open-db-{oa.COMMIT}"

    def link(tar: tarfile.TarFile) -> None:
        oa.add(tar, f"{top}/open-db/GPU/x.json", b"", type=tarfile.SYMTYPE, linkname="/etc/passwd")

    path = oa.build(tmp_path / "hostile.tar.gz", {}, hostile=link)
    with qtbot.waitSignal(w.menus.catalog_updates.done, timeout=60_000) as failed:
        w.menus.catalog_updates.start(path)
    assert failed.args[0] == f"hostile.tar.gz: refused, '{top}/open-db/GPU/x.json' is a link"
    assert w.warnings == [failed.args[0]]  # type: ignore[attr-defined]
    assert not _state().exists() and _length_shown(w)[0] == "326 mm"
    assert w.menus.catalog_updates.act_update.isEnabled()


@pytest.mark.slow
def test_cancel_stops_the_update_and_keeps_the_catalog(qtbot, cwindow: MainWindow, archive: Path) -> None:  # noqa: ANN001
    w = cwindow
    with qtbot.waitSignal(w.menus.catalog_updates.done, timeout=30_000) as done:
        w.menus.catalog_updates.start(archive)
        job = w.menus.catalog_updates.job
        dialog = w.findChild(QProgressDialog)
        qtbot.mouseClick(dialog.findChild(QPushButton), Qt.MouseButton.LeftButton)  # its Cancel button
    assert done.args[0] == "Catalog update cancelled; the catalog in use is unchanged"
    assert job is not None
    qtbot.waitUntil(lambda: not job.running(), timeout=120_000)
    assert not _state().exists() and _length_shown(w)[0] == "326 mm"
    assert w.menus.catalog_updates.job is None and w.menus.catalog_updates.act_update.isEnabled()


@pytest.mark.slow
def test_closing_the_window_during_an_update_stops_it(
    qtbot, reduced_catalog, offers, perf, tmp_path: Path, archive: Path
) -> None:  # noqa: ANN001
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(reduced_catalog, offers, perf, settings, data_dir=tmp_path / "data")
    w.show()
    qtbot.waitExposed(w)
    w.menus.catalog_updates.start(archive)
    job = w.menus.catalog_updates.job
    assert job is not None and job.running()
    w.doc.undo_stack.setClean()
    w.close()
    w.deleteLater()
    qtbot.waitUntil(lambda: job not in jobs.live_jobs(), timeout=120_000)
    assert job.is_cancelled() and not _state().exists()


def test_about_names_the_parts_snapshot_and_the_price_dates(qtbot, cwindow: MainWindow, monkeypatch) -> None:  # noqa: ANN001
    seen: list[str] = []
    monkeypatch.setattr(QMessageBox, "about", lambda parent, title, text: seen.append(text))
    choose(qtbot, cwindow, cwindow.menus.about)
    assert "parts: BuildCores OpenDB @136a77a (2026-08-17), shipped; part prices 2025-07-23" in seen[0]
    assert f"cloud prices: {cwindow.costs.offers.origin}</p>" in seen[0]  # the prices in use, as the Costs tab says


def _accept_when_shown(qtbot, fill) -> None:  # noqa: ANN001
    def go() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, CorrectDialog):
            QTimer.singleShot(50, go)
            return
        fill(dialog)

    QTimer.singleShot(0, go)


def test_correct_a_value_from_the_edit_menu(qtbot, cwindow: MainWindow) -> None:  # noqa: ANN001
    w = cwindow
    pick(qtbot, w.picker.kind_box, data=Kind.GPU)
    row = w.picker.proxy.mapFromSource(w.picker.model_for(Kind.GPU).index(_gpu_row(w), 0))
    click_cell(qtbot, w.picker.view, row.row())  # the part under the picker's cursor
    problems: list[str] = []

    def fill(d: CorrectDialog) -> None:
        pick(qtbot, d.field, data="length_mm")
        qtbot.keyClicks(d.value, "long")
        qtbot.keyClicks(d.source, "ASUS spec page")
        qtbot.mouseClick(d.buttons.buttons()[0], Qt.MouseButton.LeftButton)  # OK: refused, the dialog stays
        problems.append(d.problem.text())
        type_into(qtbot, d.value, "304")  # what was typed selected and typed over
        qtbot.mouseClick(d.buttons.buttons()[0], Qt.MouseButton.LeftButton)  # OK

    _accept_when_shown(qtbot, fill)
    choose(qtbot, w, w.menus.correct)  # Edit > Correct a value...
    assert problems == ["gpu.length_mm: Input should be a valid number, unable to parse string as a number"]
    text, tooltip = _length_shown(w)
    assert text == "304 mm" and tooltip == "your correction (ASUS spec page); the catalog said 326"
    kept = json.dumps(w.catalog.user_corrections[(GPU, "length_mm")].as_dict())
    assert '"source": "ASUS spec page"' in kept


def test_correct_a_value_without_a_part_says_what_to_do(qtbot, cwindow: MainWindow) -> None:  # noqa: ANN001
    # set-up, not the behaviour under test: no current part (a click cannot take the cursor off the list)
    cwindow.picker.view.setCurrentIndex(cwindow.picker.proxy.index(-1, -1))
    choose(qtbot, cwindow, cwindow.menus.correct)
    assert "Pick a part in the list first" in cwindow.statusBar().currentMessage()
    assert not isinstance(QApplication.activeModalWidget(), QDialog)
