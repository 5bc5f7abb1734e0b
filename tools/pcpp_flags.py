"""The 2024 PCPartPicker spec scrape against the catalog (issue 36): flags only, never values.

N-O-U-R/PcPartPicker-Scraping (commit PIN, 2024-10-18) keeps PCPartPicker's spec tables as data/*_detailed.csv. The
repository has no licence: RigPlan copies none of its values into parts/. It is read to find where the catalog
(BuildCores OpenDB) disagrees with it, for boards, PSUs and cases.

A catalog part is compared only when the scrape has exactly one row whose name is the part's PCPartPicker name
(parts/price_sources.csv `price_row`, the pc-part-dataset listing the price join matched). pc-part-dataset is
PCPartPicker too, so it is not a third source against this scrape: a disagreement between OpenDB and the scrape is
decided only by a maker's statement (parts/corrections.yaml) and otherwise makes the value unknown, for the fields a
rule reads and where the two sources state different facts (not a spelling): `decide()`.
"""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from collections.abc import Callable
from typing import Any

REPO = "N-O-U-R/PcPartPicker-Scraping"
PIN = "49fd74adc21212e00d299b2ea86e146a1a58afa6"  # 2024-10-18
FILES = {"motherboard": "data/motherboards_detailed.csv", "psu": "data/power_supplies_detailed.csv",
         "case": "data/cases_detailed.csv"}  # fmt: skip


def rows(text: str) -> list[dict[str, str]]:
    return [{k.strip(): (v or "").strip() for k, v in r.items() if k} for r in csv.DictReader(io.StringIO(text))]


def by_name(rs: list[dict[str, str]]) -> dict[str, dict[str, str]]:
    """Name (lower case) -> row, names listed once only."""
    n = Counter(r["Name"].lower() for r in rs)
    return {r["Name"].lower(): r for r in rs if n[r["Name"].lower()] == 1}


def _num(s: str) -> int | None:
    m = re.search(r"\d+", s.replace(",", ""))
    return int(m.group()) if m else None


def _ff(s: str) -> str:
    """Form factor spelling: 'Mini ITX' = 'Mini-ITX', 'EATX' = 'E-ATX', 'Micro ATX' = 'Micro-ATX'."""
    return re.sub(r"[\s-]+", "", s.lower()).replace("extendedatx", "eatx")


def _socket(s: str) -> str:
    return re.sub(r"[\s-]+", "", s.upper())


def _gpu_length(s: str) -> int | None:
    """'282 mm / 11.1" With Drive Cages, 400 mm / 15.7" Without Drive Cages' -> 400: the catalog gives the clearance
    without removable cages."""
    parts = [p for p in s.split(",") if "Without" in p] or [s]
    return _num(parts[0])


def _slots(s: str) -> int | None:
    """'7 x Full-Height, 3 x Full-Height via Riser' -> 7: slots on the board's plane only."""
    return sum(_num(p) or 0 for p in s.split(",") if "Riser" not in p) or None


def _boards(s: str) -> frozenset[str]:
    return frozenset(_ff(x) for x in s.split(",") if x.strip())


# kind -> (field, scrape column, catalog value -> comparable, scrape text -> comparable, made unknown on disagreement)
Field = tuple[str, str, Callable[[Any], Any], Callable[[str], Any], bool]
FIELDS: dict[str, list[Field]] = {
    "motherboard": [
        ("socket", "Socket/CPU", lambda v: _socket(v), _socket, False),
        ("form_factor", "Form Factor", lambda v: _ff(v), _ff, True),
        ("memory_slots", "Memory Slots", lambda v: v, _num, True),
        ("ram_type", "Memory Type", lambda v: v, lambda s: s or None, False),
    ],
    "psu": [
        ("form_factor", "Type", lambda v: _ff(v), _ff, True),
        ("length_mm", "Length", lambda v: v, _num, True),
    ],
    "case": [
        ("motherboard_form_factors", "Motherboard Form Factor", lambda v: frozenset(_ff(x) for x in v), _boards, False),
        ("max_gpu_length_mm", "Maximum Video Card Length", lambda v: v, _gpu_length, True),
        ("expansion_slots", "Expansion Slots", lambda v: v, _slots, False),
    ],
}  # fmt: skip


def compare(
    kind: str, parts: list[dict[str, Any]], scrape: dict[str, dict[str, str]], pcpp_names: dict[str, str]
) -> tuple[int, list[tuple[str, str, str, Any, str]]]:
    """(parts compared, [(part id, name, field, catalog value, scrape text)]) for one kind."""
    found = []
    n = 0
    for p in parts:
        row = scrape.get((pcpp_names.get(p["id"]) or "").lower())
        # pc-part-dataset names a PSU series without its wattage: the row must be the same unit
        if row is None or (kind == "psu" and _num(row.get("Wattage", "")) != p.get("wattage")):
            continue
        n += 1
        for field, col, mine, theirs, _ in FIELDS[kind]:
            v, t = p.get(field), row.get(col, "")
            if v is None or not t or theirs(t) is None:
                continue
            if mine(v) != theirs(t):
                found.append((p["id"], p["name"], field, v, t))
    return n, found


SFX_MAX_MM = 125  # SFX is 125 mm deep, SFX-L 130 mm (Intel/FormFactors.org SFX12V 4.0 and SFX-L design guides)


def unknown(kind: str, part: dict[str, Any], field: str, scrape: str) -> bool:
    """Whether a disagreement makes the catalog value unknown: the field is one a rule reads, marked so in FIELDS,
    and nothing else in the record decides (a PSU's SFX or SFX-L is decided by its length when it is known)."""
    if not next(u for f, _, _, _, u in FIELDS[kind] if f == field):
        return False
    if kind == "psu" and field == "form_factor" and part.get("length_mm"):
        return False
    # the scrape giving several figures (with/without drive cages) is not one fact against another
    return not (kind == "case" and field == "max_gpu_length_mm" and "," in scrape)


def why(kind: str, field: str, mine: Any = None, theirs: str = "") -> str:
    """Why a disagreement on this field is listed but leaves the catalog value as it is."""
    if (kind, field) == ("case", "motherboard_form_factors") and isinstance(mine, list):
        extra = _boards(theirs) - {_ff(x) for x in mine}
        if extra and not ({_ff(x) for x in mine} - _boards(theirs)):
            return (
                "the scrape adds sizes the catalog lacks: a board of that size would get a board-form-factor error "
                "here; to check against the maker (an 'EATX' in a case's list often means boards up to 272 mm wide)"
            )
    return {
        ("motherboard", "socket"): "the board's chipset -> socket invariant checks it",
        ("motherboard", "ram_type"): "the chipset -> memory invariant checks it",
        ("psu", "form_factor"): "its length decides (SFX 125 mm, SFX-L 130 mm)",
        ("case", "motherboard_form_factors"): "PCPartPicker lists the boards the maker names, OpenDB adds the smaller "
        "standard sizes: a different list, not a contradiction",
        ("case", "max_gpu_length_mm"): "the scrape gives two figures (with/without drive cages)",
        ("case", "expansion_slots"): "a different count (half-height and riser slots)",
    }.get((kind, field), "")
