"""gpu-slot-spacing: two or more GPUs on the board's x16-size slots, each card's thickness against the distance to
the next slot used, and the lowest card against the case's expansion slots (issue 37). Sources in docs/checks.md.

A slot's position is its expansion-slot index from the top (Intel ATX 2.2: seven positions at 0.8 in / 20.32 mm
pitch; microATX 1.2: four; Mini-ITX: one). A card n slots thick in position p covers positions p .. p+n-1, so the
next card needs a slot at p+n or below: two 4-slot cards need x16 slots four positions apart. The positions come
from each board's layout (parts/board-layouts.yaml, with the maker's source); where a board's layout is not
recorded, the rule says "not checked", and for cards of 2.5 slots or more that blocks a suggestion
(`thick_cards`, the rule's strict_unknown in engine.RULES) unless missing data is allowed.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any

from rigplan.model.build import Build
from rigplan.model.parts import Gpu, Kind, PcieSlot
from rigplan.rules.context import Ctx, gpu_slots, open_air, slot_size

K = Kind
RULE = "gpu-slot-spacing"
GAP_RULE = "gpu-intake-gap"
# Cards of this thickness or more need the slot positions known before the suggester accepts them (issue 37): a
# 2.5-slot card takes three positions, more than the two a dual-slot card takes, which is what a board's second x16
# slot is at least spaced for on every layout recorded (docs/checks.md, "gpu-slot-spacing").
THICK_SLOTS = 2.5


def thick_cards(build: Build) -> bool:
    """The rule's strict_unknown: its "not checked" fails a candidate only where a GPU of the build is 2.5 slots or
    thicker, or of unknown thickness (which may be four slots)."""
    return any(
        i.part.slot_width is None or i.part.slot_width >= THICK_SLOTS
        for i in build.of_kind(K.GPU)
        if isinstance(i.part, Gpu)
    )


class Place:
    """One x16-size slot of the board: its group (PcieSlot), its position and label when known."""

    def __init__(self, slot: PcieSlot, k: int) -> None:
        self.slot = slot
        self.position = slot.positions[k] if slot.positions else None
        self.label = slot.labels[k] if slot.labels else None

    @property
    def name(self) -> str:
        return self.label or f"the x{self.slot.lanes} slot"

    @property
    def wiring(self) -> tuple[int, str | None]:
        return self.slot.lanes, self.slot.wired_to


def x16_places(slots: Sequence[PcieSlot]) -> list[Place]:
    """The x16-size slots, one per slot, best-wired first (the order rules.context.x16_size_slots and gpu-lanes
    use), then top to bottom."""
    places = [Place(s, k) for s in slots for k in range(s.count) if slot_size(s) >= 16]
    return sorted(places, key=lambda p: (-p.slot.lanes, p.position or 0))


def fits(places: Sequence[Place], widths: Sequence[int]) -> bool:
    """Cards of `widths` on `places` (positions known): the widest goes lowest, the others into the gaps, the
    thinnest into the narrowest gap; a card n thick needs the next slot used n positions below it."""
    pos = sorted(p.position or 0 for p in places)
    gaps = sorted(b - a for a, b in zip(pos, pos[1:], strict=False))
    return all(w <= g for w, g in zip(sorted(widths)[:-1], gaps, strict=True))


def alike(places: Sequence[Place], n: int) -> list[list[Place]]:
    """The choices of n slots wired like the n best-wired ones, where gpu-lanes puts the cards: any such choice (the
    same lanes from the same side) gives the cards the same links."""
    same = sorted(p.wiring for p in places[:n])
    return [list(s) for s in combinations(places, n) if sorted(p.wiring for p in s) == same]


def _bottom(places: Sequence[Place], widths: Sequence[int]) -> tuple[Place, int]:
    """The lowest slot used and the position its card reaches (the widest card goes lowest)."""
    low = max(places, key=lambda p: p.position or 0)
    return low, (low.position or 0) + max(widths) - 1


def gpu_slot_spacing(c: Ctx) -> None:
    n = len(c.gpus)
    if n < 2 or not c.board:
        return
    kinds = (K.GPU, K.MOTHERBOARD)
    widths = [gpu_slots(g) for g in c.gpus]
    places = x16_places(c.board.pcie_slots or ())
    if c.board.pcie_slots is None or len(places) < n:
        c.unchecked(RULE, "the board's x16-size slots are not in the data or fewer than the GPUs (gpu-slots)", kinds)
        return
    if any(p.position is None for p in places):
        c.unchecked(
            RULE,
            "the positions of the board's x16 slots are not in the data (no recorded layout for this board): check "
            "that each card's cooler clears the next slot used",
            kinds,
        )
        return
    if None in widths:
        c.unchecked(RULE, "a GPU's slot width is unknown", kinds)
        return
    ws = [w for w in widths if w]
    used = places[:n]  # where gpu-lanes puts the cards
    choices = alike(places, n)
    spaced = [s for s in choices if fits(s, ws)]
    room = c.case.expansion_slots if c.case else None
    in_case = [s for s in spaced if room is None or _bottom(s, ws)[1] <= room]
    gpus = [i.part for i in c.gpu_items]
    if in_case:
        return
    if spaced and c.case:
        low, reach = min((_bottom(s, ws) for s in spaced), key=lambda b: b[1])
        c.error(
            RULE,
            f"The lowest GPU ({max(ws)} slots) sits in {low.name} at position {low.position} and reaches position "
            f"{reach}; the case has {room} expansion slots.",
            f"Choose a case with at least {reach} expansion slots, thinner cards for the lowest slot, or a board "
            "whose lower x16 slot sits higher.",
            [*gpus, c.board, c.case],
            (K.GPU, K.MOTHERBOARD, K.CASE),
        )
        return
    top, below, w, g = _first_clash(sorted(used, key=lambda p: p.position or 0), sorted(ws), c.gpus)
    c.error(
        RULE,
        f"The {_short(g)} ({w} slots) in {top.name} at position {top.position} covers {below.name} at position "
        f"{below.position}: the board's x16 slots are {(below.position or 0) - (top.position or 0)} positions apart.",
        f"Choose a board whose x16 slots are at least {w} positions apart, thinner cards (2-slot or blower), or a "
        "riser cable for the lower card.",
        [*gpus, c.board],
        kinds,
    )


def _first_clash(used: list[Place], ws: list[int], gpus: Sequence[Any]) -> tuple[Place, Place, int, Any]:
    """The first card, top down (thinnest first, the widest lowest), that covers the next slot used."""
    by_width = sorted(gpus, key=lambda g: gpu_slots(g) or 0)
    for k, (a, b) in enumerate(zip(used, used[1:], strict=False)):
        if (a.position or 0) + ws[k] > (b.position or 0):
            return a, b, ws[k], by_width[k]
    return used[0], used[1], ws[0], by_width[0]  # no single clash: the thinnest card cannot go first either


def _short(g: Any) -> str:
    return str(g.chipset or g.name)


def gpu_intake_gap(c: Ctx) -> None:
    """gpu-intake-gap (issue 37): on a board whose slot positions are recorded, an open-air card needs at least one
    empty expansion-slot position between its cooler and the card below it. Tom's Hardware ("Airflow: ventilate
    graphics cards well", the cooling guide, page 11): buy a board "with at least one expansion space between
    installed dual-slot cards", since a card whose fans face the next card "can't draw in enough air" and overheats.
    A warning (strict for the suggester): where no placement of the cards on slots wired alike leaves that gap."""
    n = len(c.gpus)
    if n < 2 or not c.board:
        return
    kinds = (K.GPU, K.MOTHERBOARD)
    places = x16_places(c.board.pcie_slots or ())
    widths = [gpu_slots(g) for g in c.gpus]
    airy = [open_air(g) for g in c.gpus]
    if len(places) < n or any(p.position is None for p in places) or None in widths:
        return  # gpu-slot-spacing says what is not known
    if None in airy:
        c.unchecked(GAP_RULE, "a GPU's cooler type is unknown: whether its fans face the next card", kinds)
        return
    ws = [w or 0 for w in widths]
    if not any(airy):
        return
    used = places[:n]
    choices = alike(places, n)
    if not any(fits(s, ws) for s in choices):
        return  # the cards do not fit at all: gpu-slot-spacing's error says so
    # An open-air card needs one position more than its thickness above the next card (the lowest card faces the
    # case floor, which no rule here knows); `fits` puts the widest (here: the one needing most) lowest.
    need = [w + (1 if a else 0) for w, a in zip(ws, airy, strict=True)]
    if any(fits(s, need) for s in choices):
        return
    pos = sorted(p.position or 0 for p in used)
    c.warn(
        GAP_RULE,
        f"The open-air GPUs sit with no empty slot between them: the board's x16 slots are at positions "
        f"{', '.join(str(x) for x in pos)} and the cards are {', '.join(str(w) for w in sorted(ws))} slots thick, so "
        "the upper card's fans draw from the back of the card below and it throttles (Tom's Hardware: leave at "
        "least one expansion space between cards).",
        "Choose thinner cards, blower or water-cooled cards, or a board whose x16 slots are one position further "
        "apart.",
        [i.part for i in c.gpu_items] + [c.board],
        kinds,
    )
