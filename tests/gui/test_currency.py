"""Issue 29, Major 1: with the build in EUR every amount on screen is converted by the build's rate and labelled
in euros, by the window's one formatter: the picker's prices, the build table, its total, the offers table and the
break-even chart's axis (at once, not after a resize)."""

from __future__ import annotations

from pathlib import Path

from gui_helpers import pick, show_tab
from PySide6.QtCore import Qt

from rigplan.costs.fx import load_fx
from rigplan.gui.mainwindow import MainWindow
from rigplan.kinds import Kind

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "2x-rtx-4090.rigplan"


def _euros(text: str) -> float:
    return float(text.replace("€", "").replace(",", "").replace("/h", ""))


def test_eur_build_converts_every_amount(window: MainWindow, qtbot) -> None:  # noqa: ANN001
    window.files.open_path(EXAMPLE, ask=False)
    show_tab(qtbot, window.tabs, "Costs")
    window.costs.ensure_charts()
    axis = window.costs._charts["breakeven"].widget.getAxis("left")
    assert all("$" in t for t in axis.tickStrings([1000.0, 2000.0], 1.0, 1000.0))
    window.doc.set_assumptions(window.doc.build.assumptions.model_copy(update={"currency": "EUR"}))
    per = load_fx().rates["EUR"]
    # the chart axis: euros straight away (no resize), and its cached picture dropped so it is drawn again
    assert axis.tickStrings([1000.0], 1.0, 1000.0) == ["€1,000"] and axis.picture is None
    # the build table: each price converted, none left in dollars; the total is their sum
    show_tab(qtbot, window.tabs, "Parts")
    cells = [window.build_panel.table.item(r, 3) for r in range(window.build_panel.table.rowCount())]
    texts = [c.text() for c in cells if c is not None and c.text()]
    assert texts and not any("$" in t for t in texts)
    total = 0.0
    for item in window.doc.build.items:
        assert item.unit_price is not None and item.unit_price.currency == "USD"
        euros = round(item.unit_price.amount * per, 2)
        assert window.money(item.unit_price.amount, "USD") == f"€{euros:,.2f}"
        total += item.unit_price.amount * per * item.quantity
    assert f"Total: €{total:,.2f}" in window.build_panel.total.text()
    # the picker: a $449.96 CPU reads €402.7x, never "€449.96"
    pick(qtbot, window.picker.kind_box, data=Kind.CPU)
    model = window.picker.model_for(Kind.CPU)
    row = next(r for r in range(model.rowCount()) if model._values[r][model.price_col] is not None)
    usd = model._values[row][model.price_col]
    shown = model.data(model.index(row, model.price_col), Qt.ItemDataRole.DisplayRole)
    assert shown == f"€{usd * per:,.2f}"
    # the offers table: hourly prices and the header in euros
    om = window.costs.offers_panel.model
    from rigplan.gui.costs.offers_model import COL_OD, COL_WORK

    assert om.headerData(COL_WORK, Qt.Orientation.Horizontal) == "Work per €"
    o = next(n for n, o in enumerate(om.offers) if o.ondemand_usd_h)
    text = om.data(om.index(o, COL_OD), Qt.ItemDataRole.DisplayRole)
    assert text.startswith("€") and abs(_euros(text) - om.offers[o].ondemand_usd_h * per) < 0.006
    # back to USD: dollars again everywhere
    window.doc.set_assumptions(window.doc.build.assumptions.model_copy(update={"currency": "USD"}))
    assert axis.tickStrings([1000.0], 1.0, 1000.0) == ["$1,000"]
    assert om.headerData(COL_WORK, Qt.Orientation.Horizontal) == "Work per $"


def test_the_window_and_the_exports_write_money_alike() -> None:
    """In US English (the tests' locale) the window's locale-aware formatter and rigplan.wording.money, which the
    CLI, the exports and the suggester use, write the same text for every kind of currency sign."""
    from rigplan.gui.widgets.money import Money
    from rigplan.wording import money

    for cur in ("USD", "EUR", "GBP", "JPY", "CHF"):
        m = Money(cur)
        assert m.locale.name() == "en_US"
        for amount, decimals in ((1234.5, 2), (0.17, 2), (7934.78, 0)):
            assert m(amount, decimals=decimals) == money(cur, amount, decimals)
