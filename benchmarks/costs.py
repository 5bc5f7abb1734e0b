"""Cost model speed: 50 offers x 5 years at daily resolution, next to the 5 ms target.

    python benchmarks/costs.py [--quick]

Times rigplan.costs.model.compute() (cumulative curves for the build and every offer, break-evens, breakdowns) on
the 2x RTX 4090 example against the 50 cheapest current on-demand offers, and, for comparison, a plain Python loop
over days doing the same sums.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "app"))

from rigplan.cloud.offers import load_offers  # noqa: E402
from rigplan.costs.analysis import cost_build, offer_input  # noqa: E402
from rigplan.costs.model import cloud_slope, compute, own_terms  # noqa: E402
from rigplan.costs.perf import load_perf  # noqa: E402
from rigplan.files import load  # noqa: E402

TARGET_MS = 5.0


def loop_version(own, inputs, a, days: int) -> None:  # noqa: ANN001
    up, per_day, _ = own_terms(own, a)
    for o in inputs:
        slope = sum(cloud_slope(o, a))
        own_c = cloud_c = 0.0
        for d in range(days + 1):
            own_c = up + per_day * d
            cloud_c = slope * d
        del own_c, cloud_c


def main() -> int:
    import argparse

    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=200)
    ap.add_argument("--quick", action="store_true", help="20 repeats (the test suite)")
    a_ = ap.parse_args()
    repeat = 20 if a_.quick else a_.repeat
    build = load(ROOT / "examples" / "2x-rtx-4090.rigplan")
    a = build.assumptions.model_copy(update={"horizon_years": 5.0})
    perf = load_perf()
    costing = cost_build(build, perf)
    offers = sorted(
        (o for o in load_offers().offers if o.snapshot == "current" and o.ondemand_usd_h),
        key=lambda o: o.ondemand_usd_h,
    )[:50]
    inputs = [offer_input(o, a, perf, costing.own.throughput) for o in offers]
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        report = compute(costing.own, inputs, a)
        times.append((time.perf_counter() - t) * 1e3)
    t = time.perf_counter()
    loop_version(costing.own, inputs, a, len(report.days) - 1)
    loop = (time.perf_counter() - t) * 1e3
    print(f"{len(inputs)} offers x {len(report.days):,} days ({a.horizon_years:g} years, daily)")
    p95 = sorted(times)[int(len(times) * 0.95) - 1]
    print(f"compute():   median {statistics.median(times):.2f} ms, p95 {p95:.2f} ms   target {TARGET_MS} ms")
    print(f"plain loop:  {loop:.1f} ms (same sums, per day in Python)")
    print("PASS" if p95 <= TARGET_MS else "OVER TARGET")
    return 0


if __name__ == "__main__":
    sys.exit(main())
