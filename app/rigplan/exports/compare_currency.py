"""Builds in different currencies compared in one (issue 40: Compare refused them although the ECB rates are at hand).

Every build is costed in the comparison's currency: the first build's, or the one asked for (`rigplan compare
--currency`). A build in another currency is converted at the reference rates of parts/fx_rates.yaml (or at a rate its
owner set, when one side has it): its own amounts in its currency, the electricity price (the user's or its region's
dated default, so a UK build compared in USD still pays UK electricity) and shipping, are converted and kept; catalog
and cloud prices are USD and are converted by the cost model as for any build, at the same rate. Prices with a currency
of their own (a part's price override, an Other item) are converted by the cost model at their own dates as always.

A currency without a rate (no ECB reference rate and none set) is refused with one line, never relabelled.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rigplan.costs.fx import NoRate, Rate, electricity_price, load_fx, rate_for
from rigplan.model.build import Build
from rigplan.model.electricity import DEFAULT_KWH
from rigplan.wording import money

USER_SET = "set by the user"


@dataclass(frozen=True)
class Conversion:
    """One build converted into the comparison's currency: at `rate` units of `to` per 1 `source`."""

    build: str
    source: str  # the build's own currency
    to: str
    rate: float
    basis: str  # "ECB reference rate of 2026-10-30", or says the owner set it
    date: str | None  # the reference rates' date; None when only user-set rates were used
    electricity: tuple[float, float, str]  # per kWh: in `source`, in `to`, where the price comes from
    region: str  # whose electricity price that is, in a few words ("Great Britain", "set in the build")

    def text(self) -> str:
        kwh_from, kwh_to, _ = self.electricity
        return (
            f"{self.build}: converted from {self.source} to {self.to} at 1 {self.source} = {self.rate:.4f} {self.to} "
            f"({self.basis}); its electricity {money(self.source, kwh_from, 4)}/kWh ({self.region}) kept as "
            f"{money(self.to, kwh_to, 4)}/kWh"
        )

    def as_json(self) -> dict[str, Any]:
        return {
            "build": self.build,
            "from": self.source,
            "to": self.to,
            "rate": round(self.rate, 6),
            "rate_basis": self.basis,
            "rate_date": self.date,
            "electricity_per_kwh": {
                "from": round(self.electricity[0], 4),
                "to": round(self.electricity[1], 4),
                "source": self.electricity[2],
                "region": self.region,
            },
        }


def _basis(src: Rate, dst: Rate) -> tuple[str, str | None]:
    foreign = [r for r in (src, dst) if r.currency != "USD"]
    said = [f"{r.currency} rate {USER_SET}" if r.basis == USER_SET else r.basis for r in foreign]
    basis = " and ".join(dict.fromkeys(said))
    ecb = any(r.basis.startswith("ECB") for r in (src, dst))
    return basis, (load_fx().date if ecb else None)


def target_rate(builds: Sequence[Build], currency: str) -> Rate:
    """The rate every build is costed at: a compared build's own rate for that currency when its owner set one (the
    first such build), else the reference rate. Raises NoRate (one line) when there is none."""
    for b in builds:
        if b.assumptions.currency == currency and b.assumptions.fx_rate is not None:
            return rate_for(b.assumptions)
    return rate_for(builds[0].assumptions.model_copy(update={"currency": currency, "fx_rate": None}))


def to_currency(build: Build, dst: Rate) -> tuple[Build, Conversion | None]:
    """The build costed in dst.currency (unchanged, None when it already is)."""
    a = build.assumptions
    if a.currency == dst.currency:
        return build, None
    try:
        src = rate_for(a)
    except NoRate as exc:
        raise NoRate(f"{build.name}: cannot convert from {a.currency} to {dst.currency}: {exc}") from None
    factor = dst.per_usd / src.per_usd  # units of dst per 1 unit of the build's currency
    kwh, where = electricity_price(a)
    new = a.model_copy(
        update={
            "currency": dst.currency,
            "fx_rate": dst.per_usd if dst.basis == USER_SET else None,
            "electricity_per_kwh": round(kwh * factor, 4),
            "shipping": round(a.shipping * factor, 2),
        }
    )
    basis, date = _basis(src, dst)
    if a.electricity_per_kwh is not None:
        region = "set in the build"
    elif a.currency in DEFAULT_KWH:
        region = DEFAULT_KWH[a.currency].where
    else:
        region = "the US price converted"
    note = Conversion(build.name, a.currency, dst.currency, factor, basis, date, (kwh, kwh * factor, where), region)
    return build.model_copy(update={"assumptions": new}), note


def one_currency(builds: Sequence[Build], currency: str | None = None) -> tuple[list[Build], list[Conversion]]:
    """Every build in `currency` (default: the first build's); the conversions made, each with its rate and date.
    Raises NoRate with one line naming the build and the currency when a rate is missing."""
    if not builds:
        return [], []
    target = (currency or builds[0].assumptions.currency).upper()
    try:
        dst = target_rate(builds, target)
    except NoRate as exc:
        raise NoRate(f"cannot compare in {target}: {exc}") from None
    out, notes = [], []
    for b in builds:
        converted, note = to_currency(b, dst)
        out.append(converted)
        if note is not None:
            notes.append(note)
    return out, notes
