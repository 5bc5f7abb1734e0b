"""Cloud GPU offers: a priced instance type in a region, with source, date and flagged data quirks.

parts/cloud/offers.yaml is the source (tools/import_cloud.py); offers.json beside it is the compiled form, checked
against the YAML's SHA-256, so start-up reads JSON (~10 ms) instead of parsing YAML (~0.5 s).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Annotated

from pydantic import Field, TypeAdapter, ValidationError

from rigplan.model.assumptions import Pricing
from rigplan.model.common import Frozen
from rigplan.paths import parts_dir

OFFERS_FORMAT = 1
Usd = Annotated[float, Field(gt=0, allow_inf_nan=False)]


class Offer(Frozen):
    id: str
    provider: str  # aws, gcp, azure, lambda
    instance_type: str
    region: str
    gpu_model: str | None = None
    gpu_count: Annotated[int, Field(ge=1)] = 1
    # A slice of one GPU (AWS g6f/gr6f: 1/8 to 1/2 of an L4). Its speed is not a GPU's, so offer_speed gives None.
    gpu_fraction: Annotated[float, Field(gt=0, lt=1)] | None = None
    cpu_arch: str | None = None  # "arm64" for Graviton hosts (g5g); None: x86-64
    vram_gb_each: float | None = None
    vcpus: int | None = None
    ram_gb: float | None = None
    ondemand_usd_h: Usd | None = None
    spot_usd_h: Usd | None = None
    reserved_1y_usd_h: Usd | None = None
    reserved_3y_usd_h: Usd | None = None
    # Paid once at the start of each term, on top of the hourly rate (a "partial/all upfront" commitment). None: no
    # upfront part (the "no upfront" rates that the sources list). See rigplan.costs.commitment.
    reserved_1y_upfront_usd: Annotated[float, Field(ge=0)] | None = None
    reserved_3y_upfront_usd: Annotated[float, Field(ge=0)] | None = None
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
        provider = "Lambda" if self.provider == "lambda" else self.provider.upper()
        return f"{provider} {self.instance_type} {self.region}{when}: {gpus}"

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


_LIST = TypeAdapter(list[Offer])


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def write_compiled_offers(folder: Path) -> Path:
    import yaml

    src = folder / "offers.yaml"
    doc = yaml.safe_load(src.read_text("utf-8"))
    offers = _LIST.validate_python(doc["offers"])
    out = {
        "format": OFFERS_FORMAT,
        "yaml_sha256": _sha(src),
        "offers": [o.model_dump(mode="json", exclude_none=True) for o in offers],
    }
    target = folder / "offers.json"
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".offers-", suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(out, fh, ensure_ascii=False, separators=(",", ":"))
    os.chmod(tmp, 0o644)
    os.replace(tmp, target)
    return target


class OfferCatalog:
    def __init__(self, offers: Iterable[Offer], problem: str | None = None) -> None:
        self.offers = list(offers)
        self.by_id = {o.id: o for o in self.offers}
        self.problem = problem
        self.origin = "bundled snapshot"  # where the current prices come from (rigplan.cloudprices.store sets it)

    def __len__(self) -> int:
        return len(self.offers)

    def get(self, offer_id: str) -> Offer | None:
        return self.by_id.get(offer_id)

    def find(
        self,
        provider: str | None = None,
        gpu: str | None = None,
        region: str | None = None,
        instance: str | None = None,
        current_only: bool = False,
    ) -> list[Offer]:
        out = []
        for o in self.offers:
            if provider and o.provider != provider.lower():
                continue
            if gpu and (o.gpu_model is None or gpu.lower() not in o.gpu_model.lower()):
                continue
            if region and o.region != region:
                continue
            if instance and o.instance_type != instance:
                continue
            if current_only and o.snapshot != "current":
                continue
            out.append(o)
        return out

    def providers(self) -> list[str]:
        return sorted({o.provider for o in self.offers})


def load_offers(folder: Path | None = None) -> OfferCatalog:
    """All offers; a missing or broken file gives an empty catalog with `problem` set, never an exception."""
    folder = folder or parts_dir() / "cloud"
    src, compiled = folder / "offers.yaml", folder / "offers.json"
    sha: str | None = None  # None: no YAML source (the installers ship offers.json only), use the compiled file
    try:
        sha = _sha(src)
    except OSError as exc:
        if not compiled.is_file():
            return OfferCatalog([], f"cloud offers not found: {exc}")
    try:
        doc = json.loads(compiled.read_bytes())
        if doc.get("format") == OFFERS_FORMAT and (sha is None or doc.get("yaml_sha256") == sha):
            return OfferCatalog(_LIST.validate_python(doc["offers"]))
    except (OSError, ValueError, ValidationError, AttributeError):
        pass
    try:  # the YAML was edited (or the compiled file is broken): read the YAML itself
        import yaml

        doc = yaml.safe_load(src.read_text("utf-8"))
        good, bad = [], 0
        for raw in doc.get("offers", []):
            try:
                good.append(Offer.model_validate(raw))
            except ValidationError:
                bad += 1
        return OfferCatalog(good, f"{bad} broken offers skipped" if bad else None)
    except Exception as exc:  # a corrupt offers file must not stop the app
        return OfferCatalog([], f"cloud offers unreadable: {exc}")
