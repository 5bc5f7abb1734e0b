"""Issue 24 in the window: data shown as typed (never HTML), a start-up that degrades but never dies, the paste
parser off the GUI thread, and a quit after a cancelled stuck update that exits cleanly.

"What the user sees" of a string Qt may take for rich text (a tooltip, a message box) is computed the way Qt does:
Qt::mightBeRichText, then the text of the HTML document. A name `<b>x</b>` must read `<b>x</b>`, not a bold x, and
`<img src="file://...">` must never load a local file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from gui_helpers import edit_cell, paste_into, show_tab
from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtGui import Qt as QtGuiNs
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QMessageBox

from rigplan.catalog import Catalog
from rigplan.cloud.offers import OfferCatalog
from rigplan.costs.perf import PerfTable
from rigplan.exports.plan import make_plan
from rigplan.gui.compare.compare_view import CompareView
from rigplan.gui.imports.import_actions import import_price_path
from rigplan.gui.imports.import_dialog import PasteListDialog, ReviewMatchesDialog
from rigplan.gui.mainwindow import MainWindow
from rigplan.imports.list_import import match_list
from rigplan.imports.pcpartpicker import MAX_TEXT
from rigplan.imports.user_prices import apply_to_catalog, restore_in_catalog
from rigplan.kinds import Kind
from rigplan.model import Build, BuildItem, Price
from rigplan.model.build import ChartOffer
from rigplan.model.offers import Offer
from rigplan.model.parts import PART_ADAPTER

ROOT = Path(__file__).resolve().parents[2]
BOLD = "<b>x</b>"
IMG = '<img src="file:///etc/hostname">'
RTX_4090_FE = "7b22a20f-74d2-4855-85d2-b4674da07de1"


def seen(text: str | None) -> str:
    """What Qt shows for `text` where it guesses the format (tooltips, message boxes, AutoText labels)."""
    if not text:
        return ""
    if QtGuiNs.mightBeRichText(text):
        doc = QTextDocument()
        doc.setHtml(text)
        return doc.toPlainText()
    return text


def literal(text: str | None, *data: str) -> bool:
    shown = seen(text)
    return all(d in shown for d in data)


def custom(name: str, n: int = 0):  # noqa: ANN201
    return PART_ADAPTER.validate_python({"kind": "storage", "id": f"custom-h{n}", "name": name, "custom": True})


@pytest.fixture
def hostile_window(qtbot, catalog: Catalog, offers: OfferCatalog, perf: PerfTable, tmp_path: Path) -> MainWindow:  # noqa: ANN001
    """A window whose cloud catalog holds one offer with a hostile name and no known speed (so the Costs summary
    names it), and whose build holds parts with hostile names and price sources."""
    bad = Offer(
        id="aws:<b>x</b>:us-east-1",
        provider="aws",
        instance_type=BOLD + IMG,
        region="us-east-1",
        gpu_model=None,
        ondemand_usd_h=1.0,
        source=IMG,
    )
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(catalog, OfferCatalog([*offers.offers, bad]), perf, settings)
    qtbot.addWidget(w, before_close_func=lambda w: w.doc.undo_stack.setClean())
    w.show()
    qtbot.waitExposed(w)
    items = (
        BuildItem(part=custom(BOLD, 1), price_override=Price(amount=10.0, source=IMG)),
        BuildItem(part=custom(IMG, 2), price_override=Price(amount=20.0, source=BOLD)),
    )
    w.doc.edit(Build(name=BOLD, items=items, comparison=(ChartOffer(offer=bad.id),)), "hostile")
    return w


def test_build_panel_tooltips_show_names_and_sources_as_typed(hostile_window: MainWindow) -> None:
    t = hostile_window.build_panel.table
    rows = {t.item(r, 1).text(): r for r in range(t.rowCount()) if t.item(r, 1)}
    r_bold = next(r for name, r in rows.items() if name.startswith(BOLD))
    r_img = next(r for name, r in rows.items() if name.startswith(IMG))
    assert literal(t.item(r_bold, 1).toolTip(), BOLD)
    t.setCurrentCell(r_bold, 1)  # the Remove button under the table names the selected line (issue 40)
    assert literal(hostile_window.build_panel.remove.toolTip(), f"Remove {BOLD}")
    assert literal(t.item(r_bold, 3).toolTip(), IMG)  # the price's source
    assert literal(t.item(r_img, 1).toolTip(), IMG)
    assert literal(t.item(r_img, 3).toolTip(), BOLD)
    name = hostile_window.build_header.name
    assert name.text() == BOLD and name.textFormat() == Qt.TextFormat.PlainText  # the label draws it as typed
    assert literal(name.toolTip(), BOLD)  # and its tooltip, where Qt guesses the format


def test_costs_summary_and_its_tooltip_show_offer_names_as_typed(qtbot, hostile_window: MainWindow) -> None:  # noqa: ANN001
    w = hostile_window
    show_tab(qtbot, w.tabs, "Costs")
    qtbot.waitUntil(lambda: w.costs.report is not None)
    html = w.costs.summary.text()  # rich text, for its layout: every piece of data in it escaped
    assert literal(html, "AWS " + BOLD + IMG + " (on-demand)")  # named by its instance (its GPU is unknown), whole
    assert "<img" not in html and "<b>x</b>" not in html
    assert literal(w.costs.summary.toolTip(), "AWS " + BOLD + '<img src="file')


def test_picker_your_price_tooltip_shows_the_source_as_typed(window: MainWindow) -> None:
    catalog = window.catalog
    apply_to_catalog(catalog, {RTX_4090_FE: Price(amount=1.0, source=IMG + BOLD)})
    try:
        model = window.picker.model_for(Kind.GPU)
        row = catalog.table(Kind.GPU).ids.index(RTX_4090_FE)
        tip = model.data(model.index(row, model.price_col), Qt.ItemDataRole.ToolTipRole)
        assert literal(tip, "your price: " + IMG + BOLD)
    finally:
        restore_in_catalog(catalog, [RTX_4090_FE])


def test_compare_view_shows_build_and_part_names_as_typed(qtbot, examples_dir: Path) -> None:  # noqa: ANN001
    view = CompareView()
    qtbot.addWidget(view)
    base = Build(name=BOLD, items=(BuildItem(part=custom(IMG, 1), price_override=Price(amount=5.0)),))
    other = Build(name=IMG, items=(BuildItem(part=custom(BOLD, 2), price_override=Price(amount=6.0)),))
    assert view.add_plan(make_plan(base)) and view.add_plan(make_plan(other))
    tables = [view.parts, view.figures]
    tips = [seen(t.item(r, c).toolTip()) for t in tables for r in range(t.rowCount()) for c in range(t.columnCount())]
    assert any(IMG in x for x in tips) and any(BOLD in x for x in tips)
    heads = [view.parts.horizontalHeaderItem(c).text() for c in range(view.parts.columnCount())]
    assert BOLD in heads and IMG in heads
    assert view.message.textFormat() == Qt.TextFormat.PlainText


def test_import_review_dialog_shows_list_names_as_typed(qtbot, catalog: Catalog) -> None:  # noqa: ANN001
    text = f"CPU: {BOLD} Processor  ($10.00 @ {IMG})\nVideo Card: {IMG} 24 GB  ($5.00 @ shop)\n"
    dlg = ReviewMatchesDialog(match_list(text, catalog))
    qtbot.addWidget(dlg)
    names = [dlg.table.item(r, 1) for r in range(dlg.table.rowCount())]
    assert [n.text() for n in names] == [f"{BOLD} Processor", f"{IMG} 24 GB"]
    assert literal(names[0].toolTip(), BOLD) and literal(names[1].toolTip(), IMG)


def test_message_boxes_show_file_data_as_typed(window: MainWindow, tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "information", lambda parent, title, text: shown.append(text))
    f = tmp_path / "p.csv"
    f.write_text(f"{BOLD} {IMG},12.50,USD\n")
    import_price_path(window, f, "catalog")
    assert len(shown) == 1 and literal(shown[0], BOLD, IMG)  # the unmatched row, named as typed


# --- the paste parser off the GUI thread --------------------------------------------------------------------------


def test_a_huge_paste_is_parsed_off_the_gui_thread(qtbot, catalog: Catalog) -> None:  # noqa: ANN001
    dlg = PasteListDialog(catalog)
    qtbot.addWidget(dlg)
    line = "Video Card: NVIDIA GeForce RTX 4090 24 GB Video Card  ($1,599.99 @ Best Buy)\n"
    dlg.show()
    qtbot.waitExposed(dlg)
    paste_into(qtbot, dlg.text, (line * (MAX_TEXT // len(line)))[:MAX_TEXT])  # Ctrl+V, as the user pastes a list
    ticks = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(time.monotonic()))
    timer.start(20)
    qtbot.mouseClick(dlg.buttons.button(dlg.buttons.StandardButton.Ok), Qt.MouseButton.LeftButton)
    # The click returned before the list was matched: the work runs in a thread (no clock: the machine may be slow).
    assert dlg.busy and dlg.imported is None and dlg.error.text() == "Matching parts..."
    qtbot.waitUntil(lambda: dlg.imported is not None or not dlg.busy, timeout=120_000)
    timer.stop()
    assert ticks  # the GUI thread turned while the list was matched (how often depends on the machine's load)
    assert dlg.imported is not None and len(dlg.imported.lines) == MAX_TEXT // len(line)


# --- start-up degrades, never dies --------------------------------------------------------------------------------

PROBE = r"""
import json, sys
from pathlib import Path
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
app = QApplication([])
from rigplan.gui.app import run_gui
def probe():
    wins = [w for w in app.topLevelWidgets() if w.__class__.__name__ == "MainWindow"]
    if not wins or not hasattr(wins[0], "doc") or not wins[0].doc.path:
        QTimer.singleShot(50, probe)
        return
    w = wins[0]
    w.doc.rename("edited after a bad start")
    w.autosave.save_now()
    store = w.autosave.store
    files = sorted(str(p) for p in Path(store.folder).glob("autosave-*")) if store else []
    print(json.dumps({"name": w.doc.build.name, "path": str(w.doc.path), "problems": w.startup_problems,
                      "label": w.problem_label.text() if w.problem_label else "", "autosaves": files,
                      "interval": w.autosave.timer.interval()}), flush=True)
    w.doc.undo_stack.setClean()
    w.close()
    app.quit()
QTimer.singleShot(0, probe)
sys.exit(run_gui([sys.argv[1]]))
"""


def _run_gui(tmp_path: Path, build: Path) -> tuple[dict, subprocess.CompletedProcess[str]]:
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "TMPDIR": str(tmp_path / "tmp"),
    }
    (tmp_path / "tmp").mkdir(exist_ok=True)
    out = subprocess.run(
        [sys.executable, "-c", PROBE, str(build)], capture_output=True, text=True, env=env, timeout=300, cwd=ROOT
    )
    assert out.returncode == 0, out.stderr[-3000:]
    assert "Traceback" not in out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1]), out


def test_a_corrupt_data_folder_and_settings_still_open_the_file_and_autosave(tmp_path: Path) -> None:
    data = tmp_path / "data" / "RigPlan"
    (data / "prices").mkdir(parents=True)
    (data / "user-prices.json").write_text("[" * 200_000 + "]" * 200_000)  # deeply nested
    (data / "prices" / "cloud-prices.json").write_text("[]")
    conf = tmp_path / "config" / "RigPlan"
    conf.mkdir(parents=True)
    (conf / "RigPlan.conf").write_text(
        "[autosave]\nseconds=abc\n\n[window]\ngeometry=garbage\nstate=@ByteArray(not a state)\n"
        "splitter=@ByteArray(nor a splitter)\n\n[costs]\nassumptions_shown=maybe\n"
    )
    build = tmp_path / "b.rigplan"
    build.write_bytes((ROOT / "examples" / "2x-rtx-4090.rigplan").read_bytes())
    got, _ = _run_gui(tmp_path, build)
    assert got["path"] == str(build) and got["name"] == "edited after a bad start"  # the command-line file opened
    assert got["autosaves"], "autosave did not happen"
    assert got["interval"] == 60_000  # the default, not 'abc'
    problems = got["problems"]
    assert all("\n" not in p for p in problems)
    text = " | ".join(problems)
    assert "user-prices.json" in text and "nested too deeply" in text and "moved aside" in text
    assert "cloud-prices.json" in text
    for key in ("autosave/seconds", "window/geometry", "window/state", "window/splitter", "costs/assumptions_shown"):
        assert f"setting {key} = " in text, key
    assert got["label"] == "; ".join(problems)  # in the status bar, one line each
    moved = sorted(p.name.split(".corrupt-")[0] for p in data.rglob("*.corrupt-*"))
    assert moved == ["cloud-prices.json", "user-prices.json"]
    log = (data / "logs" / "rigplan.log").read_text()
    assert "user-prices.json" in log and "autosave/seconds" in log


def test_a_data_folder_that_is_a_file_still_opens_the_file_and_autosaves(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "RigPlan").write_text("a file where the data folder should be")
    build = tmp_path / "b.rigplan"
    build.write_bytes((ROOT / "examples" / "2x-rtx-4090.rigplan").read_bytes())
    got, _ = _run_gui(tmp_path, build)
    assert got["path"] == str(build)
    assert got["autosaves"] and all(str(tmp_path / "tmp") in a for a in got["autosaves"])  # the fallback folder
    assert any("cannot autosave in" in p for p in got["problems"])
    assert list((tmp_path / "tmp").glob("rigplan-*/logs/rigplan.log"))  # the fallback log


QUIT = r"""
import sys
import threading
sys.path.insert(0, sys.argv[2])
from pathlib import Path
from PySide6.QtCore import QSettings, QTimer
from PySide6.QtWidgets import QApplication, QProgressDialog
app = QApplication([])
from prices_server import serve
from rigplan.gui import jobs
from rigplan.gui.app import create_window
# The server holds its answer until 2 s after the application starts quitting (this slot runs before the one that
# waits for the jobs, connected later): the quit begins with the download's thread blocked on the stuck read,
# whatever the load, and a quit that did not wait for it would destroy it while it runs; the wait ends 2 s later
# instead of at the server's own 10 s.
released = threading.Event()
def quitting():
    print("download threads running at quit:", len(jobs.live_jobs()), flush=True)
    threading.Timer(2.0, released.set).start()
app.aboutToQuit.connect(quitting)
w = create_window(QSettings(sys.argv[1] + "/s.ini", QSettings.Format.IniFormat), data=Path(sys.argv[1]))
w.show()
with serve("timeout", release=released) as (url, _):
    w.prices.url, w.prices.providers = url, ("aws",)
    w.prices.act_update.trigger()
    def cancel():
        if w.prices.job is None or not w.prices.job.running():
            QTimer.singleShot(20, cancel)
            return
        w.findChild(QProgressDialog).cancel()
        QTimer.singleShot(100, lambda: (w.close(), app.quit()))
    QTimer.singleShot(0, cancel)
    rc = app.exec()
    print("quit with the download still waiting:", bool(w.prices.job is None), flush=True)
sys.exit(rc)
"""


def test_quitting_after_cancelling_a_stuck_update_exits_cleanly(tmp_path: Path) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "XDG_DATA_HOME": str(tmp_path / "xdg")}
    out = subprocess.run(
        [sys.executable, "-c", QUIT, str(tmp_path), str(ROOT / "tests")],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        cwd=ROOT,
    )
    assert out.returncode == 0, out.stderr[-2000:]  # an abort (SIGABRT) was -6
    assert "QThread: Destroyed while thread is still running" not in out.stderr
    assert "download threads running at quit: 1" in out.stdout  # the quit waited for a thread still stuck
    assert "quit with the download still waiting: True" in out.stdout


def test_a_typed_price_goes_through_the_one_number_parser(qtbot, window: MainWindow, monkeypatch) -> None:  # noqa: ANN001
    warnings: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text: warnings.append(text))
    window.doc.add_part(window.catalog.get(RTX_4090_FE))
    t = window.build_panel.table
    row = next(r for r in range(t.rowCount()) if t.item(r, 1) and t.item(r, 1).text().startswith("NVIDIA"))
    edit_cell(qtbot, t, row, 3, "1.234,56")  # a decimal comma, as typed in Germany
    assert window.doc.build.items[0].price_override.amount == pytest.approx(1234.56)
    for bad in ("1,2,3", "-5", "1e308", "nan"):  # "1,2,3" was stored as 123.00
        t = window.build_panel.table
        edit_cell(qtbot, t, row, 3, bad)
        assert window.doc.build.items[0].price_override.amount == pytest.approx(1234.56)
    assert len(warnings) == 4
