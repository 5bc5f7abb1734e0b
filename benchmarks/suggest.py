"""Suggest the best build: five typical questions over the full catalog, and the brute force on a reduced catalog.

    python benchmarks/suggest.py

Each question is timed in a fresh process state for the search (catalog loaded once beforehand, like the app): the
search alone, then the search with its explanation (binding constraint, next $100/$500, runners-up), which runs
several more searches. Target (issue 16): <= 1 s per question over the full catalog.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "app"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from rigplan.catalog import load_catalog  # noqa: E402
from rigplan.cloud.offers import load_offers  # noqa: E402
from rigplan.model.assumptions import Assumptions  # noqa: E402
from rigplan.suggest import Goal, Question, SuggestError, suggest  # noqa: E402
from rigplan.suggest.search import Search  # noqa: E402

TARGET_S = 1.0
P3 = load_offers().get("aws:p3.2xlarge:us-east-1")
QUESTIONS = [
    ("$5,000, 2 GPUs, >= 24 GB each", Question(budget=5000, gpus=2, min_vram_gb=24)),
    ("$3,000, most throughput", Question(budget=3000, max_gpus=2)),
    ("$1,500, most throughput", Question(budget=1500, max_gpus=2)),
    ("$8,000, most throughput, >= 32 GB RAM", Question(budget=8000, max_gpus=2, min_ram_gb=32)),
    ("cheapest reaching 2 V100-equivalents", Question(goal=Goal.CHEAPEST_THROUGHPUT, target=2.0, max_gpus=2)),
    # Added with --beat and the wall-circuit pruning (the second took over 40 s before it):
    ("$4,000, earliest break-even vs p3.2xlarge", Question(budget=4000, goal=Goal.BREAKEVEN, beat=P3)),
    ("$8,000, most GPU memory, 4 GPUs, 15 A", Question(budget=8000, goal=Goal.VRAM, gpus=4)),
    # Issue 26: the expert's minimums and strictness are on in all of the above; these are its own questions.
    ("$10,000, most throughput, any count", Question(budget=10000)),
    ("$15,000, 4 GPUs", Question(budget=15000, gpus=4)),
]
EXPLAINED_S = 2.0


def main() -> int:
    catalog = load_catalog()
    a = Assumptions()
    # Once per process, as in the app: the vectorised filter builds its per-table numpy columns on first use.
    t0 = time.perf_counter()
    Search(catalog, a, Question(budget=2000, max_gpus=1)).best()
    print(f"first use (per-process column building, not per question): {time.perf_counter() - t0:.2f} s")
    # Wall time and this process's CPU time: on a machine shared with other jobs the wall time includes waiting.
    print(f"{'question':<44} {'search':>8} {'cpu':>6} {'explained':>10} {'cpu':>6}  answer")
    worst = worst_explained = 0.0
    for label, q in QUESTIONS:
        t0, c0 = time.perf_counter(), time.process_time()
        found = Search(catalog, a, q).best()
        t1, c1 = time.perf_counter(), time.process_time()
        try:
            sug = suggest(catalog, a, q)
            binds = sug.binding
        except SuggestError as exc:
            binds = f"no answer: {exc}"
        t2, c2 = time.perf_counter(), time.process_time()
        worst, worst_explained = max(worst, t1 - t0), max(worst_explained, t2 - t1)
        answer = f"${found.total_usd:,.0f}, {found.option.count}x {found.option.part.chipset}" if found else "none"
        print(
            f"{label:<44} {t1 - t0:>7.2f}s {c1 - c0:>5.2f}s {t2 - t1:>9.2f}s {c2 - c1:>5.2f}s  {answer}; binds: {binds}"
        )
    ok = worst <= TARGET_S and worst_explained <= EXPLAINED_S
    verdict = "PASS" if ok else "OVER TARGET"

    from _suggest_reference import brute_force, reduced

    parts = reduced(71)  # the first seed of tests/test_suggest_bruteforce.py
    t0 = time.perf_counter()
    rows = brute_force(parts)
    t1 = time.perf_counter()
    only = frozenset(p.id for p in parts)
    s = Search(catalog, a, Question(budget=4000, max_gpus=2, expert=False, allow_missing_data=True), only=only)
    s.best()
    t2 = time.perf_counter()
    print(
        f"reduced catalog ({len(parts)} parts): brute force {t1 - t0:.2f} s ({len(rows)} valid builds); "
        f"search {t2 - t1:.3f} s"
    )
    print(
        f"worst search: {worst:.2f} s (target <= {TARGET_S:.1f} s); worst explained: {worst_explained:.2f} s "
        f"(target <= {EXPLAINED_S:.1f} s): {verdict}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
