"""The real catalog without its dated retail listings (parts/list-prices.yaml, basis retail: today the Swiss listings
of the Threadripper 7960X and the TRX50-SAGE), for the tests of what the suggester says when no current workstation
platform is priced: the older-platform fallback, its counts, and the current platform to quote. A user's catalog
update or corrections can leave a catalog in that state; these tests keep that path tested on real data."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import TYPE_CHECKING, Any

import rigplan.catalog
from rigplan.catalog import Catalog
from rigplan.catalog.loader import KindTable
from rigplan.model.common import LISTING_PRICE

if TYPE_CHECKING:
    import pytest


def _listing(price: Any) -> bool:
    return bool(price) and str(price.get("source", "")).startswith(LISTING_PRICE)


@cache
def without_listings(catalog: Catalog) -> Catalog:
    """The same parts and columns; the prices that are retail listings removed (the part then has no price). One
    copy per catalog, so a worker's searches on it share their warm caches."""
    tables = {}
    for kind, table in catalog.tables.items():
        cols = dict(table.columns)
        if "price" in cols:
            cols["price"] = [None if _listing(p) else p for p in cols["price"]]
        tables[kind] = KindTable(kind, cols)
    out = Catalog(tables, list(catalog.problems), catalog.source)
    assert sum(_listing(p) for t in catalog.tables.values() for p in t.column("price")) >= 2  # what is removed
    return out


@contextmanager
def cli_on(catalog: Catalog, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The in-process CLI (cli_in_process, test_suggest_cli.run) answering on `catalog`: the CLI loads its catalog
    through rigplan.catalog.load_catalog when it runs."""
    monkeypatch.setattr(rigplan.catalog, "load_catalog", lambda *a, **k: catalog)
    yield
