"""Issue 37 in the "Suggest a build" dialog: from $5,000 the answer is on a current platform and the older one is
named beside it ("Older platform: On AM4 ..."); a part priced at its maker's list price is named ("List prices:");
typed and clicked as a user does, on the real catalog."""

from __future__ import annotations

from datetime import date

import pytest
from gui_helpers import click, type_text
from PySide6.QtWidgets import QDialog

from rigplan.catalog import Catalog
from rigplan.gui.suggest.suggest_dialog import SuggestDialog
from rigplan.model import Price
from rigplan.model.assumptions import Assumptions
from rigplan.model.parts import Gpu, Kind, Motherboard
from without_listings import without_listings

pytestmark = pytest.mark.slow  # the explained search twice (current and older platforms) on the full catalog

CURRENT = {"AM5", "LGA 1700", "LGA1700", "LGA 1851", "LGA1851", "sTR5", "sWRX8", "LGA 4677", "SP5"}


def ask(qtbot, catalog: Catalog, budget: str, gpus: str) -> SuggestDialog:  # noqa: ANN001
    """The dialog with a budget and a GPU count typed in and Suggest clicked, once the answer is shown."""
    dlg = SuggestDialog(catalog, Assumptions())
    qtbot.addWidget(dlg)
    dlg.show()
    type_text(qtbot, dlg.budget, budget)
    type_text(qtbot, dlg.gpus, gpus)
    with qtbot.waitSignal(dlg.answered, timeout=120_000):
        click(qtbot, dlg.run_button)
    return dlg


def test_the_older_platform_is_named_beside_a_current_answer(qtbot, catalog: Catalog) -> None:  # noqa: ANN001
    # $5,000, one GPU (the CLI's "--budget 5000" answers one): an RTX 5090 on LGA 1700, the same card on AM4 for
    # $38 less named beside it (two 24 GB cards had an AM4 alternative until gpu-intake-gap ruled its pair out)
    dlg = ask(qtbot, catalog, "5000", "1")
    text = dlg.result_view.toPlainText()
    build = dlg.suggested_build()
    assert build is not None and build.count(Kind.GPU) == 1
    board = build.first(Kind.MOTHERBOARD)
    assert isinstance(board, Motherboard) and board.socket in CURRENT
    line = next(x for x in text.splitlines() if x.startswith("Older platform: "))
    assert line.startswith("Older platform: On ") and "(older platform): 1x " in line
    assert "V100-equivalents" in line and "than this answer" in line
    assert board.name not in line  # the alternative is another build, not this one


def test_a_part_at_its_makers_list_price_is_named_in_the_answer(qtbot, catalog: Catalog) -> None:  # noqa: ANN001
    """The cheapest priced RTX 5090, given (as this build's own price) a price whose source is a maker's list price:
    the $3,000 answer carries it, and the dialog says it is priced at a list price, not a street price."""
    gpu = min(
        (p for p in catalog.of_kind(Kind.GPU) if isinstance(p, Gpu) and p.chipset == "GeForce RTX 5090" and p.price),
        key=lambda p: p.price.amount,  # type: ignore[union-attr]
    )
    listed = Price(amount=1999.0, currency="USD", source="list price: NVIDIA, RTX 5090 MSRP", date=date(2025, 1, 30))
    dlg = SuggestDialog(catalog, Assumptions(), own_prices=((gpu.id, listed),))
    qtbot.addWidget(dlg)
    dlg.show()
    assert dlg.mine.isChecked()
    type_text(qtbot, dlg.budget, "3000")
    type_text(qtbot, dlg.gpus, "1")
    with qtbot.waitSignal(dlg.answered, timeout=120_000):
        click(qtbot, dlg.run_button)
    build = dlg.suggested_build()
    assert build is not None and build.first(Kind.GPU) == gpu
    line = next(x for x in dlg.result_view.toPlainText().splitlines() if x.startswith("List prices: "))
    assert line == (
        f"List prices: priced at a maker's list price, not a street price: {gpu.name} ($1,999.00, list price: "
        "NVIDIA, RTX 5090 MSRP, 2025-01-30)."
    )


def test_an_older_platform_answer_shows_the_current_platform_to_quote(qtbot, catalog: Catalog) -> None:  # noqa: ANN001
    """$12,000, 3 GPUs on the catalog without its dated retail listings (tests/without_listings.py: since the sixth
    round the shipped catalog prices a TRX50 build): answered on TRX40, no current workstation CPU and board priced;
    the dialog names the same GPUs on a current workstation platform whose CPU and board are to quote, with the room
    the budget leaves."""
    dlg = ask(qtbot, without_listings(catalog), "12000", "3")
    build = dlg.suggested_build()
    assert build is not None and build.count(Kind.GPU) == 3
    board = build.first(Kind.MOTHERBOARD)
    assert isinstance(board, Motherboard) and board.socket not in CURRENT  # the premise: an older platform
    text = dlg.result_view.toPlainText()
    line = next(x for x in text.splitlines() if x.startswith("Current platform to quote: "))
    assert "3x " in line and "no price in the catalog: quote them" in line and "within the budget if" in line
    assert board.name not in line  # another board: the current platform's
    # "Open the quote as new build": the dialog closes accepted with that build, its CPU and board without a price
    assert dlg.quote_button.isVisible() and dlg.open_button.isEnabled()
    click(qtbot, dlg.quote_button)
    assert dlg.result() == QDialog.DialogCode.Accepted
    quoted = dlg.suggested_build()
    assert quoted is not None and quoted.name.endswith(", to quote") and quoted.count(Kind.GPU) == 3
    qboard, qcpu = quoted.first(Kind.MOTHERBOARD), quoted.first(Kind.CPU)
    assert isinstance(qboard, Motherboard) and qboard.socket in CURRENT and qboard.name in line
    assert qcpu is not None and qcpu.name in line
    prices = {i.part.kind: i.unit_price for i in quoted.items}
    assert prices[Kind.MOTHERBOARD] is None and prices[Kind.CPU] is None
    assert all(prices[k] is not None for k in (Kind.GPU, Kind.MEMORY, Kind.PSU, Kind.CASE, Kind.STORAGE))


def test_an_answer_on_a_current_platform_has_no_quote_button(qtbot, catalog: Catalog) -> None:  # noqa: ANN001
    dlg = ask(qtbot, catalog, "8000", "2")
    assert dlg.open_button.isEnabled() and not dlg.quote_button.isVisible()
    click(qtbot, dlg.open_button)
    build = dlg.suggested_build()
    assert build is not None and not build.name.endswith("to quote") and build.count(Kind.GPU) == 2
