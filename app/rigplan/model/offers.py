"""A cloud GPU offer: a priced instance type in a region, with source, date and flagged data quirks.

A pure domain type like Part; the offers themselves (the bundled snapshot, the user's updated prices) are loaded by
rigplan.cloud."""

from __future__ import annotations

import datetime as dt
from typing import Annotated

from pydantic import Field

from rigplan.model.assumptions import Pricing
from rigplan.model.common import MAX_AMOUNT, Frozen

# Bounds, so no stored offer can make a cost overflow (a price file with 1e308 USD/h or 1e308 GPUs was accepted and
# then every `rigplan cost` failed). Generous: the dearest instance today, AWS p5.48xlarge (8 H100), is about
# USD 100/h on demand; 64 GPUs is a rack; the bounds are a hundred times past any real offer.
MAX_HOURLY_USD = 10_000.0
MAX_OFFER_GPUS = 64
Usd = Annotated[float, Field(gt=0, le=MAX_HOURLY_USD, allow_inf_nan=False)]
Size = Annotated[float, Field(gt=0, le=10_000_000, allow_inf_nan=False)]


# How providers are written in labels, reports and tables.
PROVIDER_NAMES = {"aws": "AWS", "gcp": "GCP", "azure": "Azure", "lambda": "Lambda"}


class Offer(Frozen):
    id: str
    provider: str  # aws, gcp, azure, lambda
    instance_type: str
    region: str
    gpu_model: str | None = None
    gpu_count: Annotated[int, Field(ge=1, le=MAX_OFFER_GPUS)] = 1
    # A slice of one GPU (AWS g6f/gr6f: 1/8 to 1/2 of an L4). Its speed is not a GPU's, so offer_speed gives None.
    gpu_fraction: Annotated[float, Field(gt=0, lt=1)] | None = None
    cpu_arch: str | None = None  # "arm64" for Graviton hosts (g5g); None: x86-64
    vram_gb_each: Size | None = None
    vcpus: Annotated[int, Field(ge=1, le=100_000)] | None = None
    ram_gb: Size | None = None
    ondemand_usd_h: Usd | None = None
    spot_usd_h: Usd | None = None
    reserved_1y_usd_h: Usd | None = None
    reserved_3y_usd_h: Usd | None = None
    # Paid once at the start of each term, on top of the hourly rate (a "partial/all upfront" commitment). None: no
    # upfront part (the "no upfront" rates that the sources list). See rigplan.costs.commitment.
    reserved_1y_upfront_usd: Annotated[float, Field(ge=0, le=MAX_AMOUNT, allow_inf_nan=False)] | None = None
    reserved_3y_upfront_usd: Annotated[float, Field(ge=0, le=MAX_AMOUNT, allow_inf_nan=False)] | None = None
    source: str = ""
    data_date: dt.date | None = None  # the day the price was read (exact), when the source says
    data_date_earliest: dt.date | None = None  # else the earliest day it can be from (a lower bound)
    data_date_note: str = ""
    snapshot: str = "current"  # "current", "2017-10", "2022-02", "quoted 2018-01-21", ...
    quirks: tuple[str, ...] = ()

    def hourly(self, pricing: Pricing) -> float | None:
        return {
            Pricing.ON_DEMAND: self.ondemand_usd_h,
            Pricing.SPOT: self.spot_usd_h,
            Pricing.RESERVED_1Y: self.reserved_1y_usd_h,
            Pricing.RESERVED_3Y: self.reserved_3y_usd_h,
        }[pricing]

    @property
    def gpus_text(self) -> str:
        if not self.gpu_model:
            return "GPU unknown"
        if self.gpu_fraction:
            return f"{self.gpu_fraction:g} of 1 {self.gpu_model}"
        return f"{self.gpu_count}x {self.gpu_model}"

    @property
    def label(self) -> str:
        when = "" if self.snapshot == "current" else f" ({self.snapshot})"
        gpus = self.gpus_text
        provider = PROVIDER_NAMES.get(self.provider, self.provider.upper())  # "Azure", not "AZURE" (issue 29)
        return f"{provider} {self.instance_type} {self.region}{when}: {gpus}"

    @property
    def odd_price(self) -> str | None:
        """The import's "odd price" flag (a price no second source confirms, e.g. GCP's a2-ultragpu-1g in us-central1
        below the smaller a2-highgpu-1g): such an offer is left out of default picks, never of an explicit choice."""
        return next((q for q in self.quirks if q.startswith("odd price")), None)

    @property
    def date_text(self) -> str:
        if self.data_date:
            return self.data_date.isoformat()
        if self.data_date_earliest:
            return f"after {self.data_date_earliest.isoformat()[:7]}"
        return "date unknown"  # data_date_note says why (tooltips, JSON)

    @property
    def upfront(self) -> dict[Pricing, float]:
        return {
            p: v
            for p, v in (
                (Pricing.RESERVED_1Y, self.reserved_1y_upfront_usd),
                (Pricing.RESERVED_3Y, self.reserved_3y_upfront_usd),
            )
            if v
        }
