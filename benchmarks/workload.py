"""Workload planner speed: one estimate (memory, verdict with its search for a change, speed, hours), next to the
20 ms target of issue 28; and a whole comparison (the build plus each offer on the chart).

    python benchmarks/workload.py [--quick]

Cases: every bundled model x every task on the 2x RTX 4090 example build (the verdict search runs in full where a
model does not fit), then the build against 8 offers. Each is timed warm (the data files read once before).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "app"))

from rigplan.cloud.offers import load_offers  # noqa: E402
from rigplan.files import load  # noqa: E402
from rigplan.model.assumptions import Pricing  # noqa: E402
from rigplan.model.workload import Task, WorkloadSpec  # noqa: E402
from rigplan.workload import build_hardware, bundled_models, estimate  # noqa: E402
from rigplan.workload.jobs import compare  # noqa: E402
from rigplan.workload.memory import memory  # noqa: E402

TARGET_MS = 20.0
OFFERS = [
    "lambda:gpu_1x_a100:us-east-1", "aws:p4d.24xlarge:us-east-1", "aws:g6e.xlarge:us-east-1",
    "aws:p3.2xlarge:us-east-1", "aws:g5.xlarge:us-east-1", "aws:p5.48xlarge:us-east-1",
    "aws:g6.xlarge:us-east-1", "aws:p3.8xlarge:us-east-1",
]  # fmt: skip


def main() -> int:
    import argparse

    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--quick", action="store_true", help="2 repeats (the test suite)")
    a = ap.parse_args()
    repeat = 2 if a.quick else a.repeat
    build = load(ROOT / "examples" / "2x-rtx-4090.rigplan")
    hw = build_hardware(build)
    specs = [WorkloadSpec(model=m, task=t, tokens=1e8) for m in bundled_models() for t in Task]
    estimate(specs[0], hw)  # warm: data files read
    times: list[float] = []
    worst = ("", 0.0)
    for _ in range(repeat):
        for spec in specs:
            memory.cache_clear()  # each estimate from scratch: no sizes left from the one before
            t = time.perf_counter()
            e = estimate(spec, hw)
            ms = (time.perf_counter() - t) * 1e3
            times.append(ms)
            if ms > worst[1]:
                worst = (f"{spec.model} {spec.task.value} ({e.verdict})", ms)
    catalog = load_offers()
    chart = [(catalog.get(i), Pricing.ON_DEMAND) for i in OFFERS if catalog.get(i)]
    comp: list[float] = []
    for _ in range(repeat):
        memory.cache_clear()
        t = time.perf_counter()
        compare(build, WorkloadSpec(model="llama-3.1-70b", task=Task.QLORA, tokens=1e8), chart)
        comp.append((time.perf_counter() - t) * 1e3)
    p50, p95 = statistics.median(times), sorted(times)[int(0.95 * (len(times) - 1))]
    p99 = sorted(times)[int(0.99 * (len(times) - 1))]
    print(f"estimates: {len(specs)} cases x {repeat}: median {p50:.2f} ms, p95 {p95:.2f} ms, p99 {p99:.2f} ms, "
          f"max {max(times):.2f} ms")  # fmt: skip
    print(f"slowest case: {worst[0]}, {worst[1]:.2f} ms")
    print(f"build + {len(chart)} offers (one estimate each, job costs): median {statistics.median(comp):.1f} ms")
    print(f"target: <= {TARGET_MS:.0f} ms per estimate (judged on p99)")
    # p99: the machine this runs on is shared, and one descheduled call is not the code's time
    print("PASS" if p99 <= TARGET_MS else "OVER TARGET")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
