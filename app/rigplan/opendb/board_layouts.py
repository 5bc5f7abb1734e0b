"""Board slot layouts (parts/board-layouts.yaml, issue 37): where each PCIe slot of a board sits, as the maker's
manual or spec page gives it, for the gpu-slot-spacing rule (a 4-slot card in the top slot covers a slot three
positions below it).

A position is the slot's expansion-slot index from the top (Intel ATX 2.2: seven positions at 0.8 in / 20.32 mm
pitch; 1 is the one nearest the CPU). Each entry names the board id, its slots in the order of the board's
`pcie_slots` (after parts/corrections.yaml) with their lanes, one position and one maker's label per slot of the
group's count, and the source. It is applied on every import while the board's slot list still matches (the same
groups, lanes and counts); when it no longer does, it is reported as stale for a person to re-check, never forced
onto a slot list it was not written for. Where no source gives a board's layout, its positions stay unknown.

One platform fact fills positions without a per-board source (`standard`): a board whose slot count equals the
number of expansion-slot positions its form factor has (Intel ATX 2.2: seven at 0.8 in pitch along the 12 in rear
edge; E-ATX, SSI CEB and SSI EEB keep that 12 in rear edge and grow only in depth, so seven too; Intel microATX 1.2:
four; VIA Mini-ITX: one) has a slot in every position, 1..N. Only where all its slots are alike (the same
generation, lanes, physical size and wiring) is the order irrelevant, so the layout is fully known; a board whose
slots differ needs a source for which slot sits where (a layout entry above).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .corrections import entries
from .data_quality import Change


@dataclass(frozen=True)
class Layout:
    part_id: str
    name: str
    slots: tuple[tuple[int, tuple[int, ...], tuple[str, ...] | None], ...]  # (lanes, positions, labels) per group
    source: str


class LayoutError(ValueError):
    pass


def load(path: Path) -> list[Layout]:
    out = []
    for i, e in enumerate(entries(path, "layouts")):
        where = f"{path.name}: entry {i + 1}"
        if not e.get("id") or not str(e.get("source") or "").strip() or not e.get("slots"):
            raise LayoutError(f"{where} lacks an id, its slots or a source")
        slots = []
        for s in e["slots"]:
            pos, labels = tuple(s.get("positions") or ()), s.get("labels")
            if not pos or (labels is not None and len(labels) != len(pos)) or not isinstance(s.get("lanes"), int):
                raise LayoutError(f"{where}: each slot needs lanes and one position (and label) per slot")
            slots.append((s["lanes"], pos, tuple(labels) if labels is not None else None))
        every = [p for _, pos, _ in slots for p in pos]
        if len(set(every)) != len(every):
            raise LayoutError(f"{where}: two slots at one position")
        out.append(Layout(e["id"], e.get("name", ""), tuple(slots), e["source"]))
    return out


# Expansion-slot positions by form factor (the standards named in the module docstring); others (XL-ATX, HPTX, DTX,
# Flex ATX) are left out: their boards' positions are not fixed by one standard.
STANDARD_POSITIONS = {"ATX": 7, "EATX": 7, "SSI CEB": 7, "SSI EEB": 7, "Micro ATX": 4, "Mini ITX": 1, "Mini-ITX": 1}
STANDARD_SOURCE = (
    "platform fact (board_layouts.standard): {slots} on {a} {ff} board, which has {n} expansion-slot "
    "position{s} ({spec}): a slot in every position, so {where}"
)
SPEC = {
    7: "Intel ATX 2.2: seven positions at 0.8 in / 20.32 mm pitch; E-ATX, SSI CEB and SSI EEB keep the ATX rear edge",
    4: "Intel microATX 1.2: four positions",
    1: "VIA Mini-ITX: one position",
}


def standard(parts: list[dict[str, Any]], kind: str) -> list[Change]:
    """Positions 1..N for every board whose N slots, all alike, fill its form factor's N positions (records changed
    in place); boards with any position already recorded (a layout entry) are left as they are."""
    changes: list[Change] = []
    for d in parts:
        slots = d.get("pcie_slots") or []
        n = STANDARD_POSITIONS.get(d.get("form_factor") or "")
        if not slots or n is None or any(s.get("positions") for s in slots):
            continue
        shapes = {(s.get("gen"), s.get("lanes"), s.get("physical"), s.get("wired_to")) for s in slots}
        if len(shapes) != 1 or sum(s.get("count", 1) for s in slots) != n:
            continue
        gen, lanes, physical, wired = next(iter(shapes))
        if lanes is None or (n > 1 and (gen is None or physical is None or wired is None)):
            continue  # "alike" only where every attribute is known (one slot is alike with itself)
        desc = (
            (f"PCIe {gen} " if gen else "")
            + f"x{lanes}"
            + (f" in x{physical}-size slot{'s' * (n > 1)}" if physical else "")
        )
        desc += f", wired to the {wired}" if wired else ""
        new, k = [], 1
        for s in slots:
            c = s.get("count", 1)
            new.append({**s, "positions": list(range(k, k + c))})
            k += c
        ff = d["form_factor"]
        why = STANDARD_SOURCE.format(
            slots=f"{n} slots, all alike ({desc})," if n > 1 else f"its one slot ({desc}),",
            a="an" if ff[0] in "AEI" else "a",
            ff=ff,
            n=n,
            s="s" if n > 1 else "",
            spec=SPEC[n],
            where=f"positions 1..{n}" if n > 1 else "position 1",
        )
        changes.append(Change(kind, d["id"], d["name"], "pcie_slots", slots, new, why, "standard"))
        d["pcie_slots"] = new
    return changes


def apply(layouts: list[Layout], parts: dict[str, dict[str, Any]], kind: str) -> tuple[list[Change], list[str]]:
    """Put each layout's positions and labels on its board's slots (records changed in place). Returns the applied
    changes and the stale layouts (the board's slot list no longer the one the layout was written for)."""
    changes: list[Change] = []
    stale: list[str] = []
    for lay in layouts:
        d = parts.get(lay.part_id)
        if d is None:
            continue
        slots = d.get("pcie_slots") or []
        shape = [(s.get("lanes"), s.get("count", 1)) for s in slots]
        want = [(lanes, len(pos)) for lanes, pos, _ in lay.slots]
        if shape != want:
            stale.append(
                f"- {kind} `{lay.part_id}` ({d['name']}): slot layout written for slots (lanes, count) {want}, the "
                f"board now lists {shape}: not applied, re-check against: {lay.source}"
            )
            continue
        new = []
        for s, (_, pos, labels) in zip(slots, lay.slots, strict=True):
            s = {**s, "positions": list(pos)}
            if labels is not None:
                s["labels"] = list(labels)
            new.append(s)
        if new != slots:
            changes.append(Change(kind, lay.part_id, d["name"], "pcie_slots", slots, new, lay.source, "layout"))
            d["pcie_slots"] = new
    return changes, stale
