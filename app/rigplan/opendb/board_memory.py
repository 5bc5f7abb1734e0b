"""LGA 1700 DDR5 boards listed at their launch maximum (issue 25), a cross-record check run on every import.

Intel's 12th-14th gen Core memory controllers run 24 GB and 48 GB DDR5 UDIMMs: MSI announced in 2023 that its
Z790, B760, Z690, B660 and H610 boards (MEG, MPG, MAG, PRO) support them, 192 GB over four DIMMs and 96 GB over two,
without a BIOS update (Tom's Hardware news 'Intel Alder Lake, Raptor Lake CPUs gain support for 192GB of DDR5', 2023;
pcgamingvault.com: MSI's statement with an i9-13900K on an MPG Z790 Carbon WIFI and an i9-12900KF on an MPG Z690
Carbon WIFI). Other makers updated their memory lists board by board, so a board is raised only where its maker's own
listings of the same chipset show it: when most of a maker's DDR5 boards of one chipset are listed at 48 GB or more
per DIMM slot, that maker's listings below it give the launch figure (128 GB on four slots, 64 GB on two). A maker
whose listings keep the launch figure (EVGA) or a group too small to show a pattern is left as listed.

The CPU's own maximum is not touched: Intel ARK gives 192 GB for 13th/14th gen Core and 128 GB for 12th gen, and
memory-capacity reads both the board's and the CPU's figure.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from rigplan.model.parts import Kind

from .data_quality import Change, Recorder

GB_PER_SLOT = 48
MIN_GROUP = 3  # listings of one maker and chipset needed to read a pattern


def _per_slot(d: dict[str, Any]) -> float | None:
    slots, top = d.get("memory_slots"), d.get("max_memory_gb")
    return top / slots if slots and top else None


def lga1700_ddr5_check(records: list[dict[str, Any]]) -> list[Change]:
    groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for d in records:
        if d.get("socket") == "LGA 1700" and d.get("ram_type") == "DDR5" and _per_slot(d) is not None:
            groups[((d.get("manufacturer") or "").lower(), d.get("chipset") or "")].append(d)
    out: list[Change] = []
    for (maker, chipset), group in sorted(groups.items()):
        high = [d for d in group if (_per_slot(d) or 0) >= GB_PER_SLOT]
        if len(group) < MIN_GROUP or 2 * len(high) <= len(group) or not maker:
            continue
        for d in group:
            if (_per_slot(d) or 0) < GB_PER_SLOT:
                r = Recorder(Kind.MOTHERBOARD, d)
                r.set(
                    "max_memory_gb",
                    GB_PER_SLOT * d["memory_slots"],
                    f"LGA 1700 DDR5 runs 48 GB DIMMs (MSI's 2023 statement for Z790/B760/Z690/B660/H610 boards); "
                    f"{len(high)} of the maker's {len(group)} {chipset} DDR5 listings give 48 GB or more per slot: "
                    f"{d['memory_slots']} slots x 48 GB, {d['max_memory_gb']} GB was the launch figure",
                )
                out += r.changes
    return out
