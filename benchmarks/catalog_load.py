"""Catalog load time: first start (fresh install, empty cache) and warm, next to the naive YAML + pydantic loader.

    python benchmarks/catalog_load.py [--runs 5] [--quick]

--quick (one run of each, used by tests/test_benchmarks_quick.py so the script cannot rot) prints the same lines.

Each figure is measured in a fresh Python process (imports done before the clock starts), so nothing is cached
in memory between runs. "First start" also uses a new, empty user cache folder, as on a user's very first start.
Target (issue 2): <= 150 ms for both.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_MS = 150.0

APP = """
import json, sys, time
from pathlib import Path
from rigplan.catalog import load_catalog
from rigplan.model import Kind
parts, cache = Path(sys.argv[1]), Path(sys.argv[2])
t = time.perf_counter()
c = load_catalog(parts, cache_dir=cache)
# "usable": search the GPUs and build one part, as the picker does on first show
hits = c.search(Kind.GPU, "4090")
hits[0].name
ms = (time.perf_counter() - t) * 1e3
print(json.dumps({"ms": ms, "n": len(c), "source": c.source}))
"""

NAIVE = """
import json, sys, time
from pathlib import Path
import yaml
from rigplan.catalog.compiled import yaml_files
from rigplan.model.parts import PART_ADAPTER
loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
parts = Path(sys.argv[1])
t = time.perf_counter()
out = []
only = sys.argv[2:]  # --quick: one file
for f in yaml_files(parts):  # the parts files only (parts/ also holds gpu_perf.yaml, the speed table)
    if only and f.name not in only:
        continue
    doc = yaml.load(f.read_bytes(), Loader=loader)
    kind = doc["kind"]
    out.extend(PART_ADAPTER.validate_python({"kind": kind, **r}) for r in doc["parts"])
ms = (time.perf_counter() - t) * 1e3
print(json.dumps({"ms": ms, "n": len(out), "loader": loader.__name__}))
"""


def run(code: str, *args: str) -> dict:
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--naive-runs", type=int, default=1)
    ap.add_argument("--quick", action="store_true", help="one run of each: checks the script works")
    a = ap.parse_args()
    if a.quick:
        a.runs, a.naive_runs = 1, 1
    parts = str(ROOT / "parts")
    first, warm = [], []
    for _ in range(a.runs):
        with tempfile.TemporaryDirectory() as cache:
            r = run(APP, parts, cache)
            assert r["source"] == "bundled", r
            first.append(r["ms"])
            warm.append(run(APP, parts, cache)["ms"])
    # --quick reads one small file the naive way (the full naive load takes ~12 s) and says so.
    naive = [run(NAIVE, parts, *(["cpu.yaml"] if a.quick else [])) for _ in range(a.naive_runs)]
    n = r["n"]  # the whole catalog, as the app loads it
    print(f"catalog: {n:,} parts, {a.runs} fresh processes each")
    print(f"{'':34}{'median':>10}{'max':>10}{'target':>10}")
    print(f"{'first start (empty cache)':34}{statistics.median(first):>8.0f}ms{max(first):>8.0f}ms{TARGET_MS:>8.0f}ms")
    print(f"{'warm start':34}{statistics.median(warm):>8.0f}ms{max(warm):>8.0f}ms{TARGET_MS:>8.0f}ms")
    nm = statistics.median(r["ms"] for r in naive)
    what = "naive, cpu.yaml only (quick)" if a.quick else "naive yaml.load + pydantic"
    print(f"{what:34}{nm:>8.0f}ms{'':>10}  ({naive[0]['loader']})")
    if not a.quick:
        print(f"speed-up over naive: {nm / statistics.median(warm):.0f}x")
    ok = max(first) <= TARGET_MS and max(warm) <= TARGET_MS
    print("PASS" if ok else "OVER TARGET")
    return 0


if __name__ == "__main__":
    sys.exit(main())
