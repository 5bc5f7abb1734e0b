"""Convert the raw snapshots (tools/sources.py finds them) into parts/*.yaml and the compiled catalog.

    python tools/import_opendb.py [--data DIR] [--out parts] [--report docs/data.md]

The importer itself is rigplan.opendb.import_parts (the app's catalog update runs the same code); this is its command
line for `make data` (its report still says tools/import_parts.py, the importer's old place, so that the
committed files stay byte for byte what they were).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "app"))

from rigplan.opendb.import_parts import run  # noqa: E402


def main() -> int:
    from sources import data_dir  # the cache of tools/fetch_sources.py, or a local mirror

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, help="the source snapshots (default: see tools/sources.py)")
    ap.add_argument("--out", type=Path, default=ROOT / "parts")
    ap.add_argument("--report", type=Path, default=ROOT / "docs" / "data.md")
    ap.add_argument("--matches", type=Path, default=ROOT / "docs" / "price-attribute-matches.csv")
    a = ap.parse_args()
    return run(a.data or data_dir(), a.out, a.report, a.matches)


if __name__ == "__main__":
    sys.exit(main())
