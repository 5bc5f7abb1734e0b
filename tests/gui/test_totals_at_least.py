"""Issue 19: the build panel's total says "at least" and how many parts have no price, and the Costs tab's summary
says the same; both go back to the plain total once every part has a price."""

from __future__ import annotations

from gui_helpers import edit_cell, show_tab

from rigplan.gui.mainwindow import MainWindow
from rigplan.model import Build, BuildItem
from rigplan.model.parts import Gpu, Psu

I5_13400F = "22546c6c-9af1-4646-a9af-0ede3444c6b7"


def test_total_says_at_least_with_unpriced_parts(qtbot, window: MainWindow) -> None:  # noqa: ANN001
    cpu = window.catalog.get(I5_13400F)
    assert cpu is not None and cpu.price is not None
    unpriced = [Gpu(id=f"custom-{n}", name=f"GPU {n}", custom=True, tdp_w=250) for n in "ab"]
    psu = Psu(id="custom-psu", name="PSU", custom=True, wattage=1000)
    items = (BuildItem(part=cpu), *(BuildItem(part=g) for g in unpriced), BuildItem(part=psu))
    window.doc.edit(Build(items=items), "test build")
    total = window.build_panel.total.text()
    assert f"<b>Total: at least {window.money(cpu.price.amount)}</b>" in total
    assert "(3 parts without a price)" in total
    show_tab(qtbot, window.tabs, "Costs")
    assert "at least $" in window.costs.summary.text() and "(3 parts without a price)" in window.costs.summary.text()
    show_tab(qtbot, window.tabs, "Parts")
    table = window.build_panel.table
    for name in ("GPU a", "GPU b", "PSU"):  # the user types a quote for each in the price column
        row = next(r for r in range(table.rowCount()) if table.item(r, 1) and table.item(r, 1).text().startswith(name))
        edit_cell(qtbot, table, row, 3, "500")
    total = window.build_panel.total.text()
    assert "at least" not in total and "without a price" not in total
    assert f"Total: {window.money(cpu.price.amount + 1500.0)}" in total
