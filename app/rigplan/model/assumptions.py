"""The cost assumptions saved inside a build file.

Every field's `description` is its help text (the CLI's flags and the GUI's tooltips are generated from it), and
names its default's source; docs/cost-model.md has the same table with the formulas. Fields added after format 1 have
defaults, and `_legacy` maps the three fields whose meaning changed, so old files keep loading.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any

from pydantic import Field, model_validator

from rigplan.model.common import MAX_AMOUNT, CurrencyCode, Frozen, NoNegativeZero

# Upper bounds (docs/reliability.md) are generous, and keep every cost sum and chart range finite: a figure of
# 1e300 GB of storage used to give an infinite chart range. Amounts in `currency` share the price limit.
MAX_RATE = 1e6  # units of a currency per USD (KRW is about 1,400; JPY about 150)
MAX_UNIT_PRICE = 1e4  # per kWh, per GB-month, per GB: about USD 0.01-0.5 today, in any currency
MAX_GB = 1e8  # 100 PB of cloud storage or monthly egress: far beyond one workstation's data
MAX_SPEEDUP = 1e3  # desktop / instance throughput
MAX_WALL_WATTS = 1e5  # ten of the largest PSUs at the wall
MAX_JOB = 1e7  # hours, days or jobs a year

Share = Annotated[float, Field(ge=0, le=1, allow_inf_nan=False), NoNegativeZero]
NonNeg = Annotated[float, Field(ge=0, allow_inf_nan=False), NoNegativeZero]
Positive = Annotated[float, Field(gt=0, allow_inf_nan=False)]
Hours = Annotated[float, Field(ge=0, le=24, allow_inf_nan=False), NoNegativeZero]
Efficiency = Annotated[float, Field(ge=0, le=1, allow_inf_nan=False), NoNegativeZero]
UnitPrice = Annotated[float, Field(ge=0, le=MAX_UNIT_PRICE, allow_inf_nan=False), NoNegativeZero]
Gigabytes = Annotated[float, Field(ge=0, le=MAX_GB, allow_inf_nan=False), NoNegativeZero]
Money = Annotated[float, Field(ge=0, le=MAX_AMOUNT, allow_inf_nan=False), NoNegativeZero]
Rate = Annotated[float, Field(gt=0, le=MAX_RATE, allow_inf_nan=False)]
Watts = Annotated[float, Field(ge=0, le=MAX_WALL_WATTS, allow_inf_nan=False), NoNegativeZero]
JobFigure = Annotated[float, Field(gt=0, le=MAX_JOB, allow_inf_nan=False)]
ResaleCurve = tuple[Share, Share, Share, Share]

# Values that format-1 files wrote for every build, defaults of a model that no longer exists (see _legacy).
LEGACY_RESALE_DEFAULT = 0.40
LEGACY_SCALING_DEFAULT = 0.8
# A data-loader-bound workload: 4 GPUs gave 1.54x one (p3.8xlarge vs p3.2xlarge, Tacotron, a 2021 user report):
# (1.54 - 1) / 3 = 0.18 per added GPU. Offered as a preset by the GUI; the workload "tacotron2-dataloader-bound"
# carries the same measurement as its own scaling.
DATA_LOADER_BOUND_SCALING = 0.18


class Pricing(StrEnum):
    ON_DEMAND = "on-demand"
    SPOT = "spot"
    RESERVED_1Y = "reserved-1y"
    RESERVED_3Y = "reserved-3y"


class Precision(StrEnum):
    MIXED = "mixed"
    FP32 = "fp32"


class Workload(StrEnum):
    """Whose speed the ratios use: Lambda's geometric mean over its models, one measured model, or the seed's
    data-loader-bound Tacotron case (parts/gpu_perf.yaml `workloads`, rigplan.costs.perf.measured_workloads)."""

    ALL = "all"
    RESNET50 = "resnet50"
    SSD = "ssd"
    BERT_BASE = "bert-base"
    BERT_LARGE = "bert-large"
    GNMT = "gnmt"
    TACOTRON2 = "tacotron2"
    WAVEGLOW = "waveglow"
    TACOTRON2_DATALOADER_BOUND = "tacotron2-dataloader-bound"


class Assumptions(Frozen):
    currency: CurrencyCode = Field(
        "USD",
        description="Currency of every amount. Catalog and cloud prices are USD, converted at the ECB reference rate "
        "shipped in parts/fx_rates.yaml (or your --fx-rate).",
    )
    fx_rate: Rate | None = Field(
        None,
        description="Units of the currency per US dollar. Empty: the ECB euro reference rates of the date in "
        "parts/fx_rates.yaml, crossed through the euro.",
    )
    electricity_per_kwh: UnitPrice | None = Field(
        None,
        description="Electricity price per kWh, in the chosen currency. Empty: a dated public price for the "
        "currency: USD 0.17 (US EIA, 2025), EUR 0.2872 (Eurostat EU average, 2025-H1), GBP 0.2635 (Ofgem cap, "
        "Oct-Dec 2025), JPY 34 (TEPCO, 2025); other currencies: the US price at the ECB rate, said so.",
    )
    hours_per_day: Hours = Field(
        8.0,
        description="Hours of training a day at full load. Default 8 h: a working day of training; Tim Dettmers' "
        "guide uses 15 % (3.6 h) for a PhD student.",
    )
    idle_hours_per_day: Hours = Field(
        4.0,
        description="Hours a day powered on but idle. Default 4 h: RigPlan's assumption that the machine is left "
        "on part of the day.",
    )
    horizon_years: Annotated[float, Field(gt=0, le=10, allow_inf_nan=False)] = Field(
        3.0, description="Years compared. Default 3: RigPlan's assumption, about one and a half GPU generations."
    )
    resale_fraction: Share | None = Field(
        None,
        description="Resale value at the horizon as a share of the parts cost. Empty: read off the depreciation "
        "curve (resale_curve) at the horizon.",
    )
    resale_curve: ResaleCurve | None = Field(
        None,
        description="Retained value after 1, 2, 3 and 5 years, as shares of the parts cost (4 numbers). Empty: "
        "RigPlan's curve from used-market observations, parts/resale.yaml.",
    )
    tax_fraction: Share = Field(0.0, description="Sales tax or VAT on the parts, as a share. Default 0: add yours.")
    shipping: Money = Field(0.0, description="Shipping for the parts, in the chosen currency. Default 0.")
    pricing: Pricing = Field(
        Pricing.ON_DEMAND, description="Cloud pricing. Default on-demand: the price anyone gets without commitment."
    )
    spot_overhead: Annotated[float, Field(ge=0, lt=1, allow_inf_nan=False)] = Field(
        0.10,
        description="Share of spot work lost to interruptions (below 1). Default 10 %: RigPlan's assumption; AWS's "
        "Spot Instance Advisor shows interruption rates from under 5 % to over 20 %.",
    )
    cloud_tax_fraction: Share = Field(
        0.0,
        description="VAT or sales tax on the cloud bill, as a share (0.2 for 20 % VAT). Default 0: list prices are "
        "before tax; EU and UK buyers without a VAT number pay it on top.",
    )
    storage_gb: Gigabytes = Field(
        0.0, description="Cloud disk kept for datasets and checkpoints, GB. Default 0 GB: set yours."
    )
    storage_per_gb_month: UnitPrice = Field(
        0.08, description="Cloud storage price, USD per GB-month. Default 0.08: AWS EBS gp3, us-east-1."
    )
    egress_gb_month: Gigabytes = Field(0.0, description="Data downloaded from the cloud per month, GB. Default 0.")
    egress_per_gb: UnitPrice = Field(
        0.09, description="Egress price, USD per GB. Default 0.09: AWS data transfer out, first 10 TB/month."
    )
    speedup: Annotated[float, Field(gt=0, le=MAX_SPEEDUP, allow_inf_nan=False)] | None = Field(
        None,
        description="Speed ratio, desktop throughput / instance throughput. Empty: from measured GPU benchmarks "
        "(Lambda) or spec estimates; unknown when neither exists.",
    )
    precision: Precision = Field(
        Precision.MIXED,
        description="Training precision: mixed (automatic mixed precision) or fp32. GPUs without tensor cores "
        "(GTX 10-series, P100, K80, M60) gain little or nothing from mixed precision.",
    )
    workload: Workload = Field(
        Workload.ALL,
        description="Whose speed the ratios use. Default all: the geometric mean of the models Lambda measured "
        "(ResNet-50, SSD, BERT base and large, GNMT, Tacotron 2, WaveGlow); or one of them, with its own scaling; "
        "tacotron2-dataloader-bound: a user's p3 runs where 4 GPUs gave 1.54x one.",
    )
    scaling_desktop: Efficiency | None = Field(
        None,
        description="Throughput each added desktop GPU contributes, as a share of one. Empty: the GPU's own "
        "measured multi-GPU runs, else the fit n^b of Lambda's 1-8 GPU PCIe runs (parts/gpu_perf.yaml). A "
        "data-loader-bound workload: 0.18.",
    )
    scaling_cloud: Efficiency | None = Field(
        None,
        description="Throughput each added instance GPU contributes. Empty: the GPU's own measured runs, else the "
        "fit n^b of Lambda's 1-8 GPU runs for the instance's interconnect (SXM/NVLink or PCIe), parts/gpu_perf.yaml.",
    )
    load_watts: Watts | None = Field(
        None,
        description="Wall watts at training load. Empty: the build's parts through its PSU's efficiency "
        "(docs/checks.md).",
    )
    idle_watts: Watts | None = Field(
        None, description="Wall watts when idle. Empty: the build's estimate (or 0 without a build)."
    )
    job_hours: JobFigure | None = Field(
        None,
        description="Job mode: one job is this many hours of work on the reference GPU (1x V100 16 GB), e.g. a "
        "400 GPU-hour run.",
    )
    job_days: JobFigure | None = Field(
        None,
        description="Job mode: one job is this many days of the desktop's work at hours_per_day, e.g. a 12-day "
        "project.",
    )
    jobs_per_year: JobFigure | None = Field(
        None, description="Job mode: jobs a year, for the yearly cost and the year owning wins. Empty: not shown."
    )
    wall_voltage: Annotated[float, Field(gt=0, le=480, allow_inf_nan=False)] = Field(
        120.0, description="Wall circuit voltage. Default 120 V: a US household circuit (230 V in most of Europe)."
    )
    wall_amps: Annotated[float, Field(gt=0, le=100, allow_inf_nan=False)] = Field(
        15.0,
        description="Breaker rating, A. Default 15 A: US household circuit (10 or 16 A in Europe); 80 % is usable "
        "continuously.",
    )

    @model_validator(mode="before")
    @classmethod
    def _legacy(cls, data: Any) -> Any:
        """Format-1 files: `usd_rate` is now `fx_rate`; `resale_fraction: 0.4` and `scaling_efficiency: 0.8` were
        written for every build as defaults of the old model, so they mean "default" (the new curve and measured
        scaling); any other value is the user's and is kept (scaling for both sides)."""
        if not isinstance(data, dict) or not ({"usd_rate", "scaling_efficiency"} & data.keys()):
            return data
        data = dict(data)
        rate = data.pop("usd_rate", None)
        # A non-USD currency at rate 1.0 was the relabelling bug (a ZAR build at 1 ZAR per USD): use the ECB rate.
        non_usd = str(data.get("currency", "USD")).upper() != "USD"
        if rate is not None and "fx_rate" not in data and non_usd and rate != 1.0:
            data["fx_rate"] = rate
        if data.get("resale_fraction") == LEGACY_RESALE_DEFAULT:
            data["resale_fraction"] = None
        eff = data.pop("scaling_efficiency", None)
        if eff is not None and eff != LEGACY_SCALING_DEFAULT:
            if isinstance(eff, int | float) and not isinstance(eff, bool):
                eff = min(eff, 1.0)  # format 1 allowed up to 1.2; anything else is left for validation to refuse
            data.setdefault("scaling_desktop", eff)
            data.setdefault("scaling_cloud", eff)
        return data

    @model_validator(mode="after")
    def _day_has_24_hours(self) -> Assumptions:
        if self.hours_per_day + self.idle_hours_per_day > 24:
            raise ValueError("hours at load plus idle hours exceed 24 per day")
        if self.job_hours is not None and self.job_days is not None:
            raise ValueError("give a job as job_hours or job_days, not both")
        if self.currency == "USD" and self.fx_rate not in (None, 1.0):
            raise ValueError("prices are in USD: a USD report has no exchange rate to set")
        return self


# Where each default comes from: the fields' descriptions (tooltips in the GUI, --help in the CLI).
DEFAULT_SOURCES: dict[str, str] = {name: f.description or "" for name, f in Assumptions.model_fields.items()}
