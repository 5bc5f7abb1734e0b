"""The comparison view driven directly: builds added from real files show the same figures as `rigplan compare`,
differing part rows are marked, a bad file is one message, and the chart has one curve per build and offer."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from gui_helpers import click
from PySide6.QtCore import QPoint, QSettings, Qt
from PySide6.QtWidgets import QFileDialog

from rigplan.exports.compare import compare, figure_rows
from rigplan.exports.plan import make_plan
from rigplan.files import load
from rigplan.gui.compare.compare_view import DIFF_BRUSH, LAST_DIR_KEY, CompareView, comparison_dialog
from rigplan.gui.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
EX = ROOT / "examples"
FILES = [EX / "2x-rtx-4090.rigplan", EX / "budget-1-gpu.rigplan", EX / "4-gpu-threadripper.rigplan"]


def cells(table) -> list[list[str]]:  # noqa: ANN001
    return [[table.item(r, c).text() for c in range(table.columnCount())] for r in range(table.rowCount())]


def test_view_shows_the_cli_figures_and_marks_differences(qtbot) -> None:  # noqa: ANN001
    dlg = comparison_dialog(None, make_plan(load(FILES[0])))
    qtbot.addWidget(dlg)
    view = dlg.view
    assert view.figures.rowCount() == 0 and "1 more build" in view.message.text()
    for f in FILES[1:]:
        assert view.add_file(f)
    expected = figure_rows(compare([make_plan(load(f)) for f in FILES]))
    assert cells(view.figures) == expected
    heads = [view.figures.horizontalHeaderItem(c).text() for c in range(view.figures.columnCount())]
    assert heads == ["", "2x RTX 4090 workstation", "Budget single-GPU learner", "4-GPU Threadripper workstation"]
    rows = cells(view.parts)
    case = next(r for r in range(len(rows)) if rows[r][0].endswith("Case"))
    assert rows[case][0] == "≠ Case" and view.parts.item(case, 1).background() == DIFF_BRUSH
    plot = view._plot.getPlotItem()
    names = [item.name() for item in plot.listDataItems()]
    assert names[:3] == [p.build.name for p in view.plans]
    assert len(names) == 3 + 3  # each build's own curve, each chosen offer once
    view.remove_last()
    assert view.figures.columnCount() == 3


def test_bad_file_and_limit_are_messages(qtbot, tmp_path: Path) -> None:  # noqa: ANN001
    view = CompareView()
    qtbot.addWidget(view)
    bad = tmp_path / "bad.rigplan.yaml"
    bad.write_text("format: rigplan-build\nitems: [", "utf-8")
    assert not view.add_file(bad)
    assert view.message.text().startswith("Not added:") and view.plans == []
    for f in FILES + FILES[:1]:
        assert view.add_file(f)
    assert not view.add_button.isEnabled()
    assert not view.add_file(FILES[1])
    assert "At most 4 builds" in view.message.text() and len(view.plans) == 4


def test_add_button_remembers_its_folder(qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: ANN001
    settings = Settings(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    view = CompareView(settings)
    qtbot.addWidget(view)
    view.show()  # its buttons are clicked where they are drawn
    qtbot.waitExposed(view)
    asked: list[str] = []

    def fake_dialog(parent, title, folder, filt):  # noqa: ANN001, ANN202 - the user picks a file in the dialog
        asked.append(folder)
        return str(FILES[1]), filt

    monkeypatch.setattr(QFileDialog, "getOpenFileName", fake_dialog)
    click(qtbot, view.add_button)
    click(qtbot, view.add_button)
    assert asked == ["", str(EX)] and settings.get(LAST_DIR_KEY) == str(EX)
    assert len(view.plans) == 2


def test_a_build_in_another_currency_is_converted_with_its_rate(qtbot, tmp_path: Path, monkeypatch, capsys) -> None:  # noqa: ANN001
    """Issue 40: it was refused though the ECB rates are at hand. Added with the Add button through the file dialog,
    which opens where the builds are saved (it opened in the working folder)."""
    from PySide6.QtCore import Qt

    from rigplan.cli.main import run_cli
    from rigplan.costs.fx import electricity_price, load_fx, rate_for
    from rigplan.files import save
    from rigplan.wording import money

    view = CompareView()
    qtbot.addWidget(view)
    view.folder_hint = lambda: str(tmp_path)
    assert view.add_file(FILES[0])
    b = load(FILES[2])
    gbp = b.assumptions.model_copy(update={"currency": "GBP"})
    save(b.model_copy(update={"name": "UK build", "assumptions": gbp}), tmp_path / "uk.rigplan")
    asked: list[str] = []

    def dialog(_parent, _title, folder, _filter):  # noqa: ANN001, ANN202
        asked.append(folder)
        return str(tmp_path / "uk.rigplan"), ""

    monkeypatch.setattr(QFileDialog, "getOpenFileName", dialog)
    qtbot.mouseClick(view.add_button, Qt.MouseButton.LeftButton)
    assert asked == [str(tmp_path)]
    assert len(view.plans) == 2 and view.plans[1].currency == "USD"
    rate = rate_for(gbp)
    said = view.message.text()
    fx = f"(ECB reference rate of {load_fx().date})"
    assert f"UK build: converted from GBP to USD at 1 GBP = {1 / rate.per_usd:.4f} USD {fx}" in said
    kwh = view.plans[1].build.assumptions.electricity_per_kwh  # the UK price kept, in USD: not the US default
    assert kwh == pytest.approx(electricity_price(gbp)[0] / rate.per_usd, rel=1e-3)
    uk = make_plan(b.model_copy(update={"assumptions": gbp}))
    assert view.plans[1].cost.own_breakdown["parts"] == pytest.approx(uk.cost.own_breakdown["parts"] / rate.per_usd)
    assert cells(view.figures)[0][1].startswith("$") and cells(view.figures)[0][2].startswith("$")
    heads = [view.figures.horizontalHeaderItem(c).text() for c in range(view.figures.columnCount())]
    assert heads == ["", "2x RTX 4090 workstation", "UK build (from GBP)"]  # the converted column says so
    # The window's table shows what `rigplan compare` prints for the same two files (the CLI converts the same way)
    assert run_cli(["compare", str(FILES[0]), str(tmp_path / "uk.rigplan"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    table = {row[0]: row[1:] for row in cells(view.figures)}
    assert table["Parts cost"] == [money("USD", f["parts_cost"]) for f in data["builds"]]
    assert table["Up front"] == [money("USD", f["upfront"]) for f in data["builds"]]
    assert table["Owning at horizon"] == [money("USD", f["own_cost_at_horizon"], 0) for f in data["builds"]]
    assert data["conversions"][0]["rate"] == pytest.approx(1 / rate.per_usd, rel=1e-6)
    # Removed and added again: the rate is said once, and gone with the build
    qtbot.mouseClick(view.remove_button, Qt.MouseButton.LeftButton)
    assert "converted" not in view.message.text() and view.converted == [None]


def test_a_currency_without_a_rate_is_not_added(qtbot, tmp_path: Path) -> None:  # noqa: ANN001
    from rigplan.files import save

    view = CompareView()
    qtbot.addWidget(view)
    assert view.add_file(FILES[0])
    b = load(FILES[1])
    twd = b.assumptions.model_copy(update={"currency": "TWD", "fx_rate": None})  # the ECB publishes no TWD rate
    save(b.model_copy(update={"name": "Taipei build", "assumptions": twd}), tmp_path / "tw.rigplan")
    assert not view.add_file(tmp_path / "tw.rigplan")
    assert view.message.text().startswith("Not added: Taipei build: cannot convert from TWD to USD")
    assert len(view.plans) == 1 and view.converted == [None]


def test_save_chart_writes_every_curve(qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: ANN001
    import xml.etree.ElementTree as ET

    view = CompareView()
    qtbot.addWidget(view)
    view.show()  # its buttons are clicked where they are drawn
    qtbot.waitExposed(view)
    assert not view.save_chart_button.isEnabled()
    view.add_file(FILES[0])
    view.add_file(FILES[1])
    out = tmp_path / "cmp.svg"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a: (str(out), "SVG (*.svg)"))
    click(qtbot, view.save_chart_button)
    assert view.message.text() == f"Saved to {out}"
    root = ET.parse(out).getroot()
    text = " ".join(" ".join(el.itertext()) for el in root.iter() if el.tag.endswith("text"))
    for c in view.comparison.curves:
        assert c.label in " ".join(text.split())


def test_comparison_exports_to_markdown_and_pdf(qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: ANN001
    """Issue 29: the whole comparison (figures, parts, and in the PDF the chart) as Markdown and as a PDF."""
    from rigplan.exports.compare import figure_rows

    view = CompareView()
    qtbot.addWidget(view)
    view.show()  # its buttons are clicked where they are drawn
    qtbot.waitExposed(view)
    view.add_file(FILES[0])
    view.add_file(FILES[1])
    md = tmp_path / "cmp.md"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a: (str(md), "Markdown (*.md)"))
    click(qtbot, view.save_chart_button)
    assert view.message.text() == f"Saved to {md}"
    text = md.read_text("utf-8")
    for row in figure_rows(view.comparison):
        assert "| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" in text
    for name in view.comparison.names:
        assert name in text.splitlines()[0]
    assert any(r.differs for r in view.comparison.parts) and "| * " in text
    pdf = tmp_path / "cmp.pdf"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a: (str(pdf), "PDF report (*.pdf)"))
    click(qtbot, view.save_chart_button)
    assert pdf.read_bytes().startswith(b"%PDF") and view.message.text() == f"Saved to {pdf}"
    if shutil.which("pdftotext"):  # poppler-utils: the PDF's text carries the same figures and part rows
        out = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
        flat = " ".join(out.split())
        assert "Builds compared" in flat and "Parts cost" in flat and "Training hours per $1,000" in flat
        for r in view.comparison.parts:
            for c in r.cells:
                assert not c or c.split()[0] in flat


def test_long_names_wrap_whole_at_1280x720(qtbot) -> None:  # noqa: ANN001
    """Issue 29: at 1280x720 the part names and build names are readable in the table (wrapped, never elided to a
    tooltip): each cell's text, wrapped at its column's width, fits its row; the header fits the build names."""
    from PySide6.QtCore import Qt

    dlg = comparison_dialog(None, make_plan(load(FILES[0])))
    qtbot.addWidget(dlg)
    for f in FILES[1:]:
        dlg.view.add_file(f)
    dlg.resize(1280, 720)
    dlg.show()
    qtbot.waitExposed(dlg)
    flags = int(Qt.TextFlag.TextWordWrap.value)
    for table in (dlg.view.parts, dlg.view.figures):
        fm = table.fontMetrics()
        line = fm.height()
        qtbot.waitUntil(lambda t=table, h=line: t.horizontalHeader().height() > h + 8 or t is dlg.view.parts)
        for r in range(table.rowCount()):
            for c in range(1, table.columnCount()):
                item = table.item(r, c)
                width = table.columnWidth(c) - 8
                need = fm.boundingRect(0, 0, width, 10_000, flags, item.text()).height()
                assert need <= table.rowHeight(r), (item.text(), need, table.rowHeight(r))
                assert fm.horizontalAdvance(max(item.text().split(), key=len)) <= width + 8  # no word cut
        head = table.horizontalHeader()
        for c in range(1, table.columnCount()):
            text = table.horizontalHeaderItem(c).text()
            need = head.fontMetrics().boundingRect(0, 0, head.sectionSize(c) - 12, 10_000, flags, text).height()
            assert need <= head.height()
    # The break-even rows name the offers as the Costs tab does ("AWS 1x V100, on-demand"), not by instance id
    labels = [dlg.view.figures.item(r, 0).text() for r in range(dlg.view.figures.rowCount())]
    assert "Break-even vs AWS 1x V100, on-demand" in labels


def test_the_figures_table_shows_every_row_at_1280x720(qtbot) -> None:  # noqa: ANN001
    """At 1280x720 the last break-even row was cut at the figures pane's edge: the pane is now as tall as its rows,
    the parts table scrolling below; a divider the user moved is kept."""
    dlg = comparison_dialog(None, make_plan(load(FILES[0])))
    qtbot.addWidget(dlg)
    for f in FILES[1:]:
        dlg.view.add_file(f)
    dlg.resize(1280, 690)
    dlg.show()
    qtbot.waitExposed(dlg)
    t = dlg.view.figures

    def all_rows_shown() -> bool:
        last = t.rowCount() - 1
        bottom = t.rowViewportPosition(last) + t.rowHeight(last)
        return t.verticalScrollBar().maximum() == 0 and bottom <= t.viewport().height()

    qtbot.waitUntil(all_rows_shown, timeout=3000)
    assert dlg.view.parts.height() >= 150  # the parts keep room below
    split = dlg.view.tables
    handle = split.handle(1)  # the user drags the divider until the first table is 120 px
    start = handle.rect().center()
    shift = 120 - split.sizes()[0]
    end = start + (QPoint(shift, 0) if split.orientation() == Qt.Orientation.Horizontal else QPoint(0, shift))
    qtbot.mousePress(handle, Qt.MouseButton.LeftButton, pos=start)
    qtbot.mouseMove(handle, end)
    qtbot.mouseRelease(handle, Qt.MouseButton.LeftButton, pos=end)
    assert split.sizes()[0] == 120
    assert dlg.view.add_file(FILES[1])  # a fourth build: the table refits unless the user moved the divider
    qtbot.wait(50)
    assert dlg.view.tables.sizes()[0] == 120
