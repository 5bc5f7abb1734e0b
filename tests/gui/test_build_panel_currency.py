"""Issue 12, item 8 in the build panel, as changed by issue 29 (Major 1): a catalog price in USD is shown converted
into the build's currency (its tooltip keeps the quote in USD), and the total is converted at the ECB rate, never
relabelled."""

from __future__ import annotations

from pathlib import Path

import pytest

from rigplan.costs.fx import load_fx
from rigplan.gui.mainwindow import MainWindow

ROOT = Path(__file__).resolve().parents[2]


def test_prices_keep_their_currency_and_the_total_is_converted(window: MainWindow) -> None:
    assert window.files.open_path(ROOT / "examples" / "2x-rtx-4090.rigplan", ask=False)
    build = window.doc.build
    usd_total = sum(i.unit_price.amount * i.quantity for i in build.items if i.unit_price)
    window.doc.set_assumptions(build.assumptions.model_copy(update={"currency": "EUR"}))
    panel = window.build_panel
    cells = [panel.table.item(r, 3).text() for r in range(panel.table.rowCount()) if panel.table.item(r, 3)]
    assert cells and all("€" in c for c in cells) and not any("$" in c for c in cells)
    tips = [panel.table.item(r, 3).toolTip() for r in range(panel.table.rowCount()) if panel.table.item(r, 3)]
    assert any("$" in t for t in tips)  # the price as quoted, in USD
    eur = usd_total * load_fx().rates["EUR"]
    shown = panel.total.text()
    assert "€" in shown and "ECB reference rate" in shown
    digits = float("".join(ch for ch in shown.split("Total:")[1].split("<")[0] if ch.isdigit() or ch == ".") or 0)
    assert digits == pytest.approx(eur, abs=0.01)
