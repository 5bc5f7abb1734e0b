"""Default electricity prices by currency, each from a dated public source (docs/cost-model.md, "Defaults").

A report in EUR gets a European price, not the US figure relabelled. A currency with no figure here gets the US
price converted at the ECB rate, and says so (rigplan.costs.fx.electricity_price).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class KwhPrice:
    amount: float  # per kWh, in `currency`
    currency: str
    where: str
    source: str  # who published it, and for which period


DEFAULT_KWH: dict[str, KwhPrice] = {
    "USD": KwhPrice(
        0.17,
        "USD",
        "United States",
        "US average residential price 2025, about 17 cents/kWh (US EIA, Electric Power Monthly)",
    ),
    "EUR": KwhPrice(
        0.2872,
        "EUR",
        "European Union",
        "EU average household price with taxes, first half of 2025: EUR 28.72 per "
        "100 kWh (Eurostat nrg_pc_204, release of 2025-10-29; Germany 38.35, the highest)",
    ),
    "GBP": KwhPrice(
        0.2635,
        "GBP",
        "Great Britain",
        "Ofgem price cap, electricity unit rate for direct debit, 1 October-31 "
        "December 2025: 26.35p/kWh (standing charge of 53.68p a day not included)",
    ),
    "JPY": KwhPrice(
        34.0,
        "JPY",
        "Japan (Tokyo)",
        "TEPCO standard household, June 2025: 8,852 yen for 260 kWh before the July "
        "subsidy (Jiji Press, 2025-06-27), about 34 yen/kWh",
    ),
}
# Country figures within a currency, for the docs and tooltips (the default is the currency's).
COUNTRY_KWH: dict[str, KwhPrice] = {
    "DE": KwhPrice(0.3835, "EUR", "Germany", "Eurostat nrg_pc_204, first half of 2025 (release of 2025-10-29)"),
}
FALLBACK = "USD"
