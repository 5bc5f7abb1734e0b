"""Draw the issue-25 audit sample: 100 catalog parts at random (fixed seed), 12-13 per kind, with every field the
rules read, into docs/audit/catalog-audit.csv for checking by hand against the maker's spec (or a review's spec
table). Verdict column: right / unknown (the catalog says unknown) / wrong / not verified. Re-running keeps the
verdicts already written for the same part, field and catalog value, and keeps every `wrong` row as it was audited
(a finding stays on record after parts/corrections.yaml has fixed the catalog value).

    python tools/audit_sample.py            # (re)draw the sample into the CSV, keeping the verdicts
    python tools/audit_sample.py --summary  # print the figures by kind from the CSV (catalog-audit.md quotes them)
"""

from __future__ import annotations

import collections
import csv
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "app"))

from rigplan.catalog import load_catalog  # noqa: E402
from rigplan.model import Kind  # noqa: E402

SEED = 25
PER_KIND = {Kind.CPU: 13, Kind.MOTHERBOARD: 13, Kind.GPU: 13, Kind.PSU: 13}  # the other four kinds: 12 each
# The fields the rules read (app/rigplan/rules), per kind.
FIELDS = {
    Kind.CPU: [
        "socket",
        "memory_types",
        "tdp_w",
        "boost_power_w",
        "pcie_lanes",
        "max_memory_gb",
        "ecc",
        "rdimm_support",
    ],
    Kind.MOTHERBOARD: ["socket", "form_factor", "chipset", "ram_type", "memory_slots", "max_memory_gb", "pcie_slots"],
    Kind.GPU: ["tdp_w", "length_mm", "slot_width", "power_connectors"],
    Kind.PSU: ["wattage", "form_factor", "efficiency", "length_mm", "connectors", "atx3"],
    Kind.MEMORY: ["ram_type", "modules", "module_gb", "ecc", "registered", "form_factor"],
    Kind.STORAGE: ["capacity_gb", "storage_type", "form_factor", "interface", "nvme"],
    Kind.CASE: ["motherboard_form_factors", "max_gpu_length_mm", "max_cooler_height_mm", "expansion_slots"],
    Kind.COOLER: ["sockets", "height_mm", "water_cooled", "radiator_mm"],
}
OUT = ROOT / "docs" / "audit" / "catalog-audit.csv"
COLUMNS = ["kind", "part_id", "part_name", "field", "catalog_value", "spec_value", "source", "verdict"]


def summary() -> int:
    """Verdicts by kind, over the whole sample and over the fields checked (right + wrong)."""
    with OUT.open(newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    by_kind: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for r in rows:
        by_kind[r["kind"]][r["verdict"]] += 1
        by_kind["all"][r["verdict"]] += 1
    print(
        "| Kind | Fields | Right | Wrong | Unknown | Not verified | Right or unknown, of the sample"
        " | Right or unknown, of checked + unknown | Wrong, of checked |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for kind, v in sorted(by_kind.items(), key=lambda kv: kv[0] == "all"):
        n, checked = sum(v.values()), v["right"] + v["wrong"]
        ok = f"{100 * (v['right'] + v['unknown']) / n:.1f} %"
        seen = checked + v["unknown"]
        ok_seen = f"{100 * (v['right'] + v['unknown']) / seen:.1f} %" if seen else "-"
        bad = f"{100 * v['wrong'] / checked:.1f} %" if checked else "-"
        counts = f"{v['right']} | {v['wrong']} | {v['unknown']} | {v['not verified']}"
        print(f"| {kind} | {n} | {counts} | {ok} | {ok_seen} | {bad} |")
    return 0


def main() -> int:
    if "--summary" in sys.argv[1:]:
        return summary()
    cat = load_catalog(ROOT / "parts")
    rng = random.Random(SEED)
    old = {}
    if OUT.exists():
        with OUT.open(newline="", encoding="utf-8") as fh:
            old = {(r["part_id"], r["field"]): r for r in csv.DictReader(fh)}
    rows = []
    for kind in Kind:
        parts = sorted(cat.of_kind(kind), key=lambda p: p.id)
        for part in rng.sample(parts, PER_KIND.get(kind, 12)):
            data = part.model_dump(mode="json")
            for field in FIELDS[kind]:
                v = data.get(field)
                shown = "unknown" if v is None else (json.dumps(v) if isinstance(v, (list, dict)) else str(v))
                prev = old.get((part.id, field), {})
                if prev.get("verdict") == "wrong":  # a finding: keep it as audited, even once corrected
                    rows.append({c: prev[c] for c in COLUMNS})
                    continue
                if prev.get("catalog_value") != shown:  # the catalog changed since the check: check again
                    prev = {}
                rows.append(
                    {
                        "kind": kind.value,
                        "part_id": part.id,
                        "part_name": part.name,
                        "field": field,
                        "catalog_value": shown,
                        "spec_value": prev.get("spec_value", ""),
                        "source": prev.get("source", ""),
                        "verdict": prev.get("verdict") or ("unknown" if v is None else "not verified"),
                    }
                )
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with OUT.open("w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, COLUMNS, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    print(f"{len({r['part_id'] for r in rows})} parts, {len(rows)} fields -> {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
