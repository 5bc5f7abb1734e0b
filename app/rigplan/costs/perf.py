"""Relative training throughput of GPUs (1x V100 16 GB = 1.0), measured where possible, else estimated from specs.

parts/gpu_perf.yaml is written by tools/import_perf.py from Lambda's benchmarks; every figure carries its basis.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml

from rigplan.costs.offers import Offer
from rigplan.model.parts import Gpu
from rigplan.paths import parts_dir

REFERENCE = "1x V100 16GB"


@dataclass(frozen=True)
class Speed:
    value: float  # relative to REFERENCE
    kind: str  # "measured", "estimate" or "override"
    basis: str
    model: str


@dataclass(frozen=True)
class PerfTable:
    models: dict[str, Speed]
    fit: dict[str, float]
    fit_basis: str
    precision: str


def key(name: str) -> str:
    s = name.lower().replace("geforce ", "").replace("nvidia ", "").replace("tesla ", "")
    return re.sub(r"[\s\-]+", " ", s).strip()


def without_memory(name: str) -> str:
    """'GeForce RTX 3080 10 GB' -> 'GeForce RTX 3080' (OpenDB chipsets carry the memory size, benchmarks don't)."""
    return re.sub(r"\s+\d+\s*GB$", "", name.strip(), flags=re.I)


@cache
def load_perf(path: Path | None = None, precision: str = "fp16") -> PerfTable:
    doc = yaml.safe_load((path or parts_dir() / "gpu_perf.yaml").read_text("utf-8"))
    models = {}
    for m in doc["models"]:
        value = m.get(precision)
        if value:
            models[key(m["model"])] = Speed(float(value), m["kind"], m["basis"], m["model"])
    fit = doc["fit"][precision]
    return PerfTable(models, fit, fit["basis"], precision)


def estimate(table: PerfTable, fp32_tflops: float | None, bandwidth_gbs: float | None) -> float | None:
    if not fp32_tflops or not bandwidth_gbs:
        return None
    f = table.fit
    return math.exp(
        f["intercept"]
        + f["fp32_tflops_exponent"] * math.log(fp32_tflops)
        + f["bandwidth_gbs_exponent"] * math.log(bandwidth_gbs)
    )


def gpu_speed(table: PerfTable, gpu: Gpu) -> Speed | None:
    """Per-card speed of a desktop GPU: the measured figure for its chipset, else the spec fit, else unknown."""
    if gpu.chipset:
        hit = table.models.get(key(gpu.chipset)) or table.models.get(key(without_memory(gpu.chipset)))
        if hit:
            return hit
    value = estimate(table, gpu.fp32_tflops, gpu.memory_bandwidth_gbs)
    if value is None:
        return None
    return Speed(value, "estimate", f"{table.fit_basis}; specs of {gpu.chipset or gpu.name}", gpu.chipset or gpu.name)


# Instance GPU names (SkyPilot / AWS) -> benchmark model names. A100/H100 are SXM parts on AWS/GCP/Azure; Lambda's
# 1x A100 was measured as "A100 40GB PCIe" on Lambda Cloud itself, and its H100 PCIe types say so in their names.
def instance_model(offer: Offer) -> str | None:
    g = (offer.gpu_model or "").upper()
    t = offer.instance_type.lower()
    if not g or g == "GAUDI":
        return None
    if g in {"A100", "A100-40GB"}:
        return "A100 40GB PCIe" if offer.provider == "lambda" and "sxm" not in t else "A100 40GB SXM4"
    if g == "A100-80GB":
        return "A100 80GB PCIe" if "pcie" in t else "A100 80GB SXM4"
    if g in {"H100", "H100-MEGA"}:
        return "H100 PCIe" if "pcie" in t else "H100 SXM5"
    return {
        "V100": "V100 16GB",
        "V100-32GB": "V100 32GB",
        "A6000": "RTX A6000",
        "RTX6000": "Quadro RTX 6000",
        "RADEON MI25": "Radeon MI25",
        "RADEON PRO V520": "Radeon Pro V520",
    }.get(g, offer.gpu_model)


def offer_speed(table: PerfTable, offer: Offer) -> Speed | None:
    name = instance_model(offer)
    return table.models.get(key(name)) if name else None


def scaled(per_gpu: float, count: int, efficiency: float) -> float:
    """Throughput of `count` GPUs: each GPU after the first adds `efficiency` of one (1 + (n-1) * e)."""
    return per_gpu * (1 + (count - 1) * efficiency) if count > 0 else 0.0
