"""Relative training throughput of GPUs (1x V100 SXM2 16 GB = 1.0 in each precision), and multi-GPU scaling.

parts/gpu_perf.yaml is written by tools/import_perf.py from Lambda's benchmarks; every figure carries its basis
(measured, measured sibling, or estimate with its rule and error). docs/cost-model.md explains the rules.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from rigplan.model.assumptions import Precision
from rigplan.model.offers import Offer
from rigplan.model.parts import Gpu
from rigplan.paths import parts_dir

REFERENCE = "1x V100 SXM2 16GB"
# Classes whose mixed-precision gain counts (fast FP16 on tensor cores, and measured); the others train at their FP32
# speed in mixed precision (tools/import_perf.py FAST_FP16).
FAST_FP16 = ("volta-turing", "ampere+")
NO_FAST_FP16 = "; no fast FP16 math (or no measured gain): mixed precision trains at the FP32 speed"


@dataclass(frozen=True)
class Speed:
    value: float  # relative to REFERENCE, in the table's precision and workload
    kind: str  # "measured", "estimate" or "override"
    basis: str
    model: str
    interconnect: str = "pcie"  # "pcie" or "sxm": which fitted scaling applies to several of them
    chip: str = ""
    own_scaling: float | None = None  # exponent fitted on this GPU's own multi-GPU runs (Lambda), if any


@dataclass(frozen=True)
class ScalingFit:
    """Throughput of n GPUs = n ** exponent x one GPU's (tools/perf_scaling.py)."""

    exponent: float
    basis: str

    def speedup(self, n: int) -> float:
        return float(n) ** self.exponent if n > 0 else 0.0


@dataclass(frozen=True)
class PerfTable:
    precision: str
    models: dict[str, Speed]
    chipsets: dict[str, Speed]
    fit: dict[str, Any]
    fit_basis: str
    gains: dict[str, float]  # mixed-precision gain by GPU class (mixed throughput / FP32 throughput)
    scaling: dict[str, ScalingFit]  # "pcie", "sxm", "nvlink-bridge", for this workload
    leave_one_out: dict[str, Any]
    workload: str = "all"
    workload_label: str = "All models (geometric mean)"
    instances: dict[str, tuple[int, Speed]] = field(default_factory=dict)  # whole instances measured: (GPUs, speed)


def key(name: str) -> str:
    s = name.lower().replace("geforce ", "").replace("nvidia ", "").replace("tesla ", "")
    return re.sub(r"[\s\-]+", " ", s).strip()


def without_memory(name: str) -> str:
    """'GeForce RTX 3080 10 GB' -> 'GeForce RTX 3080' (OpenDB chipsets carry the memory size, benchmarks don't)."""
    return re.sub(r"\s+\d+\s*GB$", "", name.strip(), flags=re.I)


@cache
def _doc(path: Path) -> dict[str, Any]:
    return yaml.load(path.read_text("utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


class UnknownWorkload(ValueError):
    """A workload id the speed table does not have: one line for the user."""


def workload_rows(path: Path | None = None) -> list[dict[str, Any]]:
    return list(_doc(path or parts_dir() / "gpu_perf.yaml")["workloads"])


def _workload(doc: dict[str, Any], workload: str) -> dict[str, Any]:
    for w in doc["workloads"]:
        if w["id"] == workload:
            return w
    ids = ", ".join(w["id"] for w in doc["workloads"])
    raise UnknownWorkload(f"unknown workload {workload!r}; choose one of: {ids}")


def _model_speed(m: dict[str, Any], precision: str, w: dict[str, Any]) -> Speed | None:
    if not m.get(precision):
        return None
    value, basis = float(m[precision]), m["basis"]
    if w["column"]:
        per = (m.get("workloads") or {}).get(w["id"].removesuffix("-dataloader-bound"))
        if per and per.get(precision):
            value = float(per[precision])
            basis = f"{basis}; {w['label']} column"
        else:
            basis = f"{basis}; no {w['label']} figure for it: the all-models figure"
    own = (m.get("scaling") or {}).get(precision)
    return Speed(value, m["kind"], basis, m["model"], m.get("interconnect", "pcie"), m.get("chip", ""), own)


@cache
def load_perf(path: Path | None = None, precision: str = "mixed", workload: str = "all") -> PerfTable:
    precision = Precision(precision).value
    doc = _doc(path or parts_dir() / "gpu_perf.yaml")
    w = _workload(doc, workload)
    models = {key(m["model"]): s for m in doc["models"] if (s := _model_speed(m, precision, w)) is not None}
    fit = doc["fit"]
    fit_basis = fit["basis"][precision]
    chipsets = {}
    for name, c in doc.get("chipsets", {}).items():
        if not c.get(precision):
            continue
        basis = c.get("basis") or (fit["no_tensor_cores"] if c.get("rule") == "no-tensor-cores" else fit_basis)
        if c.get("class") not in FAST_FP16:
            basis += NO_FAST_FP16
        if w["column"]:
            basis += f"; no {w['label']} figure for it: the all-models figure"
        chipsets[key(name)] = Speed(float(c[precision]), "estimate", f"{basis}; specs of the {name}", name)
    # Lookups by name (the parts table's Speed column, gpu_speed) see the catalog chipsets' estimates too; a measured
    # or instance model of the same name wins.
    models = {**chipsets, **models}
    gains = {k: float(v["gain"]) for k, v in doc["mixed_gain"].items()}
    scaling = {}
    for group, g in doc["scaling"].items():
        if w.get("scaling"):
            scaling[group] = ScalingFit(float(w["scaling"]["exponent"]), w["scaling"]["basis"])
        elif w["column"]:
            per = g["workloads"][w["column"]]
            scaling[group] = ScalingFit(
                float(per["exponent"]),
                f"{w['label']}: fit n^{per['exponent']:.3f} over {per['n']} measured runs on {g['label']} (Lambda); "
                f"fit error median {per['median_abs_error']:.0%}",
            )
        else:
            scaling[group] = ScalingFit(float(g["exponent"]), g["basis"])
    loo = doc["leave_one_out"][precision]
    instances = {
        i["instance"]: (int(i["gpus"]), s) for i in doc.get("instances", []) if (s := _instance_speed(i, precision, w))
    }
    return PerfTable(precision, models, chipsets, fit, fit_basis, gains, scaling, loo, w["id"], w["label"], instances)


def _instance_speed(i: dict[str, Any], precision: str, w: dict[str, Any]) -> Speed | None:
    """A whole instance Lambda measured: its speed in V100s (all its GPUs), for the workload's column when measured."""
    value, basis = float(i[precision]), str(i["basis"])
    if w["column"]:
        # One model's column bridged from the 2021 set swings with that model's own software gains (WaveGlow on
        # the V100s: 3.4x on 4 GPUs measured by NVIDIA, 5.9x from Lambda's bridged 2021 instance row): the
        # all-models figure is the instance's measured speed; a single model's keeps the per-GPU figure and fit.
        return None
    return Speed(value, "measured", basis, i["instance"])


def multi_gpu(
    table: PerfTable, speed: Speed, count: int, override: float | None = None, instance: str | None = None
) -> tuple[float, str]:
    """(throughput of `count` such GPUs in units of one, how it was got): the user's per-added-GPU efficiency; else
    the instance's own measurement when Lambda measured it whole (issue 39: the measurement is its speed, the fits
    only fill gaps); else the GPU's own measured scaling (all-models workload only); else the fit of its
    interconnect and workload."""
    if count <= 1:
        return float(max(count, 0)), ""
    if override is not None:
        return 1 + (count - 1) * override, f"{count} GPUs at {override:.2f} per added GPU (set by the user)"
    gpus, whole = table.instances.get(instance or "", (0, None))
    if whole is not None and gpus == count and speed.value > 0:
        f = whole.value / speed.value
        return f, f"{count} GPUs = {f:.2f}x one: {whole.basis}"
    if speed.own_scaling is not None and table.workload == "all":
        f = float(count) ** speed.own_scaling
        return f, f"{count} GPUs = {f:.2f}x one, from the {speed.model}'s own measured multi-GPU runs (Lambda)"
    fit = table.scaling.get(speed.interconnect) or table.scaling["pcie"]
    f = fit.speedup(count)
    return f, f"{count} GPUs = {f:.2f}x one ({fit.basis.split(';')[0]})"


def guess_class(name: str) -> str:
    """Mixed-precision class of a GPU the table does not list, from its name (custom parts)."""
    n = name.lower()
    if "rtx" in n or re.search(r"\b(a|h|b|l)\d{2,3}", n) or "titan v" in n:
        return "ampere+" if not re.search(r"rtx (20\d\d|titan)|quadro rtx|titan rtx", n) else "volta-turing"
    if "gtx" in n or "titan x" in n or re.search(r"\b(p|m|k)\d{2,3}\b", n):
        return "pascal"
    return "other"


def estimate(
    table: PerfTable, fp32_tflops: float | None, bandwidth_gbs: float | None, cls: str = "ampere+"
) -> float | None:
    """The estimate rules (docs/cost-model.md), for GPUs with specs but no row in the table: no tensor cores ->
    in proportion to FP32 TFLOPS from the measured anchor; tensor cores -> the spec fit."""
    f = table.fit
    anchor = f.get("no_tensor_anchor")
    if cls in ("pascal", "kepler-maxwell") and anchor and fp32_tflops:
        v = anchor["fp32"] * fp32_tflops / anchor["fp32_tflops"]
        if table.precision == "mixed":
            v *= table.gains.get(cls, 1.0) / table.gains["volta-turing"]
        return v
    if not fp32_tflops or not bandwidth_gbs:
        return None
    v = math.exp(
        f["intercept"]
        + f["fp32_tflops_exponent"] * math.log(fp32_tflops)
        + f["bandwidth_gbs_exponent"] * math.log(bandwidth_gbs)
        + (f["tf32_term"] if cls == "ampere+" else 0.0)
    )
    if table.precision == "mixed":
        v *= table.gains.get(cls, 1.0) / table.gains["volta-turing"]
    return v


def gpu_speed(table: PerfTable, gpu: Gpu) -> Speed | None:
    """Per-card speed of a desktop GPU: measured for its chipset, else the table's estimate, else the spec fit, else
    None (unknown: never a guess)."""
    if gpu.chipset:
        for k in (key(gpu.chipset), key(without_memory(gpu.chipset))):
            hit = table.models.get(k) or table.chipsets.get(k)
            if hit:
                return hit
    name = gpu.chipset or gpu.name
    cls = guess_class(name)
    value = estimate(table, gpu.fp32_tflops, gpu.memory_bandwidth_gbs, cls)
    if value is None:
        return None
    note = "" if cls in FAST_FP16 else NO_FAST_FP16
    return Speed(
        value, "estimate", f"{table.fit_basis}; specs of {name} (class guessed from the name: {cls}){note}", name
    )


# Instance type -> the exact GPU board, from the providers' instance documentation. A "GPU" of a p2 (K80) or g3 (M60)
# instance is one chip of a dual-chip board, which is what the K80/M60 rows describe.
def instance_model(offer: Offer) -> str | None:
    g = (offer.gpu_model or "").upper()
    t = offer.instance_type.lower()
    if not g or g.startswith("GAUDI"):
        return None  # Habana Gaudi accelerators: no GPU speed figure applies
    if g in {"A100", "A100-40GB"}:
        # Lambda: 1x/2x/4x A100 are 40 GB PCIe cards (Lambda's own benchmark row "LambdaCloud 1x A100 40GB PCIe"),
        # gpu_1x_a100_sxm4 and gpu_8x_a100 are SXM4. AWS p4d, GCP a2-highgpu/megagpu, Azure ND96asr_v4: SXM4.
        if offer.provider == "lambda" and "sxm" not in t and not t.startswith("gpu_8x"):
            return "A100 40GB PCIe"
        return "A100 40GB SXM4"
    if g == "A100-80GB":
        # Azure NC A100 v4 (NC24ads/NC48ads/NC96ads) carries PCIe cards; NDm A100 v4, p4de, a2-ultragpu are SXM4.
        return "A100 80GB PCIe" if ("pcie" in t or re.match(r"standard_nc\d+ads_a100", t)) else "A100 80GB SXM4"
    if g in {"H100", "H100-MEGA"}:
        if "pcie" in t:
            return "H100 PCIe"
        if re.match(r"standard_nc\d+a?d[a-z]*_h100", t):  # Azure NC H100 v5: H100 NVL, a PCIe card
            return "H100 NVL"
        return "H100 SXM5"
    if g == "V100":
        # Azure NCv3 (NC6s_v3...) uses V100 PCIe 16 GB; AWS p3, GCP and Lambda use SXM2 16 GB.
        return "V100 PCIe 16GB" if re.match(r"standard_nc\d+r?s_v3", t) else "V100 SXM2 16GB"
    return {
        "V100-32GB": "V100 SXM2 32GB",
        "A6000": "RTX A6000",
        "RTX6000": "Quadro RTX 6000",
        "P100": "P100 PCIe 16GB",
        "T4G": "T4",  # g5g: the T4G is a T4 (TU104) for Graviton hosts
        "RTXPRO6000": "RTX PRO 6000 Server",  # g7e
        "RADEON MI25": "Radeon MI25",
        "RADEON PRO V520": "Radeon Pro V520",
    }.get(g, offer.gpu_model)


def offer_speed(table: PerfTable, offer: Offer) -> Speed | None:
    if offer.gpu_fraction:
        return None  # a slice of a GPU (g6f, gr6f): no measurement of a slice, and its share is not a guess to make
    name = instance_model(offer)
    return table.models.get(key(name)) if name else None


@dataclass(frozen=True)
class MeasuredWorkload:
    """One workload of the speed table, for reuse (the workload planner, the GUI's choice): its per-GPU speeds
    (1x V100 SXM2 16 GB = 1.0, each with kind and basis) and its scaling per interconnect."""

    id: str
    label: str
    unit: str  # what Lambda's column counts (images/s, sequences/s...); the speeds are ratios of it
    speeds: dict[str, Speed]  # by GPU model name (instances' boards and measured desktop cards)
    scaling: dict[str, ScalingFit]  # "pcie", "sxm", "nvlink-bridge"
    source: str


def measured_workloads(precision: str = "mixed", path: Path | None = None) -> list[MeasuredWorkload]:
    """Every workload of parts/gpu_perf.yaml: "all" (geometric mean, the default) first, then each measured model."""
    doc = _doc(path or parts_dir() / "gpu_perf.yaml")
    out = []
    for w in doc["workloads"]:
        t = load_perf(path, precision, w["id"])
        speeds = {m["model"]: t.models[key(m["model"])] for m in doc["models"] if key(m["model"]) in t.models}
        out.append(MeasuredWorkload(w["id"], w["label"], w["unit"], speeds, dict(t.scaling), doc["source"]))
    return out
