"""wddesousa/findmyprebuilt's chipset table against RigPlan's chipset facts (issue 36).

findmyprebuilt (commit PIN, 2025-03-27) lists Intel desktop chipsets in prisma/data.ts (`intelChipsets`: name, the
chipset's own PCIe generation, overclocking, USB and SATA counts), with no socket and no licence. RigPlan copies
no value from it. It is read for two things:
  * names: which chipsets have no row in the chipset -> socket table (rigplan.opendb.invariants_board.
    CHIPSET_PLATFORM); the workstation ones it revealed (W880, W680, R680E, W580, W480, W480E) were added there from
    Intel's and the press's statements, not from this table;
  * a flag: a catalog board whose chipset-wired slot is of a newer PCIe generation than the chipset's own lanes.
"""

from __future__ import annotations

import re
from typing import Any

REPO = "wddesousa/findmyprebuilt"
PIN = "b849a4408f78e742e37dee17996db53a6d0086d0"  # 2025-03-27
PATH = "prisma/data.ts"


def chipsets(text: str) -> dict[str, int | None]:
    """Chipset name -> its PCIe generation, from the `intelChipsets` array."""
    start = text.find("intelChipsets")
    end = text.find("export const", start + 1)
    body = text[start : end if end > 0 else len(text)] if start >= 0 else ""
    out: dict[str, int | None] = {}
    for rec in re.findall(r"\{(.*?)\}", body, re.S):
        name = re.search(r"name:\s*['\"]([^'\"]+)['\"]", rec)
        gen = re.search(r"pci_generation:\s*(\d+)", rec)
        if name:
            out[name.group(1).strip().upper()] = int(gen.group(1)) if gen else None
    return out


def chip(board: dict[str, Any]) -> str:
    return re.sub(r"^(Intel|AMD)\s+", "", (board.get("chipset") or "").strip(), flags=re.I).upper()


def faster_than_chipset(boards: list[dict[str, Any]], gens: dict[str, int | None]) -> list[tuple[str, str, str, str]]:
    """(part id, name, chipset, what) for boards with a chipset-wired slot newer than the chipset's PCIe."""
    out = []
    for b in boards:
        g = gens.get(chip(b))
        if g is None:
            continue
        for s in b.get("pcie_slots") or ():
            if s.get("wired_to") == "chipset" and s.get("gen") and float(s["gen"]) > g:
                what = f"chipset slot PCIe {s['gen']} x{s['lanes']}, chipset PCIe {g}.0"
                out.append((b["id"], b["name"], chip(b), what))
    return out
