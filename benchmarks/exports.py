"""Export times for the 2x RTX 4090 example, in one process after the imports (what File > Export waits for).

    python benchmarks/exports.py [--runs 5] [--quick]

Prints each figure (median of the runs) next to its target. Targets (RigPlan's, issue 15): the plan (checks and
cost model) and each text format within 50 ms, so Copy as Markdown is immediate; the PDF and a chart image within
500 ms, under the half second after which a click feels slow; a four-build comparison within 200 ms.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "app"))
EX = ROOT / "examples"
TARGETS_MS = {"plan": 50, "markdown": 50, "costs csv": 50, "pdf": 500, "png": 500, "svg": 500, "compare 4": 200}


def median_ms(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="one run each (a smoke test, not a measurement)")
    a = ap.parse_args()
    runs = 1 if a.quick else a.runs
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from rigplan.cloud.offers import load_offers
    from rigplan.exports.compare import compare
    from rigplan.exports.markdown import to_markdown
    from rigplan.exports.plan import make_plan
    from rigplan.exports.tables import costs_csv
    from rigplan.files import load
    from rigplan.render.images import write_chart
    from rigplan.render.pdf import write_pdf

    app = QApplication.instance() or QApplication([])  # noqa: F841 - must outlive the drawing
    catalog = load_offers()
    build = load(EX / "2x-rtx-4090.rigplan")
    files = [EX / n for n in ("2x-rtx-4090", "budget-1-gpu", "4-gpu-threadripper", "2x-rtx-4090")]
    builds = [load(f"{f}.rigplan") for f in files]
    plan = make_plan(build, catalog=catalog)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        figures = {
            "plan": median_ms(lambda: make_plan(build, catalog=catalog), runs),
            "markdown": median_ms(lambda: to_markdown(plan), runs),
            "costs csv": median_ms(lambda: costs_csv(plan), runs),
            "pdf": median_ms(lambda: write_pdf(plan, out / "r.pdf"), runs),
            "png": median_ms(lambda: write_chart(plan, "breakeven", out / "c.png", "png"), runs),
            "svg": median_ms(lambda: write_chart(plan, "breakeven", out / "c.svg", "svg"), runs),
            "compare 4": median_ms(lambda: compare([make_plan(b, catalog=catalog) for b in builds]), runs),
        }
    print(f"{'export':<12}{'median ms':>10}{'target ms':>11}  ({runs} run{'s' if runs != 1 else ''})")
    for name, ms in figures.items():
        flag = "" if ms <= TARGETS_MS[name] else "  OVER TARGET"
        print(f"{name:<12}{ms:>10.1f}{TARGETS_MS[name]:>11}{flag}")
    over = [n for n, ms in figures.items() if ms > TARGETS_MS[n]]
    # The verdict ends the line (tests/test_benchmarks_quick.py reads it there).
    print(f"all exports within their targets: {'(' + ', '.join(over) + ' over) OVER TARGET' if over else 'PASS'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
