"""PCPartPicker list import (issue 19): the first import of a session (it builds the matcher's indexes over the
whole catalog) and every later one, on the five hand-written lists under tests/data/pcpartpicker.

    python benchmarks/import_list.py [--runs 7] [--quick]

Each run is a fresh Python process with the catalog already loaded before the clock starts (the window has it).
Targets, from Jakob Nielsen's response-time limits (Usability Engineering, 1993, ch. 5): the first import within
1 s, the limit for keeping the user's flow of thought (the dialog shows a wait cursor meanwhile); later imports
within 0.1 s, the limit for a response that feels instant.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIRST_TARGET_S = 1.0
LATER_TARGET_S = 0.1

RUN = """
import json, sys, time
from pathlib import Path
from rigplan.catalog import load_catalog
from rigplan.imports.list_import import match_list
lists = [p.read_text("utf-8") for p in sorted(Path(sys.argv[1]).iterdir())]
catalog = load_catalog()
t = time.perf_counter()
match_list(lists[0], catalog)
first = time.perf_counter() - t
later = []
for text in lists[1:] * 3:
    t = time.perf_counter()
    match_list(text, catalog)
    later.append(time.perf_counter() - t)
print(json.dumps({"first": first, "later": max(later), "lines": sum(t.count("\\n") for t in lists)}))
"""


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--quick", action="store_true", help="one run (for tests/test_benchmarks_quick.py)")
    a = ap.parse_args()
    runs = 1 if a.quick else a.runs
    env_path = str(ROOT / "app")
    results = []
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-c", RUN, str(ROOT / "tests" / "data" / "pcpartpicker")],
            capture_output=True,
            text=True,
            check=True,
            env={"PYTHONPATH": env_path, "PATH": ""},
        )
        results.append(json.loads(out.stdout))
    first = statistics.median(r["first"] for r in results)
    later = statistics.median(r["later"] for r in results)
    print(f"runs: {runs}; five lists, {results[0]['lines']} lines of text")
    print(
        f"first import of a session (indexes built): median {first * 1e3:,.0f} ms; target {FIRST_TARGET_S * 1e3:.0f} ms"
    )
    print(f"later import, slowest list: median {later * 1e3:,.1f} ms; target {LATER_TARGET_S * 1e3:.0f} ms")
    ok = first <= FIRST_TARGET_S and later <= LATER_TARGET_S
    print("PASS" if ok else "OVER TARGET")
    return 0


if __name__ == "__main__":
    sys.exit(main())
