"""parts/list-prices.yaml (issue 37): makers' list prices for parts PCPartPicker does not price, applied by the
importer with their source and date; never over a PCPartPicker price; an entry naming no part is reported."""

from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path

import pytest

from no_ecb_history import no_ecb_history
from rigplan.catalog import Catalog
from rigplan.model.common import LIST_PRICE, LISTING_PRICE, SOURCED_PRICES
from rigplan.model.parts import Kind
from rigplan.opendb import data_quality as dq
from rigplan.opendb import import_parts as ip
from rigplan.opendb import list_prices

PARTS = Path(__file__).resolve().parents[1] / "parts"
RTX_6000_ADA = "0102008c-4463-469f-bc58-6ae9533cdd6f"
A5000 = "35e4d252-e17"  # PNY RTX A5000, priced by PCPartPicker ($1,865.62)


def _file(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "list-prices.yaml"
    path.write_text("format: 1\nprices:\n" + body, "utf-8")
    return path


_ENTRY = """  - kind: gpu
    {who}
    amount: 1000
    currency: USD
    date: '2024-05-01'
    basis: launch
    what: NVIDIA launch MSRP
    source: {{publisher: Example, url: 'https://example.org/x', says: 'priced at $1,000'}}
"""


def test_the_bundled_catalog_carries_each_list_price_with_its_source_and_date(catalog: Catalog) -> None:
    entries = list_prices.load(PARTS / "list-prices.yaml")
    assert len(entries) >= 3
    ada = next(p for p in catalog.of_kind(Kind.GPU) if p.id == RTX_6000_ADA)
    assert ada.price is not None
    assert (ada.price.amount, ada.price.currency, ada.price.date) == (6799, "USD", dt.date(2023, 1, 1))
    assert ada.price.source.startswith("list price: NVIDIA launch MSRP, Q1 2023, pcpartdb.com: https://pcpartdb.com/")
    # Every list price in the catalog is one of the file's entries, on the part it names, with the entry's figures.
    listed = [p for k in Kind for p in catalog.of_kind(k) if p.price and p.price.source.startswith(SOURCED_PRICES)]
    assert len(listed) == len(entries)
    # A maker's list price reads "list price: ...", a dated retail listing (basis retail) "retail listing: ...".
    for e in entries:
        assert e.source().startswith(LISTING_PRICE if e.basis == "retail" else LIST_PRICE)
    assert {e.basis for e in entries} >= {"launch", "list", "retail"}
    for part in listed:
        e = next(e for e in entries if (e.part_id == part.id if e.part_id else e.name == part.name))
        assert (part.price.amount, part.price.date.isoformat(), part.price.source) == (e.usd, e.date, e.source())
        assert part.price.currency == "USD" and (e.usd == e.amount) == (e.currency == "USD")
    maxq = next(p for p in listed if p.id == "ws-nvidia-rtx-pro-6000-blackwell-max-q")  # a supplement part, by name
    assert maxq.price.amount == 8565 and "technical.city" in maxq.price.source


def test_no_list_price_sits_on_a_part_the_pcpartpicker_join_priced(catalog: Catalog) -> None:
    with (PARTS / "price_sources.csv").open(newline="", encoding="utf-8") as fh:
        joined = {row["part_id"] for row in csv.DictReader(fh)}
    listed = {p.id for k in Kind for p in catalog.of_kind(k) if p.price and p.price.source.startswith(SOURCED_PRICES)}
    assert listed and not listed & joined


def test_a_part_already_priced_keeps_its_pcpartpicker_price(tmp_path: Path, catalog: Catalog) -> None:
    a5000 = next(p for p in catalog.of_kind(Kind.GPU) if p.id.startswith(A5000))
    rec = a5000.model_dump(mode="json", exclude_none=True)
    before = dict(rec["price"])
    assert before["source"].startswith("pc-part-dataset (PCPartPicker)")
    path = _file(tmp_path, _ENTRY.format(who=f"id: {a5000.id}\n    name: {a5000.name}"))
    changes, unused = list_prices.apply(list_prices.load(path), "gpu", [rec])
    assert rec["price"] == before and changes == []
    assert len(unused) == 1 and "already has a price" in unused[0] and "which is kept" in unused[0]


def test_an_unpriced_part_gets_the_price_and_an_entry_naming_no_part_is_reported(tmp_path: Path) -> None:
    recs = [{"id": "g1", "name": "Card One"}, {"id": "g2", "name": "Card Two"}]
    path = _file(
        tmp_path,
        _ENTRY.format(who="id: g1\n    name: Card One")
        + _ENTRY.format(who="id: no-such-id\n    name: Card Gone")
        + _ENTRY.format(who="name: Card Two"),
    )
    changes, unused = list_prices.apply(list_prices.load(path), "gpu", recs)
    src = "list price: NVIDIA launch MSRP, 2024-05-01, Example: https://example.org/x"
    assert recs[0]["price"] == {"amount": 1000.0, "currency": "USD", "date": "2024-05-01", "source": src}
    assert recs[1]["price"]["amount"] == 1000.0  # by exact name (a supplement part)
    assert [c.part_id for c in changes] == ["g1", "g2"] and all(c.check == "list-price" for c in changes)
    assert len(unused) == 1 and "no-such-id" in unused[0] and "not applied" in unused[0]


def test_the_importer_reports_an_entry_whose_part_is_gone(tmp_path: Path) -> None:
    """Through the importer's own per-kind step (import_parts.convert_kind, which the catalog update runs too):
    the unmatched entry lands among the report's stale lines (docs/data.md), not silently dropped."""
    path = _file(tmp_path, _ENTRY.format(who="id: no-such-id\n    name: Card Gone"))
    notes = ip.Notes()
    good, _ = ip.convert_kind(
        Kind.GPU, [], [], {}, dq.Tables(), [], notes, listed=list_prices.load(path)
    )  # fmt: skip
    assert good == []
    assert any("no-such-id" in line and "no part of the catalog" in line for line in notes.stale)


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("source: {publisher: Example, url: 'https://example.org/x'}", "source.says"),
        ("source: {publisher: Example, url: 'https://example.org/x', says: s}\n    basis: guess", "basis"),
    ],
)
def test_an_entry_without_its_source_or_with_an_unknown_basis_is_refused(
    tmp_path: Path, bad: str, message: str
) -> None:
    entry = _ENTRY.format(who="id: g1\n    name: Card One")
    entry = entry.replace(
        "    source: {publisher: Example, url: 'https://example.org/x', says: 'priced at $1,000'}", ""
    )
    entry = entry.replace("    basis: launch\n", "") if "basis" in bad else entry
    path = _file(tmp_path, entry.rstrip("\n") + "\n    " + bad + "\n")
    with pytest.raises(list_prices.ListPriceError, match=message):
        list_prices.load(path)


def test_the_catalog_update_never_adds_or_drops_a_list_price(catalog: Catalog) -> None:
    """update.keep_prices keeps the join's price of an unchanged part; a list price is the file's: a part the file
    prices keeps the new list price even where the catalog in use had none, and one whose entry is gone loses it."""
    from rigplan.catalog.loader import load_base_catalog
    from rigplan.opendb.update import keep_prices

    base = load_base_catalog()
    ada = base.row_of(RTX_6000_ADA)
    a5000 = next(p for p in catalog.of_kind(Kind.GPU) if p.id.startswith(A5000))
    assert ada is not None and ada["price"]["source"].startswith("list price: ")
    listed = {"amount": 1.0, "currency": "USD", "date": "2026-01-01", "source": "list price: X, 2026-01-01, Y: z"}
    records = [
        {**ada, "id": RTX_6000_ADA, "kind": "gpu", "price": listed},  # the file's newer list price stands
        {**{k: v for k, v in ada.items() if k != "price"}, "id": RTX_6000_ADA, "kind": "gpu"},  # entry gone
        {**a5000.model_dump(mode="json", exclude_none=True), "price": listed},  # a join price is never replaced
    ]
    keep_prices(records, base)
    assert records[0]["price"] == listed
    assert "price" not in records[1]
    assert records[2]["price"]["source"].startswith("pc-part-dataset (PCPartPicker)")


def test_a_non_usd_entry_is_stored_in_usd_at_its_dates_rate_or_the_shipped_one_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A CHF listing is converted at the ECB rate of its own date (rigplan.ecb); in a bundle without the rate history
    it falls back to the shipped table's rate and its source says so, never a relabel and never a stop."""
    from rigplan import ecb

    chf = next(e for e in list_prices.load(PARTS / "list-prices.yaml") if e.currency == "CHF")
    dated = ecb.per_usd_on("CHF", dt.date.fromisoformat(chf.date))
    assert dated is not None and chf.usd == pytest.approx(chf.amount / dated[0], abs=0.01)
    assert f"CHF {chf.amount:,.2f} at the ECB reference rate of {dated[1].isoformat()}" in chf.source()
    assert chf.price()["currency"] == "USD" and chf.price()["amount"] == chf.usd

    with no_ecb_history(tmp_path, monkeypatch):
        again = next(e for e in list_prices.load(PARTS / "list-prices.yaml") if e.name == chf.name)
    table = ecb.load_fx()
    assert again.usd == pytest.approx(chf.amount / table.rates["CHF"], abs=0.01)
    assert f"at the ECB reference rate of {table.date} (none for the price's date)" in again.source()
