"""A price file: CSV rows of `name or id, price, currency, date, source` (a retailer's list, a spreadsheet of
quotes). A header row is optional. Bad rows are reported with their line number and skipped; the good rows still
count, so one typo never loses a file.

Rows are resolved to catalog parts by id, then by exact name, then by a sure scored match (rigplan.imports.matching,
over every kind, since a price file does not say the kind); anything less is reported, never guessed.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from dataclasses import dataclass, field

from rigplan.catalog.loader import Catalog
from rigplan.imports.matching import Matcher, matcher_for, norm
from rigplan.imports.money import parse_amount, parse_price
from rigplan.kinds import Kind
from rigplan.model import Build, Price
from rigplan.model.common import KNOWN_CURRENCIES

MAX_ROWS = 100_000
HEADER_WORDS = {"name", "id", "name or id", "part", "price", "amount"}


class PriceFileError(ValueError):
    """The file cannot be read as a price file at all: one line for the user."""


@dataclass(frozen=True)
class PriceRow:
    line: int  # 1-based line in the file
    key: str  # a part id or a name
    price: Price


@dataclass
class PriceFile:
    rows: list[PriceRow] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # "line 4: ..." for each skipped row


def parse_price_file(text: str, default_source: str = "price file") -> PriceFile:
    text = text.lstrip("\ufeff")
    out = PriceFile()
    reader = csv.reader(io.StringIO(text), delimiter=_delimiter(text), strict=False)
    try:
        for n, row in enumerate(reader, start=1):
            if n > MAX_ROWS:
                out.problems.append(f"line {n}: more than {MAX_ROWS:,} rows; the rest was not read")
                break
            cells = [c.strip() for c in row]
            if not any(cells) or cells[0].startswith("#"):
                continue
            if n == 1 and cells[0].lower() in HEADER_WORDS:
                continue
            try:
                out.rows.append(_row(n, cells, default_source))
            except ValueError as exc:
                out.problems.append(f"line {n}: {exc}")
    except csv.Error as exc:
        raise PriceFileError(f"not a CSV file: {exc}") from None
    if not out.rows and not out.problems:
        raise PriceFileError("no rows: expected 'name or id, price, currency, date, source' per line")
    return out


def _delimiter(text: str) -> str:
    """The separator of the first data lines: the one of , ; and tab that splits them into the same two to five
    columns (a semicolon file writes "549,00" with a decimal comma). csv.Sniffer is not used: its regular
    expressions backtrack on hostile text."""
    head = [ln for ln in text[:8192].splitlines() if ln.strip() and not ln.lstrip().startswith("#")][:10]
    best, best_score = ",", -1
    for sep in (",", ";", "\t"):
        try:
            counts = [len(r) for r in csv.reader(head, delimiter=sep, strict=False)]
        except csv.Error:
            continue
        good = sum(2 <= c <= 8 for c in counts)
        score = good * 10 - len(set(counts))
        if counts and score > best_score:
            best, best_score = sep, score
    return best


def _row(n: int, cells: list[str], default_source: str) -> PriceRow:
    cells += [""] * (5 - len(cells))
    key, amount_text, currency, date_text, source = cells[:5]
    if not key:
        raise ValueError("no name or id in the first column")
    currency = currency.upper()
    if not amount_text:
        raise ValueError("no price in the second column")
    if amount_text.lstrip("-\u2212( ")[:1].isdigit() or amount_text[:1] in "-\u2212(":
        amount = parse_amount(amount_text, currency or None)  # the one set of rules: rigplan.model.numbers
    else:  # "$1,299.00" or "549,00 €": a price with its sign
        parsed = parse_price(amount_text)
        if parsed is None:
            raise ValueError(f"price {amount_text!r} is not a number")
        amount, sign_currency = parsed
        if currency and sign_currency != currency:
            raise ValueError(f"price {amount_text!r} is in {sign_currency}, the currency column says {currency}")
        currency = sign_currency
    if not currency:
        raise ValueError("no currency: give an ISO code such as USD or EUR in the third column")
    if currency not in KNOWN_CURRENCIES:
        raise ValueError(f"unknown currency {currency!r}")
    date = None
    if date_text:
        try:
            date = dt.date.fromisoformat(date_text)
        except ValueError:
            raise ValueError(f"date {date_text!r} is not YYYY-MM-DD") from None
    return PriceRow(n, key, Price(amount=amount, currency=currency, date=date, source=source or default_source))


@dataclass
class Resolved:
    prices: dict[str, Price] = field(default_factory=dict)  # part id -> price
    unmatched: list[str] = field(default_factory=list)  # "line 5: 'name' (why)"


def resolve_catalog(pf: PriceFile, catalog: Catalog, matcher: Matcher | None = None) -> Resolved:
    """Rows to catalog part ids. A later row for the same part wins (a file lists newer quotes further down)."""
    out = Resolved()
    by_name: dict[str, list[str]] = {}  # built at the first row that is not a part id (26,000 names: about 0.2 s)
    for row in pf.rows:
        if row.key in catalog:
            out.prices[row.key] = row.price
            continue
        if not by_name:
            for kind in Kind:
                t = catalog.table(kind)
                for pid, name in zip(t.ids, t.column("name"), strict=True):
                    by_name.setdefault(norm(name), []).append(pid)
        matcher = matcher or matcher_for(catalog)
        named = by_name.get(norm(row.key), [])
        if len(named) == 1:
            out.prices[named[0]] = row.price
            continue
        sure = [r.best.part_id for k in Kind if (r := matcher.match(k, row.key)).confident and r.best]
        if len(sure) == 1:
            out.prices[sure[0]] = row.price
        else:
            why = "several parts fit" if len(named) > 1 or len(sure) > 1 else "no sure match"
            out.unmatched.append(f"line {row.line}: {row.key!r} ({why})")
    return out


def apply_to_build(pf: PriceFile, build: Build) -> tuple[Build, list[str], list[str]]:
    """Set the build's own prices from the file: a row applies to the items whose part id or exact name it gives.
    Returns the new build, the names updated and the rows that fit no item."""
    items = list(build.items)
    updated: list[str] = []
    unused: list[str] = []
    for row in pf.rows:
        hits = [n for n, it in enumerate(items) if it.part.id == row.key or norm(it.part.name) == norm(row.key)]
        if not hits:
            unused.append(f"line {row.line}: {row.key!r} (not in the build)")
        for n in hits:
            items[n] = items[n].model_copy(update={"price_override": row.price})
            updated.append(items[n].part.name)
    return build.model_copy(update={"items": tuple(items)}), updated, unused
