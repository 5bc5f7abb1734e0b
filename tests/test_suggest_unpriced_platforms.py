"""Issue 37: when no current platform passes and the answer falls back to an older one, it counts, per current
workstation platform (Threadripper sTR5 and sWRX8, Xeon W LGA 4677, EPYC SP5), the catalog's CPUs and boards that
carry a price, and says that the buyer's own prices let the search weigh that platform. With a buyer's quotes for a
Threadripper 7960X and a TRX50 AERO D board (a build file's own prices: the buyer's figures, not catalog data), the
same question is searched on sTR5 and the count moves. Asked of the real catalog without its dated retail listings
(tests/without_listings.py): the shipped catalog prices one TRX50 build since the sixth round."""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path

import pytest

from cli_in_process import rigplan_in_process
from rigplan.catalog import Catalog
from rigplan.files import save
from rigplan.model import Build
from rigplan.model.build import BuildItem
from rigplan.model.common import Price
from rigplan.model.parts import Kind
from without_listings import cli_on, without_listings

pytestmark = pytest.mark.slow  # two searches on the full catalog

TR = "6cac8d9c-b7e4-4ad4-a06d-ecb5c06220a4"  # AMD Ryzen Threadripper 7960X (sTR5): no price in the catalog
BOARD = "24ab4038-f4a0-4749-b6e6-2c4a11e0fbe0"  # Gigabyte TRX50 AERO D (sTR5): no price in the catalog
QUESTION = ("suggest", "--budget", "12000", "--gpus", "3", "--json")


def _on_str5(catalog: Catalog, kind: Kind) -> tuple[int, int]:
    """(priced, all) of a kind on sTR5, read from the catalog's own columns (not the suggester's pricing)."""
    table = catalog.table(kind)
    rows = [i for i, s in enumerate(table.column("socket")) if s == "sTR5"]
    return sum(1 for i in rows if table.column("price")[i]), len(rows)


def _note(answer: dict) -> str:
    return next(n for n in answer["notes"] if n.startswith("no build on a current platform"))


def _ask(*extra: str) -> dict:
    run = rigplan_in_process(*QUESTION, *extra)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def _socket(answer: dict) -> str:
    return next(i["part"]["socket"] for i in answer["build"]["items"] if i["part"]["kind"] == "cpu")


def test_the_older_answer_counts_what_is_priced_and_own_prices_move_it(
    catalog: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    catalog = without_listings(catalog)
    with cli_on(catalog, monkeypatch):
        _counts_and_own_prices(catalog, tmp_path)


def _counts_and_own_prices(catalog: Catalog, tmp_path: Path) -> None:
    cpus, boards = _on_str5(catalog, Kind.CPU), _on_str5(catalog, Kind.MOTHERBOARD)
    assert cpus[1] >= 10 and boards[1] >= 3  # the catalog holds the platform, unpriced
    first = _ask()
    assert _socket(first) == "sTRX4"
    said = _note(first)
    assert f"Threadripper 7000 / 9000 (sTR5): {cpus[0]} of {cpus[1]} CPUs and {boards[0]} of {boards[1]} boards" in said
    assert "--prices-from BUILD or --my-prices" in said
    for platform in ("(sWRX8)", "(LGA 4677)", "(SP5)"):
        assert re.search(re.escape(platform) + r": (\d+ of \d+ CPUs?|no CPU) and (\d+ of \d+ boards?|no board)", said)

    quote = dict(currency="USD", date=dt.date(2026, 11, 28), source="a buyer's quote (test data)")
    items = [
        BuildItem(part=catalog.get(TR), price_override=Price(amount=1499, **quote)),  # type: ignore[arg-type]
        BuildItem(part=catalog.get(BOARD), price_override=Price(amount=800, **quote)),  # type: ignore[arg-type]
    ]
    mine = tmp_path / "quotes.rigplan.yaml"
    save(Build(name="my quotes", items=items), mine)
    again = _ask("--prices-from", str(mine))
    assert {TR, BOARD} <= set(again["own_prices_used"])
    assert _socket(again) == "sTR5"
    assert not any(n.startswith("no build on a current platform") for n in again["notes"])
