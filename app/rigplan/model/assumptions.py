"""The cost assumptions saved inside a build file.

Every default names its source in docs/cost-model.md; the `DEFAULT_SOURCES` map carries the same text for tooltips.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from pydantic import Field, model_validator

from rigplan.model.common import CurrencyCode, Frozen

Share = Annotated[float, Field(ge=0, le=1, allow_inf_nan=False)]
NonNeg = Annotated[float, Field(ge=0, allow_inf_nan=False)]
Hours = Annotated[float, Field(ge=0, le=24, allow_inf_nan=False)]


class Pricing(StrEnum):
    ON_DEMAND = "on-demand"
    SPOT = "spot"
    RESERVED_1Y = "reserved-1y"
    RESERVED_3Y = "reserved-3y"


class Assumptions(Frozen):
    currency: CurrencyCode = "USD"
    usd_rate: Annotated[float, Field(gt=0, allow_inf_nan=False)] = 1.0  # units of `currency` per 1 USD
    electricity_per_kwh: NonNeg = 0.17  # in `currency`
    hours_per_day: Hours = 8.0  # at full load
    idle_hours_per_day: Hours = 4.0  # powered on, idle
    horizon_years: Annotated[float, Field(gt=0, le=10, allow_inf_nan=False)] = 3.0
    resale_fraction: Share = 0.40  # of the parts price, at the horizon
    tax_fraction: Annotated[float, Field(ge=0, le=1, allow_inf_nan=False)] = 0.0
    shipping: NonNeg = 0.0  # in `currency`
    pricing: Pricing = Pricing.ON_DEMAND
    spot_overhead: Share = 0.10  # share of spot work lost to interruptions
    storage_gb: NonNeg = 500.0
    storage_per_gb_month: NonNeg = 0.08  # USD, EBS gp3
    egress_gb_month: NonNeg = 0.0
    egress_per_gb: NonNeg = 0.09  # USD
    speedup: Annotated[float, Field(gt=0, allow_inf_nan=False)] | None = None  # desktop / instance, when known
    scaling_efficiency: Annotated[float, Field(gt=0, le=1, allow_inf_nan=False)] = 0.875  # per extra GPU
    wall_voltage: Annotated[float, Field(gt=0, le=480, allow_inf_nan=False)] = 120.0
    wall_amps: Annotated[float, Field(gt=0, le=100, allow_inf_nan=False)] = 15.0

    @model_validator(mode="after")
    def _day_has_24_hours(self) -> Assumptions:
        if self.hours_per_day + self.idle_hours_per_day > 24:
            raise ValueError("hours at load plus idle hours exceed 24 per day")
        return self
