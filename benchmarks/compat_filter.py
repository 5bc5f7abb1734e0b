""" "Compatible only" filter: vectorised compatible() vs the naive approach (check() per candidate), per kind.

    python benchmarks/compat_filter.py [--build examples/2x-rtx-4090.rigplan] [--quick]

"first" includes each rule's distinct facts per table (once per process, per kind); "warm" is a later call with
the same build (the GUI asks again on every repaint and picker search); "changed" is the first call after a change
of one part (the build without each of its lines in turn: what the GUI pays on a build change, when the rules that
read the changed part run again). The naive time is measured on a sample and scaled to the kind.
Target (issues 3 and 23): warm <= 10 ms per kind over the full catalog.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "app"))

from rigplan.catalog import load_catalog  # noqa: E402
from rigplan.files import load  # noqa: E402
from rigplan.model import Kind  # noqa: E402
from rigplan.rules import compatible  # noqa: E402
from rigplan.rules.compat import naive_compatible  # noqa: E402

TARGET_MS = 10.0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=str(ROOT / "examples" / "2x-rtx-4090.rigplan"))
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--naive-sample", type=int, default=150)
    ap.add_argument("--quick", action="store_true", help="few repeats and a small naive sample (the test suite)")
    a = ap.parse_args()
    if a.quick:
        a.repeat, a.naive_sample = 2, 10
    catalog = load_catalog(ROOT / "parts")
    build = load(a.build)
    print(f"build: {build.name}; catalog {len(catalog):,} parts")
    print(
        f"{'kind':12}{'parts':>7}{'compatible':>11}{'first':>9}{'warm p50':>10}{'warm max':>10}{'changed p50':>13}"
        f"{'changed max':>13}{'naive':>11}{'target':>8}"
    )
    worst = 0.0
    for kind in Kind:
        n = len(catalog.table(kind))
        t = time.perf_counter()
        rows = compatible(build, kind, catalog)
        first = (time.perf_counter() - t) * 1e3
        warm = []
        for _ in range(a.repeat):
            t = time.perf_counter()
            compatible(build, kind, catalog)
            warm.append((time.perf_counter() - t) * 1e3)
        changed = []
        for j in range(len(build.items)):
            other = build.model_copy(update={"items": tuple(x for m, x in enumerate(build.items) if m != j)})
            t = time.perf_counter()
            compatible(other, kind, catalog)
            changed.append((time.perf_counter() - t) * 1e3)
        compatible(build, kind, catalog)
        sample = list(range(0, n, max(1, n // a.naive_sample)))
        t = time.perf_counter()
        naive_compatible(build, kind, catalog, sample)
        naive = (time.perf_counter() - t) * 1e3 * n / len(sample)
        worst = max(worst, max(warm))
        print(
            f"{kind.value:12}{n:>7,}{len(rows):>11,}{first:>7.1f}ms{statistics.median(warm):>8.1f}ms"
            f"{max(warm):>8.1f}ms{statistics.median(changed):>11.1f}ms{max(changed):>11.1f}ms{naive:>9,.0f}ms"
            f"{TARGET_MS:>6.0f}ms"
        )
    print(f"worst warm call: {worst:.1f} ms -> {'PASS' if worst <= TARGET_MS else 'OVER TARGET'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
