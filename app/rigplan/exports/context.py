"""What a report says about the build's setting, in the build's own currency and words (issue 40): the user's notes,
the electricity price used with its region and source, the hours of use and the speed workload, and the one rate
every converted amount went through. The PDF and the Markdown print these; a line's price and an offer's hourly
price are converted here the way the cost model converts them, so a GBP report has no USD part prices beside its
GBP total."""

from __future__ import annotations

from rigplan.costs.fx import NoRate, Rate, convert, electricity_price, rate_for
from rigplan.exports.plan import Plan
from rigplan.model.assumptions import Pricing
from rigplan.model.common import Price
from rigplan.model.electricity import DEFAULT_KWH
from rigplan.model.offers import Offer
from rigplan.wording import money


def _rate(plan: Plan) -> Rate | None:
    try:
        return rate_for(plan.build.assumptions)
    except NoRate:  # a currency without a reference rate and none given: foreign amounts stay as quoted
        return None


def line_price(plan: Plan, price: Price | None) -> str:
    """A line's unit price in the report's currency ("no price" when unknown); in its own currency, labelled with
    it, only when no rate is known (never relabelled)."""
    if price is None:
        return "no price"
    if price.currency == plan.currency:
        return money(plan.currency, price.amount)
    rate = _rate(plan)
    amount = convert(price.amount, price.currency, rate) if rate is not None else None
    return money(price.currency, price.amount) if amount is None else money(plan.currency, amount)


def hourly_price(plan: Plan, offer: Offer, pricing: Pricing) -> str:
    """An offer's hourly price (quoted in USD) in the report's currency, three decimals."""
    hourly = offer.hourly(pricing)
    if hourly is None:
        return "no price"
    rate = _rate(plan)
    if rate is None or plan.currency == "USD":
        return money("USD", hourly, 3)
    return money(plan.currency, hourly * rate.per_usd, 3)


def context_lines(plan: Plan) -> list[tuple[str, str]]:
    """The build's setting as (label, words): notes, electricity (price, region, source), use, currency and rate."""
    b = plan.build
    a = b.assumptions
    cur = plan.currency
    kwh, source = electricity_price(a)
    where = DEFAULT_KWH[cur].where if a.electricity_per_kwh is None and cur in DEFAULT_KWH else ""
    out = [("Your notes", b.notes.strip())] if b.notes.strip() else []
    out.append(("Electricity", f"{money(cur, kwh, 3)} per kWh{', ' + where if where else ''}: {source}"))
    use = (
        f"{a.hours_per_day:g} h of training and {a.idle_hours_per_day:g} h idle a day, over {a.horizon_years:g} "
        f"years; speed figures for {a.precision.value} precision, workload {a.workload.value}"
    )
    out.append(("Use", use))
    if cur != "USD":
        out.append(("Currency", f"every amount is in {cur}; prices quoted in others converted at {plan.cost.fx_basis}"))
    return out
