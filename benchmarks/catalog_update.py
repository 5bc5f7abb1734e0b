"""The catalog update (issue 38): a full update from an OpenDB archive, and start-up and the compatible filter with
the updated catalog next to the shipped one.

    python benchmarks/catalog_update.py [--runs 5]

The archive is built from the shipped catalog (tests/opendb_archive.py: 26,088 records in OpenDB's layout, one GPU's
length changed, one GPU added), as the tests build it; not timed. Each figure is measured in a fresh Python process
with its own data folder (XDG_DATA_HOME), so nothing is cached in memory between runs; the filter runs in the last
start-up's process, after its figure is taken, on a catalog loaded again for it (its caches built from cold).
This is the suite's one full-size update (tests/test_benchmarks_quick.py runs --quick; the update tests use a
reduced shipped catalog, tests/reduced_parts.py).
Targets (issue 38): a full update <= 60 s; start-up and the filter as fast with the update as with the shipped one
(here: the updated median within 10 % + 5 ms of the shipped one).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
UPDATE_TARGET_S = 60.0

START = """
import json, sys, time
from rigplan.catalog import load_catalog
from rigplan.model import Kind
t = time.perf_counter()
c = load_catalog()
hits = c.search(Kind.GPU, "4090")
hits[0].name
ms = (time.perf_counter() - t) * 1e3
out = {"ms": ms, "n": len(c), "which": c.about.get("catalog")}
if len(sys.argv) > 1:  # then the compatible filter on a build, in the same process (one start-up fewer)
    from rigplan.files import load
    from rigplan.rules import compatible
    c = load_catalog()  # a catalog of its own: the filter's first call builds its caches as in a fresh one
    build = load(sys.argv[1])
    out["filter"] = {}
    for kind in [Kind(k) for k in sys.argv[2:]] or Kind:
        t = time.perf_counter(); compatible(build, kind, c); first = (time.perf_counter() - t) * 1e3
        t = time.perf_counter(); compatible(build, kind, c); warm = (time.perf_counter() - t) * 1e3
        out["filter"][kind.value] = [first, warm]
print(json.dumps(out))
"""


def run(code: str, env: dict[str, str], *args: str) -> dict:
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, check=True)
    return json.loads(out.stdout)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="one run of each start-up, the filter on GPUs (the rot check)")
    a = ap.parse_args()
    if a.quick:
        a.runs = 1
    sys.path[:0] = [str(ROOT / "app"), str(ROOT / "tests")]
    import opendb_archive as oa
    from rigplan.catalog import load_catalog
    from rigplan.model.parts import Kind

    tmp = Path(tempfile.mkdtemp(prefix="rigplan-bench-"))
    shipped = load_catalog(ROOT / "parts", cache_dir=tmp / "cache")
    records = oa.shipped_records(shipped)
    gpu = "08690e09-bcad-4acd-99d9-72f0093db590"
    new = {**next(r for r in records[Kind.GPU] if r["opendb_id"] == gpu), "opendb_id": "bench-new-gpu"}
    archive = oa.build(
        tmp / "opendb.tar.gz", records, edit=lambda k, r: {**r, "length": 341} if r["opendb_id"] == gpu else r,
        extra=[(Kind.GPU, new)],
    )  # fmt: skip
    base = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "app"), os.environ.get("PYTHONPATH", "")])}
    base.pop("RIGPLAN_PARTS_DIR", None)
    env_shipped = {**base, "XDG_DATA_HOME": str(tmp / "shipped"), "RIGPLAN_CACHE_DIR": str(tmp / "c1")}
    env_updated = {**base, "XDG_DATA_HOME": str(tmp / "updated"), "RIGPLAN_CACHE_DIR": str(tmp / "c2")}

    cpu0 = os.times()
    t = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "rigplan", "catalog", "update", "--from", str(archive), "--yes"],
        capture_output=True, text=True, env=env_updated,
    )  # fmt: skip
    wall = time.perf_counter() - t
    cpu1 = os.times()
    cpu = (cpu1.children_user - cpu0.children_user) + (cpu1.children_system - cpu0.children_system)
    if done.returncode != 0:
        print(done.stderr, file=sys.stderr)
        return 1
    verdicts: list[str] = []
    verdict = "PASS" if wall <= UPDATE_TARGET_S else "FAIL"
    verdicts.append(verdict)
    print(f"Full update (rigplan catalog update --from FILE --yes, {archive.stat().st_size / 1e6:.1f} MB archive):")
    print(f"  {wall:.1f} s wall, {cpu:.1f} s CPU   target <= {UPDATE_TARGET_S:.0f} s   {verdict}")

    build = str(ROOT / "examples" / "2x-rtx-4090.rigplan")
    kinds = ["gpu"] if a.quick else []  # --quick: one kind (each kind's first call costs 0.1-2 s of CPU)
    print(f"\nStart-up: load_catalog() + a first GPU search (imports done), fresh process, median of {a.runs}:")
    start = {}
    res = {}
    for label, env in (("shipped", env_shipped), ("updated", env_updated)):
        # The last start-up's process then times the filter (after the start-up's figure is taken).
        runs = [run(START, env, *([build, *kinds] if i == a.runs - 1 else [])) for i in range(a.runs)]
        assert all(r["which"] == label for r in runs), runs
        start[label] = statistics.median(r["ms"] for r in runs)
        res[label] = runs[-1]["filter"]
    ok = start["updated"] <= start["shipped"] * 1.1 + 5
    verdicts.append("PASS" if ok else "FAIL")
    print(f"  shipped {start['shipped']:.0f} ms   updated {start['updated']:.0f} ms   {'PASS' if ok else 'FAIL'}")

    print("\nCompatible filter on examples/2x-rtx-4090.rigplan (first call / warm, ms), shipped vs updated:")
    print(f"  {'kind':12} {'shipped':>16} {'updated':>16}")
    worst = 0.0
    for kind in res["shipped"]:
        s, u = res["shipped"][kind], res["updated"][kind]
        worst = max(worst, u[1] - s[1])
        print(f"  {kind:12} {s[0]:7.1f} / {s[1]:5.1f}  {u[0]:7.1f} / {u[1]:5.1f}")
    verdict = "PASS" if worst < 5 else "FAIL"
    verdicts.append(verdict)
    print(f"  worst warm difference {worst:+.1f} ms (target: none that matters, < 5 ms)   {verdict}")
    # The verdict of the whole run, last (tests/test_benchmarks_quick.py reads it there): a loaded machine missed
    # the filter's 5 ms once and the line ended in FAIL, which the test took for a script that no longer runs.
    print("\nPASS" if all(v == "PASS" for v in verdicts) else "\nOVER TARGET")
    return 0


if __name__ == "__main__":
    sys.exit(main())
