"""File > Import (issue 19) driven with qtbot over the real catalog: the paste dialog, the review dialog of
uncertain matches, the build that opens, and a price file into the build and into your catalog prices."""

from __future__ import annotations

from pathlib import Path

import pytest
from gui_helpers import choose, click, paste_into, pick, run_dialog
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QMessageBox

from rigplan.catalog import Catalog, load_catalog
from rigplan.gui.imports import import_actions
from rigplan.gui.imports.import_dialog import CUSTOM, PasteListDialog, ReviewMatchesDialog
from rigplan.gui.mainwindow import MainWindow
from rigplan.imports.list_import import match_list
from rigplan.imports.user_prices import load_user_prices
from rigplan.kinds import Kind

DATA = Path(__file__).parents[1] / "data"
BUDGET = (DATA / "pcpartpicker" / "budget.txt").read_text()
VENTUS_OC = "c4c44fc0-9231-4578-b947-0ccd887d97e1"
RYZEN_7950X = "63f23f26-d52c-4e3c-be6e-0d25163cff59"


def test_paste_dialog_refuses_what_is_not_a_list_and_keeps_the_text(qtbot, catalog: Catalog) -> None:
    dlg = PasteListDialog(catalog)
    qtbot.addWidget(dlg)
    qtbot.keyClicks(dlg.text, "my build: a fast GPU")
    ok = dlg.buttons.button(dlg.buttons.StandardButton.Ok)
    assert ok.text() == "Match parts"
    qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)  # matched in a worker thread (issue 24): wait for the answer
    qtbot.waitUntil(lambda: dlg.error.text().startswith("This is not a PCPartPicker list: no parts found"))
    assert dlg.imported is None and dlg.result() == 0  # not accepted: the dialog stays for a fix
    assert dlg.text.toPlainText() == "my build: a fast GPU"  # nothing lost
    dlg.load_file(DATA / "pcpartpicker" / "two-gpu.md")
    assert dlg.error.text() == "" and "Type|Item|Price" in dlg.text.toPlainText()
    with qtbot.waitSignal(dlg.accepted):
        qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)
    assert dlg.imported is not None and len(dlg.imported.lines) == 9


def test_review_dialog_shows_candidates_and_takes_the_choice(qtbot, catalog: Catalog) -> None:
    result = match_list(BUDGET, catalog)
    dlg = ReviewMatchesDialog(result)
    qtbot.addWidget(dlg)
    dlg.show()
    t = dlg.table
    assert t.rowCount() == 8
    assert [t.item(r, 3).text() for r in range(8)] == [
        "Matched", "Matched", "Check", "Matched", "Check", "Check", "Check", "Other item",
    ]  # fmt: skip
    assert t.item(4, 2).text() == "$299.97"
    assert "4 uncertain matches" in dlg.summary.text()
    gpu = dlg.combos[4]
    assert gpu.currentText() == CUSTOM  # nothing guessed
    assert gpu.itemText(1).startswith("0.95  MSI GeForce RTX 3060 VENTUS 2X 12G OC")
    assert dlg.combos[0].currentData() == "22546c6c-9af1-4646-a9af-0ede3444c6b7"  # the sure CPU is pre-chosen
    assert t.item(7, 4).text() == "Other item: counted in the total, read by no check"  # issue 29: the OS line
    pick(qtbot, gpu, gpu.itemText(2))  # the user picks the second candidate for the GPU
    assert dlg.choices()[4] == gpu.itemData(2) and dlg.choices()[2] is None
    qtbot.mouseClick(dlg.best_button, Qt.MouseButton.LeftButton)
    assert dlg.choices()[4] == VENTUS_OC and dlg.choices()[2] is not None


def test_menu_imports_the_list_as_a_new_unsaved_undoable_build(window: MainWindow, qtbot, monkeypatch) -> None:
    def paste(dlg: PasteListDialog) -> None:  # the modal loop replaced by the user's actions on the real dialog
        paste_into(qtbot, dlg.text, BUDGET)
        click(qtbot, dlg.buttons.button(dlg.buttons.StandardButton.Ok))
        qtbot.waitUntil(lambda: dlg.imported is not None)  # matched off the GUI thread (issue 24)

    def review(dlg: ReviewMatchesDialog) -> None:
        pick(qtbot, dlg.combos[4], dlg.combos[4].itemText(1))  # confirm the best GPU candidate; the rest stay custom
        click(qtbot, dlg.buttons.button(dlg.buttons.StandardButton.Ok))

    monkeypatch.setattr(PasteListDialog, "exec", lambda dlg: run_dialog(qtbot, dlg, paste))
    monkeypatch.setattr(ReviewMatchesDialog, "exec", lambda dlg: run_dialog(qtbot, dlg, review))
    file_menu = window.menuBar().actions()[0].menu()
    names = [a.text() for a in window.menus.import_menu.actions() if not a.isSeparator()]
    assert names == ["&PCPartPicker list...", "P&rice file...", "Remove &your prices..."]
    assert window.menus.import_menu.menuAction() in file_menu.actions()
    choose(qtbot, window, window.menus.import_pcpp)  # File > Import > PCPartPicker list...
    build = window.doc.build
    assert window.doc.is_modified() and window.doc.path is None
    gpu = build.of_kind(Kind.GPU)[0]
    assert gpu.part.id == VENTUS_OC and gpu.price_override is not None and gpu.price_override.amount == 299.97
    assert build.of_kind(Kind.MEMORY)[0].part.custom
    names = [window.build_panel.table.item(r, 1).text() for r in range(window.build_panel.table.rowCount())]
    assert "MSI GeForce RTX 3060 VENTUS 2X 12G OC GDDR6" in names
    assert "Corsair Vengeance LPX 32 GB (2 x 16 GB) DDR4-3600 CL18 Memory  (custom)" in names
    # Issue 29: the Windows line is an Other item in the table, so the build's total is the list's $1,152.89.
    assert "Microsoft Windows 11 Home OEM - DVD 64-bit" in names
    assert "Total: $1,152.89" in window.build_panel.total.text()
    choose(qtbot, window, window.menus.undo)  # Edit > Undo
    assert window.doc.build.items == ()


def test_price_file_into_the_build(qtbot, window: MainWindow, monkeypatch) -> None:  # noqa: ANN001
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "information", lambda *a, **k: shown.append(a[2]))
    window.doc.add_part(window.catalog.get(RYZEN_7950X))  # type: ignore[arg-type]
    text = import_actions.import_price_path(window, DATA / "prices-quotes.csv", "build")
    assert text.startswith("1 price set in this build.") and shown == [text]
    assert "line 6: price 'abc' is not a number" in text
    item = window.doc.build.items[0]
    assert item.price_override is not None and item.price_override.source == "Micro Center quote"
    assert window.build_panel.table.item(0, 3).text() == "$499.00"
    choose(qtbot, window, window.menus.undo)  # Edit > Undo
    assert window.doc.build.items[0].price_override is None


def test_price_file_into_your_catalog_prices(qtbot, tmp_path: Path, monkeypatch) -> None:
    from rigplan.cloud.offers import load_offers
    from rigplan.costs.perf import load_perf

    catalog = load_catalog(cache_dir=tmp_path / "cache")  # its own: the prices below must not leak to other tests
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(catalog, load_offers(), load_perf(), settings, data_dir=tmp_path / "data")
    qtbot.addWidget(w, before_close_func=lambda w: w.doc.undo_stack.setClean())
    monkeypatch.setattr(QMessageBox, "information", lambda *a, **k: None)
    text = import_actions.import_price_path(w, DATA / "prices-quotes.csv", "catalog")
    assert text.startswith("3 of your prices added to the catalog.")
    assert set(load_user_prices(tmp_path / "data")) >= {RYZEN_7950X}
    price = catalog.get(RYZEN_7950X).price  # type: ignore[union-attr]
    assert price is not None and price.amount == 499.0 and price.source == "your price: Micro Center quote"
    w.picker.set_kind(Kind.CPU)  # set-up in a window never shown: the model under the kind is what is checked
    model = w.picker.model_for(Kind.CPU)
    row = catalog.table(Kind.CPU).ids.index(RYZEN_7950X)
    tip = model.data(model.index(row, model.price_col), Qt.ItemDataRole.ToolTipRole)
    assert tip == "$499.00 on 2025-08-01: your price: Micro Center quote"
    bundled = load_catalog(cache_dir=tmp_path / "cache").get(RYZEN_7950X).price  # type: ignore[union-attr]
    assert import_actions.remove_your_prices(w, ask=False) == 3
    assert load_user_prices(tmp_path / "data") == {}
    assert catalog.get(RYZEN_7950X).price == bundled  # type: ignore[union-attr]  # the catalog's own price is back
    model = w.picker.model_for(Kind.CPU)
    tip = model.data(model.index(row, model.price_col), Qt.ItemDataRole.ToolTipRole)
    assert "your price" not in tip


def test_unreadable_price_file_is_one_warning(window: MainWindow, monkeypatch, tmp_path: Path) -> None:
    warned: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: warned.append(a[2]))
    assert import_actions.import_price_path(window, tmp_path / "missing.csv", "build") == ""
    assert warned == [f"{tmp_path / 'missing.csv'}: no such file"]  # the safe reader's one line (issue 24)


def test_saved_prices_show_when_the_window_starts(qtbot, tmp_path: Path) -> None:
    import datetime as dt

    from rigplan.cloud.offers import load_offers
    from rigplan.costs.perf import load_perf
    from rigplan.imports.user_prices import add_user_prices
    from rigplan.model import Price

    quote = Price(amount=455.0, currency="USD", date=dt.date(2025, 9, 1), source="local shop")
    add_user_prices({RYZEN_7950X: quote}, tmp_path / "data")
    catalog = load_catalog(cache_dir=tmp_path / "cache")
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(catalog, load_offers(), load_perf(), settings, data_dir=tmp_path / "data")
    qtbot.addWidget(w, before_close_func=lambda w: w.doc.undo_stack.setClean())
    price = catalog.get(RYZEN_7950X).price  # type: ignore[union-attr]
    assert price is not None and price.amount == 455.0 and price.source == "your price: local shop"
    w.doc.add_part(catalog.get(RYZEN_7950X))  # type: ignore[arg-type]
    assert w.build_panel.table.item(0, 3).text() == "$455.00"
    assert "Catalog price: $455.00 (your price: local shop, 2025-09-01)" in w.build_panel.table.item(0, 3).toolTip()


def test_an_exact_candidate_is_preselected(qtbot, catalog: Catalog) -> None:
    """Issue 29: an uncertain line whose best candidate scores 1.00 (every word and stated spec agrees) starts on that
    candidate instead of "Custom part"; a 0.95 one still starts on "Custom part" (nothing guessed)."""
    from rigplan.imports.matching import Candidate, MatchResult

    result = match_list(BUDGET, catalog)
    gpu_line = result.lines[4]
    best = gpu_line.match.candidates[0]
    exact = MatchResult("uncertain", (Candidate(best.part_id, best.name, 1.0), *gpu_line.match.candidates[1:]))
    result.lines[4] = type(gpu_line)(gpu_line.line, exact, None)
    dlg = ReviewMatchesDialog(result)
    qtbot.addWidget(dlg)
    assert dlg.combos[4].currentData() == best.part_id and dlg.choices()[4] == best.part_id
    assert dlg.combos[2].currentText() == CUSTOM  # the 0.99 memory line: still the user's call


@pytest.mark.parametrize("name", ["missing-parts.txt", "with-extras.txt", "budget.txt", "two-gpu.md"])
def test_review_summary_counts_what_the_rows_say(qtbot, catalog: Catalog, name: str) -> None:  # noqa: ANN001
    """Issue 40: "Every part was matched" stood above two "Not in catalog" rows."""
    result = match_list((Path(__file__).resolve().parents[1] / "data" / "pcpartpicker" / name).read_text(), catalog)
    dlg = ReviewMatchesDialog(result)
    qtbot.addWidget(dlg)
    shown = [dlg.table.item(r, 3).text() for r in range(dlg.table.rowCount())]
    summary = dlg.summary.text()
    missing, check = shown.count("Not in catalog"), shown.count("Check")
    assert ("Every part was matched" in summary) == (not missing and not check)
    if missing:
        assert f"<b>{missing} line{'s' if missing != 1 else ''} not in the catalog</b>" in summary
    if check:
        assert f"<b>{check} uncertain match" in summary
