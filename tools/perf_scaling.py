"""Multi-GPU scaling fitted from Lambda's 1/2/4/8-GPU runs (used by tools/import_perf.py).

Model: throughput of n GPUs = n ** b x one GPU's, one exponent b per interconnect (and per workload), fitted by least
squares on log(speedup) over every multi-GPU row of both Lambda sets that has a single-GPU row of the same GPU in the
same set and precision. A GPU with its own multi-GPU runs also gets its own exponent (the "same chip measured" rule:
its measured runs beat the interconnect's fit). The fit's error is each run's predicted / measured speedup - 1.
"""

from __future__ import annotations

import math
import re
import statistics
from pathlib import Path
from typing import Any

COLUMNS = ("ssd", "bert_base_squad", "bert_large_squad", "gnmt", "resnet50", "tacotron2", "waveglow")
LAMBDA = "Lambda PyTorch training benchmarks (lambdal/deeplearning-benchmark)"
GROUPS = {
    "pcie": "PCIe cards (desktops and PCIe instances)",
    "nvlink-bridge": "PCIe cards with NVLink bridges (2021 set)",
    "sxm": "SXM boards over NVLink/NVSwitch",
}
# Lambda's row names (after "Nx ") -> our model names, for the per-GPU exponents.
BASE_MODEL = {
    "V100 16GB": "V100 SXM2 16GB",
    "V100 32GB": "V100 SXM2 32GB",
    "RTX 6000 Ada": "RTX 6000 Ada",
    "RTX A6000": "RTX A6000",
    "RTX 3090": "RTX 3090",
    "RTX 4090": "RTX 4090",
    "RTX 3070": "RTX 3070",
    "RTX 3080": "RTX 3080",
    "RTX 2080Ti": "RTX 2080 Ti",
    "RTX 8000": "Quadro RTX 8000",
    "RTX 6000": "Quadro RTX 6000",
    "GTX 1080Ti": "GTX 1080 Ti",
    "A100 80GB PCIe": "A100 80GB PCIe",
    "A100 80GB SXM4": "A100 80GB SXM4",
    "A100 40GB PCIe": "A100 40GB PCIe",
    "A100 40GB SXM4": "A100 40GB SXM4",
    "H100 80GB SXM5": "H100 SXM5",
    "B200 192GB SXM5": "B200",
}


def read_set(path: Path) -> dict[str, dict[str, float]]:
    import csv

    with path.open(newline="", encoding="utf-8") as fh:
        return {
            r["name_gpu"].strip(): {c: float(r[c]) for c in COLUMNS if r.get(c) not in (None, "")}
            for r in csv.DictReader(fh)
        }


def gmean(values: list[float]) -> float:
    return math.exp(statistics.fmean(math.log(v) for v in values))


def group_of(base: str) -> str:
    if "NVLink" in base:
        return "nvlink-bridge"
    if "SXM" in base or base.startswith("V100") or "GH200" in base:
        return "sxm"  # Lambda's V100 servers and cloud instances are SXM2 boards
    return "pcie"


def runs(bench: Path) -> list[dict[str, Any]]:
    """Every multi-GPU run with its single-GPU twin: per-column speedups and their geometric mean."""
    out: list[dict[str, Any]] = []
    for day in ("2025-12-10", "2021-04-10"):
        for lam, prec in (("fp16", "mixed"), ("fp32", "fp32")):
            t = read_set(bench / f"lambda_pytorch-train-throughput-{lam}_{day}.csv")
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
                    continue  # "Lambda Cloud — 8x V100 16GB" (2021): no single V100 16GB row in that set
                cols = {
                    c: t[raw][c] / t[single][c] for c in COLUMNS if t[raw].get(c, 0) > 0 and t[single].get(c, 0) > 0
                }
                plain = base.replace(" NVLink", "")
                out.append(
                    {
                        "row": f"{raw} ({day[:4]}, {prec})",
                        "gpus": n,
                        "precision": prec,
                        "group": group_of(base),
                        "model": BASE_MODEL.get(plain),
                        "speedup": gmean(list(cols.values())),
                        "columns": cols,
                    }
                )
    return out


def exponent(points: list[tuple[int, float]]) -> float:
    """Least squares of log(speedup) = b log(n), through the origin (one GPU is exactly itself)."""
    num = sum(math.log(s) * math.log(n) for n, s in points)
    den = sum(math.log(n) ** 2 for n, _ in points)
    return num / den


def errors(b: float, points: list[tuple[int, float]]) -> dict[str, Any]:
    errs = [n**b / s - 1 for n, s in points]
    absd = [abs(e) for e in errs]
    return {
        "n": len(points),
        "median_abs_error": round(statistics.median(absd), 3),
        "worst_abs_error": round(max(absd), 3),
        "within_15pct": sum(1 for x in absd if x <= 0.15),
    }


def fits(bench: Path) -> dict[str, Any]:
    """One exponent per interconnect (all models), per interconnect and workload column, and per measured GPU."""
    rr = runs(bench)
    out: dict[str, Any] = {"groups": {}, "models": {}}
    for group, label in GROUPS.items():
        mine = [r for r in rr if r["group"] == group]
        pts = [(r["gpus"], r["speedup"]) for r in mine]
        b = exponent(pts)
        per_col: dict[str, Any] = {}
        for c in COLUMNS:
            cp = [(r["gpus"], r["columns"][c]) for r in mine if c in r["columns"]]
            bc = exponent(cp)
            per_col[c] = {"exponent": round(bc, 4), **errors(bc, cp)}
        err = errors(b, pts)
        out["groups"][group] = {
            "exponent": round(b, 4),
            "label": label,
            "basis": f"fit n^{b:.3f} over {len(pts)} measured 2-8 GPU runs of {LAMBDA} ({label}; both sets, both "
            f"precisions); fit error median {err['median_abs_error']:.0%}, worst {err['worst_abs_error']:.0%}",
            **err,
            "by_gpu_count": {
                str(k): {
                    "fit": round(k**b, 2),
                    "measured_median": round(statistics.median(s for n, s in pts if n == k), 2),
                    "runs": sum(1 for n, _ in pts if n == k),
                }
                for k in sorted({n for n, _ in pts})
            },
            "workloads": per_col,
            "rows": [
                {
                    "row": r["row"],
                    "gpus": r["gpus"],
                    "speedup": round(r["speedup"], 3),
                    "fit_error": round(r["gpus"] ** b / r["speedup"] - 1, 3),
                }
                for r in sorted(mine, key=lambda r: r["row"])
            ],
        }
    models = sorted({r["model"] for r in rr if r["model"]})
    for m in models:
        per: dict[str, Any] = {}
        for prec in ("mixed", "fp32"):
            pts = [(r["gpus"], r["speedup"]) for r in rr if r["model"] == m and r["precision"] == prec]
            if pts:
                b = exponent(pts)
                per[prec] = {
                    "exponent": round(b, 4),
                    "runs": ", ".join(f"{n}x {s:.2f}" for n, s in sorted(pts)),
                    **errors(b, pts),
                }
        out["models"][m] = per
    return out
