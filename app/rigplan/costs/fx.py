"""Currency conversion: the ECB reference rates of one dated day (parts/fx_rates.yaml, tools/import_fx.py), or the
user's own rate. Every amount the cost model reports is in Assumptions.currency."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from rigplan import ecb
from rigplan.ecb import FxTable, load_fx  # the shipped table: read in rigplan.ecb, for the cost model and the importer
from rigplan.model.assumptions import Assumptions
from rigplan.model.electricity import DEFAULT_KWH, FALLBACK


class NoRate(ValueError):
    """No reference rate for a currency and none given: one line for the user."""


@dataclass(frozen=True)
class Rate:
    currency: str
    per_usd: float
    basis: str  # "ECB reference rate of 2026-10-30" or "set by the user"


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


def rate_on(currency: str, day: dt.date) -> Rate | None:
    """Units of `currency` per USD by the ECB reference rates of `day`, or of the last working day before it (the ECB
    publishes none on weekends and holidays; rigplan.ecb reads the history). None when the history has no rate
    (before 1999, after its last day, or a currency the ECB does not publish)."""
    if currency == "USD":
        return Rate("USD", 1.0, "prices are in USD")
    got = ecb.per_usd_on(currency, day)
    if got is None:
        return None
    per_usd, d = got
    when = "the price's date" if d == day else f"the last working day on or before the price's date {day}"
    return Rate(currency, per_usd, f"ECB reference rate of {d.isoformat()}, {when}")


def rate_for_date(a: Assumptions, day: dt.date | None, table: FxTable | None = None) -> Rate:
    """The rate for an amount dated `day`: the user's own rate if set; else the ECB rate of that day; else (no exact
    date, or a day past the shipped history) the latest reference rate, the basis saying which."""
    base = rate_for(a, table)
    if a.fx_rate is not None or a.currency == "USD" or day is None:
        return base
    dated = rate_on(a.currency, day)
    if dated is None:
        return Rate(base.currency, base.per_usd, f"{base.basis} (no ECB rate for the price's date {day.isoformat()})")
    return dated


def electricity_price(a: Assumptions, table: FxTable | None = None) -> tuple[float, str]:
    """(price per kWh in the report currency, where it comes from): the user's; else the dated public price for the
    currency; else the US price converted at the reference rate, never relabelled."""
    if a.electricity_per_kwh is not None:
        return a.electricity_per_kwh, "set by you"
    hit = DEFAULT_KWH.get(a.currency)
    if hit is not None:
        return hit.amount, hit.source
    us = DEFAULT_KWH[FALLBACK]
    rate = rate_for(a, table)
    return (
        us.amount * rate.per_usd,
        f"no local figure for {a.currency}: the US price ({us.source}) at {rate.basis}; set your own",
    )
