"""File > Export driven through its actions on a real window menu: every format lands in the chosen file with the
same content as `rigplan export`, the dialog remembers its folder, Copy puts the Markdown on the clipboard, and a
failed write is one message."""

from __future__ import annotations

from pathlib import Path

import pytest
from gui_helpers import choose, click, pick, run_dialog, type_into
from PySide6.QtCore import QSettings
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFileDialog, QMainWindow, QMessageBox

from rigplan.exports.markdown import to_markdown
from rigplan.exports.plan import make_plan
from rigplan.exports.tables import costs_csv, parts_csv
from rigplan.files import load
from rigplan.gui.exports.export_actions import FORMATS, LAST_DIR_KEY, ImageOptions, install_export_menu
from rigplan.gui.settings import EXPORT_WIDTH, Settings
from rigplan.model.assumptions import Pricing

ROOT = Path(__file__).resolve().parents[2]
TWO_GPU = ROOT / "examples" / "2x-rtx-4090.rigplan"


@pytest.fixture
def setup(qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # noqa: ANN001, ANN201
    for name in ("warning", "information", "critical"):
        monkeypatch.setattr(QMessageBox, name, lambda *a, **k: pytest.fail(f"unexpected message: {a[1:3]}"))
    settings = Settings(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    win = QMainWindow()
    qtbot.addWidget(win)
    menu = win.menuBar().addMenu("&File")
    quit_action = menu.addAction("Quit")
    build = load(TWO_GPU)
    chosen = [("aws:g5.xlarge:us-east-1", Pricing.SPOT)]
    ex = install_export_menu(win, menu, quit_action, lambda: build, lambda: chosen, settings)
    win.show()  # its menus are opened with the mouse
    qtbot.waitExposed(win)
    return win, menu, ex, settings, build, chosen


def save_to(monkeypatch: pytest.MonkeyPatch, path: Path, asked: list[str]) -> None:
    def fake(parent, title, start, filt):  # noqa: ANN001, ANN202 - the user types a file name in the dialog
        asked.append(start)
        return str(path), filt

    monkeypatch.setattr(QFileDialog, "getSaveFileName", fake)


def test_menu_lists_every_format_before_quit(setup) -> None:  # noqa: ANN001
    win, menu, ex, *_ = setup
    texts = [a.text() for a in menu.actions()]
    assert texts[:3] == ["&Export", "Cop&y parts list as Markdown", "Co&mpare builds…"] and texts[-1] == "Quit"
    assert [a.text() for a in ex.menu.actions()] == [f[0] for f in FORMATS]


def test_text_exports_write_the_cli_content_and_remember_the_folder(
    qtbot, setup, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # noqa: ANN001
    win, menu, ex, settings, build, chosen = setup
    plan = make_plan(build, chosen)
    asked: list[str] = []
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    for action, expected, name in zip(
        ex.menu.actions()[:3],
        (to_markdown(plan), parts_csv(plan), costs_csv(plan)),
        ("a", "b.csv", "c.csv"),
        strict=True,
    ):
        save_to(monkeypatch, out_dir / name, asked)
        choose(qtbot, win, action)
        written = ex.last_written
        assert written.suffix in (".md", ".csv") and written.read_text("utf-8") == expected
    assert (out_dir / "a.md").exists()  # the suffix is added when the name lacks it
    # issue 29 (deliberate change): the first dialog opens in a real folder (here: no build file, so Documents or
    # home), never the program's working folder; and each export is confirmed in the status bar
    assert Path(asked[0]).name == "2x RTX 4090 workstation.md" and Path(asked[0]).parent.is_dir()
    assert Path(asked[0]).is_absolute()
    assert win.statusBar().currentMessage() == f"Exported to {ex.last_written}"
    assert asked[1] == str(out_dir / "2x RTX 4090 workstation.csv")  # the folder of the last export
    assert settings.get(LAST_DIR_KEY) == str(out_dir)
    assert "aws:g5.xlarge:us-east-1 spot (USD)" in (out_dir / "c.csv").read_text("utf-8").splitlines()[0]


def test_first_export_opens_in_the_builds_folder(qtbot, setup, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: ANN001
    win, menu, ex, *_ = setup
    ex.source = lambda: TWO_GPU  # the open build's file
    asked: list[str] = []
    save_to(monkeypatch, tmp_path / "x.md", asked)
    choose(qtbot, win, ex.menu.actions()[0])
    assert Path(asked[0]) == TWO_GPU.parent / "2x RTX 4090 workstation.md"


def test_pdf_and_png_through_the_menu(qtbot, setup, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: ANN001
    win, menu, ex, settings, *_ = setup
    save_to(monkeypatch, tmp_path / "r.pdf", [])
    choose(qtbot, win, ex.menu.actions()[3])
    assert (tmp_path / "r.pdf").read_bytes().startswith(b"%PDF")

    def accept_options(dlg: ImageOptions) -> None:  # the user types 800 x 400 at 192 dpi and presses OK
        type_into(qtbot, dlg.width_box, "800")
        type_into(qtbot, dlg.height_box, "400")
        type_into(qtbot, dlg.dpi_box, "192")
        pick(qtbot, dlg.chart, "Cost at the horizon")
        click(qtbot, dlg.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok))

    monkeypatch.setattr(ImageOptions, "exec", lambda dlg: run_dialog(qtbot, dlg, accept_options))
    save_to(monkeypatch, tmp_path / "chart.png", [])
    choose(qtbot, win, ex.menu.actions()[4])
    from PySide6.QtGui import QImage

    img = QImage(str(tmp_path / "chart.png"))
    assert (img.width(), img.height(), round(img.dotsPerMeterX() * 0.0254)) == (800, 400, 192)
    assert settings.get(EXPORT_WIDTH) == 800  # the next export starts from the same size
    again = ImageOptions(None, "png", settings)
    assert (again.width_box.value(), again.height_box.value(), again.dpi_box.value()) == (800, 400, 192)


def test_copy_markdown_and_failed_write(qtbot, setup, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: ANN001
    win, menu, ex, settings, build, chosen = setup
    choose(qtbot, win, ex.copy_action)
    assert QGuiApplication.clipboard().text() == to_markdown(make_plan(build, chosen))
    messages: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text: messages.append(text))
    save_to(monkeypatch, tmp_path / "missing-dir" / "x.md", [])
    choose(qtbot, win, ex.menu.actions()[0])
    assert len(messages) == 1 and "Could not export" in messages[0]
    assert ex.last_written is None


def test_compare_action_opens_with_the_current_build(qtbot, setup) -> None:  # noqa: ANN001
    win, menu, ex, *_ = setup
    choose(qtbot, win, ex.compare_action)
    dlg = win.findChild(QDialog)
    assert dlg is not None and dlg.isVisible()
    assert [p.build.name for p in dlg.view.plans] == ["2x RTX 4090 workstation"]
    assert dlg.view.add_file(ROOT / "examples" / "budget-1-gpu.rigplan")
    assert dlg.view.figures.columnCount() == 3
    dlg.close()
