"""Currency conversion: the ECB reference rates of one dated day (parts/fx_rates.yaml, tools/import_fx.py), or the
user's own rate. Every amount the cost model reports is in Assumptions.currency."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml

from rigplan.model.assumptions import Assumptions
from rigplan.paths import parts_dir


class NoRate(ValueError):
    """No reference rate for a currency and none given: one line for the user."""


@dataclass(frozen=True)
class FxTable:
    date: str
    source: str
    rates: dict[str, float]  # units per USD


@dataclass(frozen=True)
class Rate:
    currency: str
    per_usd: float
    basis: str  # "ECB reference rate of 2026-10-30" or "set by the user"


@cache
def load_fx(path: Path | None = None) -> FxTable:
    doc = yaml.safe_load((path or parts_dir() / "fx_rates.yaml").read_text("utf-8"))
    return FxTable(str(doc["date"]), doc["source"], {k: float(v) for k, v in doc["rates"].items()})


def rate_for(a: Assumptions, table: FxTable | None = None) -> Rate:
    if a.fx_rate is not None:
        return Rate(a.currency, a.fx_rate, "set by the user")
    if a.currency == "USD":
        return Rate("USD", 1.0, "prices are in USD")
    table = table or load_fx()
    per_usd = table.rates.get(a.currency)
    if per_usd is None:
        raise NoRate(f"no reference rate for {a.currency} (the ECB does not publish it): give its rate per US dollar")
    return Rate(a.currency, per_usd, f"ECB reference rate of {table.date}")


def convert(amount: float, currency: str, to: Rate, table: FxTable | None = None) -> float | None:
    """An amount in `currency` into the report currency; None when no rate is known (never a relabel)."""
    if currency == to.currency:
        return amount
    if currency == "USD":
        return amount * to.per_usd
    table = table or load_fx()
    per_usd = table.rates.get(currency)
    return None if per_usd is None else amount / per_usd * to.per_usd
