"""Sourced list prices for parts PCPartPicker does not price (parts/list-prices.yaml, issue 37).

The only street prices are docyx/pc-part-dataset's (PCPartPicker, 2025-07-23), and it lists none of the parts an
expert sells at $10,000-$30,000 (workstation GPUs, Threadripper 7000/9000 and PRO CPUs, TRX50/WRX90 boards). This
hand-written file gives such parts a price with its source: the maker's launch list price (AMD's SEP, NVIDIA's MSRP
at announcement, as the press reported it), a list price the maker publishes (AMD's 1kU price for EPYC), or a dated
retail listing a review quotes. Each entry names the part (by id; a supplement part also by its exact name), the
amount, the currency, the date the price was stated, what the figure is, and the source (publisher, URL and what it
says).

The resulting price's source begins with "list price: " so that every reader (the suggester's answer, the parts
list, the exports) can tell a list price from a street price. A list price only fills a part that has none: a part
the PCPartPicker join priced keeps that price, and the entry is reported. An entry whose part is not in the catalog
is reported too, never silently dropped (docs/data.md, and the catalog update's summary)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from rigplan import ecb
from rigplan.model.common import LIST_PRICE, LISTING_PRICE, SOURCED_PRICES

from .corrections import entries
from .data_quality import Change

_KINDS = ("gpu", "cpu", "motherboard", "cooler")
_BASES = {
    "launch": "maker's launch list price",
    "list": "maker's published list price (e.g. AMD's 1kU tray price in its processor specifications)",
    "retail": "dated retail listing (a retailer's or a price comparison's page, with its URL) quoted by the press or"
    " by a builder's dated parts list; another market's price is converted at the ECB rate like every non-USD price",
}


@dataclass(frozen=True)
class ListPrice:
    kind: str
    part_id: str  # "" when the entry names the part by `name` (supplement parts)
    name: str
    amount: float
    currency: str
    date: str
    date_stated: str  # the date as the source gives it (a month, a quarter) when it gives no day; else `date`
    basis: Literal["launch", "list", "retail"]
    what: str  # e.g. "AMD launch SEP"
    publisher: str
    url: str
    says: str
    usd: float  # the amount in USD: the amount itself, or converted at the ECB rate of the price's date
    fx: str  # how a non-USD amount was converted: "CHF 966.00 at the ECB reference rate of ..."; "" for USD

    def source(self) -> str:
        prefix = LISTING_PRICE if self.basis == "retail" else LIST_PRICE
        converted = f" ({self.fx})" if self.fx else ""
        return f"{prefix}{self.what}{converted}, {self.date_stated}, {self.publisher}: {self.url}"

    def price(self) -> dict[str, Any]:
        """The catalog's price: in USD like every catalog price (a non-USD entry converted at its own date's ECB
        rate, said in its source), so the picker sorts and filters it with the rest and the suggester weighs it."""
        return {"amount": self.usd, "currency": "USD", "date": self.date, "source": self.source()}

    def label(self) -> str:
        return f"{self.kind} `{self.part_id or self.name}` ({self.name})"

    def names(self, d: dict[str, Any]) -> bool:
        return d["id"] == self.part_id if self.part_id else d["name"] == self.name


class ListPriceError(ValueError):
    pass


def _entry(path: Path, i: int, e: dict[str, Any]) -> ListPrice:
    where = f"{path.name}: price {i + 1} ({e.get('id') or e.get('name') or 'no part'})"
    need = ("kind", "name", "amount", "currency", "date", "basis", "what", "source")
    missing = [k for k in need if not e.get(k)]
    src = e.get("source") or {}
    missing += [f"source.{k}" for k in ("publisher", "url", "says") if isinstance(src, dict) and not src.get(k)]
    if missing or not isinstance(src, dict):
        raise ListPriceError(f"{where}: lacks {', '.join(missing) or 'a source (publisher, url, says)'}")
    if e["kind"] not in _KINDS or e["basis"] not in _BASES:
        raise ListPriceError(f"{where}: kind is one of {', '.join(_KINDS)}; basis one of {', '.join(_BASES)}")
    if not isinstance(e["amount"], (int, float)) or e["amount"] <= 0:
        raise ListPriceError(f"{where}: the amount is a positive number")
    try:
        date = dt.date.fromisoformat(str(e["date"])).isoformat()
    except ValueError:
        raise ListPriceError(f"{where}: the date is YYYY-MM-DD") from None
    amount, currency = float(e["amount"]), str(e["currency"])
    usd, fx = _in_usd(where, amount, currency, dt.date.fromisoformat(date))
    return ListPrice(
        e["kind"], str(e.get("id") or ""), e["name"], amount, currency, date,
        str(e.get("date_stated") or date), e["basis"],
        e["what"], src["publisher"], src["url"], " ".join(str(src["says"]).split()), usd, fx,
    )  # fmt: skip


def _in_usd(where: str, amount: float, currency: str, day: dt.date) -> tuple[float, str]:
    """(the amount in USD, how it was converted): a non-USD entry at the ECB reference rate of its own date (or the
    last working day before it); without the history (a bundle without its rate file), at the shipped table's rate,
    said so; a currency neither knows stops the import (the entry is fixed, not guessed)."""
    if currency == "USD":
        return amount, ""
    got = ecb.per_usd_on(currency, day)
    if got is not None:
        per_usd, d = got
        when = f"the ECB reference rate of {d.isoformat()}"
    else:
        table = ecb.load_fx()
        if currency not in table.rates:
            raise ListPriceError(f"{where}: no ECB reference rate for {currency} on {day.isoformat()}")
        per_usd, when = table.rates[currency], f"the ECB reference rate of {table.date} (none for the price's date)"
    return round(amount / per_usd, 2), f"{currency} {amount:,.2f} at {when}, {per_usd:.4f} {currency} per USD"


def load(path: Path) -> list[ListPrice]:
    """The file's entries; an empty list when the file is absent. A malformed entry stops the import (a
    hand-written file is fixed, not skipped), as does a part named twice."""
    out = [_entry(path, i, e) for i, e in enumerate(entries(path, "prices"))]
    seen: set[tuple[str, str]] = set()
    for lp in out:
        key = (lp.kind, lp.part_id or lp.name)
        if key in seen:
            raise ListPriceError(f"{path.name}: {lp.label()} has two prices")
        seen.add(key)
    return out


def apply(prices: list[ListPrice], kind: str, records: list[dict[str, Any]]) -> tuple[list[Change], list[str]]:
    """Give each record of `kind` that an entry names and that has no price the entry's list price (in place).
    Returns the changes (for the import report) and one line per entry not applied: its part is not in the catalog,
    or the part already has a price (PCPartPicker's, which is kept)."""
    changes: list[Change] = []
    unused: list[str] = []
    for lp in (p for p in prices if p.kind == kind):
        hits = [d for d in records if lp.names(d)]
        if not hits:
            unused.append(f"- list price {lp.label()}: no part of the catalog has this {'id' if lp.part_id else 'name'}"
                          f"; not applied ({lp.source()})")  # fmt: skip
            continue
        for d in hits:
            old = d.get("price")
            if lp.part_id and d["name"] != lp.name:
                unused.append(
                    f"- list price {lp.label()}: the part is now named {d['name']!r}; not applied, re-check the entry"
                )
                continue
            if old:
                unused.append(
                    f"- list price {lp.label()}: the part already has a price ({old['amount']} {old['currency']},"
                    f" {old['source']}), which is kept"
                )
                continue
            d["price"] = lp.price()
            changes.append(Change(kind, d["id"], d["name"], "price", None, d["price"], lp.source(), "list-price"))
    return changes, unused


def is_list_price(price: dict[str, Any] | None) -> bool:
    """A price this file gives (a maker's list price or a dated retail listing), not the PCPartPicker join's."""
    return bool(price) and str((price or {}).get("source", "")).startswith(SOURCED_PRICES)
