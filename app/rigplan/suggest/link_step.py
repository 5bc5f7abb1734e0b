"""The balance stage's link step (issue 37, fifth round): one PCIe 4.0-or-newer card whose build links it at an
older generation gets the board (or the CPU) that holds it back swapped, with money the earlier steps leave
(suggest.balance; the link itself is rules/link.py's)."""

from __future__ import annotations

from collections.abc import Sequence

from rigplan.model.parts import Cpu, Kind, Motherboard, Part
from rigplan.rules.link import board_gen, card_gen, gen_of

LINK_GEN = 4  # the link step's generation: PCIe 4.0 x16 costs an RTX 5090 about 1 % (TechPowerUp; rules/link.py)


def link_short(gpu: Part, count: int, parts: Sequence[Part]) -> tuple[str, Kind] | None:
    """The balance stage's link step for one card of PCIe 4.0 or newer whose build links it at an older generation
    (or one the data does not give): (the link now, said; the part to swap for it: the board when it holds the link
    back, else the CPU). A swap of one part keeps the other only when it gives the link too (`with_cpu` pairs them;
    the cores step before may have bought a PCIe 4.0 CPU already); else the whole build is searched again. None: no
    step (2+ cards: the minimums ask it already; a PCIe 3.0 card; a link at 4.0 already)."""
    own = card_gen(gpu)
    if count != 1 or own is None or own < LINK_GEN:
        return None
    board = next((p for p in parts if isinstance(p, Motherboard)), None)
    cpu = next((p for p in parts if isinstance(p, Cpu)), None)
    b = board_gen(board) if board is not None else None
    c = gen_of(cpu.pcie_gen) if cpu is not None else None
    if b is not None and c is not None and min(b, c) >= LINK_GEN:
        return None
    now = "not known" if b is None or c is None else f"PCIe {min(b, c)}.0"
    return now, Kind.MOTHERBOARD if b is None or b < LINK_GEN else Kind.CPU
