"""The cost assumptions saved inside a build file.

Every default names its source in docs/cost-model.md; the `DEFAULT_SOURCES` map carries the same text for tooltips.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from pydantic import Field, model_validator

from rigplan.model.common import MAX_AMOUNT, CurrencyCode, Frozen, NoNegativeZero

# Upper bounds (docs/reliability.md) are generous, and keep every cost sum and chart range finite: a figure of
# 1e300 GB of storage used to give an infinite chart range. Amounts in `currency` share the price limit.
MAX_RATE = 1e6  # units of a currency per USD (KRW is about 1,400; JPY about 150)
MAX_UNIT_PRICE = 1e4  # per kWh, per GB-month, per GB: about USD 0.01-0.5 today, in any currency
MAX_GB = 1e8  # 100 PB of cloud storage or monthly egress: far beyond one workstation's data
MAX_SPEEDUP = 1e3  # desktop / instance throughput

Share = Annotated[float, Field(ge=0, le=1, allow_inf_nan=False), NoNegativeZero]
NonNeg = Annotated[float, Field(ge=0, allow_inf_nan=False), NoNegativeZero]
Hours = Annotated[float, Field(ge=0, le=24, allow_inf_nan=False), NoNegativeZero]
UnitPrice = Annotated[float, Field(ge=0, le=MAX_UNIT_PRICE, allow_inf_nan=False), NoNegativeZero]
Gigabytes = Annotated[float, Field(ge=0, le=MAX_GB, allow_inf_nan=False), NoNegativeZero]
Money = Annotated[float, Field(ge=0, le=MAX_AMOUNT, allow_inf_nan=False), NoNegativeZero]


class Pricing(StrEnum):
    ON_DEMAND = "on-demand"
    SPOT = "spot"
    RESERVED_1Y = "reserved-1y"
    RESERVED_3Y = "reserved-3y"


class Assumptions(Frozen):
    currency: CurrencyCode = "USD"
    usd_rate: Annotated[float, Field(gt=0, le=MAX_RATE, allow_inf_nan=False)] = 1.0  # units of `currency` per 1 USD
    electricity_per_kwh: UnitPrice = 0.17  # in `currency`
    hours_per_day: Hours = 8.0  # at full load
    idle_hours_per_day: Hours = 4.0  # powered on, idle
    horizon_years: Annotated[float, Field(gt=0, le=10, allow_inf_nan=False)] = 3.0
    resale_fraction: Share = 0.40  # of the parts price, at the horizon
    tax_fraction: Annotated[float, Field(ge=0, le=1, allow_inf_nan=False)] = 0.0
    shipping: Money = 0.0  # in `currency`
    pricing: Pricing = Pricing.ON_DEMAND
    spot_overhead: Share = 0.10  # share of spot work lost to interruptions
    storage_gb: Gigabytes = 0.0  # cloud storage kept for the work; 0 until the user sets it
    storage_per_gb_month: UnitPrice = 0.08  # USD, EBS gp3
    egress_gb_month: Gigabytes = 0.0
    egress_per_gb: UnitPrice = 0.09  # USD
    # desktop / instance, when known
    speedup: Annotated[float, Field(gt=0, le=MAX_SPEEDUP, allow_inf_nan=False)] | None = None
    scaling_efficiency: Annotated[float, Field(gt=0, le=1.2, allow_inf_nan=False)] = 0.8  # per extra GPU
    wall_voltage: Annotated[float, Field(gt=0, le=480, allow_inf_nan=False)] = 120.0
    wall_amps: Annotated[float, Field(gt=0, le=100, allow_inf_nan=False)] = 15.0

    @model_validator(mode="after")
    def _day_has_24_hours(self) -> Assumptions:
        if self.hours_per_day + self.idle_hours_per_day > 24:
            raise ValueError("hours at load plus idle hours exceed 24 per day")
        return self


# Where each default comes from (docs/cost-model.md has the same table); the GUI shows these as tooltips.
DEFAULT_SOURCES: dict[str, str] = {
    "currency": "Catalog and cloud prices are in USD; choose another currency with its rate per USD.",
    "usd_rate": "Units of the chosen currency per US dollar (yours to set: RigPlan has no live rates).",
    "electricity_per_kwh": "Default 0.17: US average residential price 2025 (US EIA, Electric Power Monthly).",
    "hours_per_day": "Default 8 h: a working day of training. Tim Dettmers' guide uses 15 % (3.6 h) for a PhD student.",
    "idle_hours_per_day": "Default 4 h: RigPlan's assumption that the machine is left on, idle, part of the day.",
    "horizon_years": "Default 3 years: RigPlan's assumption, about one and a half GPU generations.",
    "resale_fraction": "Default 40 %: RigPlan's conservative assumption; used high-end GPUs have sold for about half "
    "their launch price three years on.",
    "tax_fraction": "Default 0: add your sales tax or VAT.",
    "shipping": "Default 0: add shipping for the parts.",
    "pricing": "Default on-demand: the price anyone gets without commitment.",
    "spot_overhead": "Default 10 %: RigPlan's assumption; AWS's Spot Instance Advisor shows interruption rates from "
    "under 5 % to over 20 %.",
    "storage_gb": "Default 0 GB: cloud disk kept for datasets and checkpoints; set yours.",
    "storage_per_gb_month": "Default 0.08 USD: AWS EBS gp3, us-east-1.",
    "egress_gb_month": "Default 0 GB: results and checkpoints downloaded per month.",
    "egress_per_gb": "Default 0.09 USD: AWS data transfer out to the internet, first 10 TB/month.",
    "speedup": "Desktop throughput / instance throughput. Empty: computed from measured GPU benchmarks (Lambda) or "
    "spec estimates.",
    "scaling_efficiency": "Default 0.8 per added GPU: typical of Lambda's 2-8 GPU training benchmarks (0.70-0.87 on "
    "PCIe cards).",
    "wall_voltage": "Default 120 V: a US household circuit (230 V in most of Europe).",
    "wall_amps": "Default 15 A breaker: US household circuit (10 or 16 A in Europe). 80 % is usable continuously.",
}
