"""Rules about GPUs: length, x16 slots, expansion slots, lanes per card and cards packed together."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from rigplan.model.build import Build
from rigplan.model.parts import Kind, PcieSlot
from rigplan.rules import link
from rigplan.rules.context import Ctx, gpu_slots, mm, open_air, x16_size_slots

K = Kind


def gpu_length(c: Ctx) -> None:
    if not (c.gpus and c.case):
        return
    limit = c.case.max_gpu_length_mm
    for item in c.gpu_items:
        g = item.part
        length = getattr(g, "length_mm", None)
        if length is None or limit is None:
            which = "the GPU's length" if length is None else "the case's GPU clearance"
            c.unchecked("gpu-length", f"GPU length vs case: {which} is unknown", (K.GPU, K.CASE))
        elif length > limit:
            c.error(
                "gpu-length",
                f"GPU is {mm(length)} long; the case takes at most {mm(limit)}.",
                f"Choose a case with >= {mm(length)} of GPU clearance or a shorter card.",
                [g, c.case],
                (K.GPU, K.CASE),
            )


def gpu_slots_rule(c: Ctx) -> None:
    if not (c.gpus and c.board):
        return
    n = len(c.gpus)
    slots = x16_size_slots(c.board)
    x16 = None if slots is None else len(slots)
    if x16 is None:
        c.unchecked("gpu-slots", "the board's PCIe slots are not in the data", (K.GPU, K.MOTHERBOARD))
    elif n > x16 and n <= x16 + (open_ := _size_unknown(c.board.pcie_slots or ())):
        # x8 slots listed by their electrical width only (server boards): many are x16-size or open-ended, which
        # the data does not say (issue 36): not checked, never a false error.
        c.unchecked(
            "gpu-slots",
            f"{n} GPUs: the board has {x16} x16-size slot{'s' if x16 != 1 else ''} and {open_} more listed only by "
            "electrical width (x8), whose physical size the data does not give",
            (K.GPU, K.MOTHERBOARD),
        )
    elif n > x16:
        c.error(
            "gpu-slots",
            f"The build has {n} GPUs; the motherboard has {x16} x16-size slot{'s' if x16 != 1 else ''}.",
            f"Choose a board with at least {n} x16 slots (a workstation board for 3+ GPUs).",
            [*(i.part for i in c.gpu_items), c.board],
            (K.GPU, K.MOTHERBOARD),
        )


def _size_unknown(slots: Sequence[PcieSlot]) -> int:
    """x8 slots whose physical size is not stated: on server and workstation boards most are x16-size (x16 slots
    wired x8) or open-ended, which the data does not say."""
    return sum(s.count for s in slots if s.physical is None and s.lanes == 8)


def gpu_expansion_slots(c: Ctx) -> None:
    if not (c.gpus and c.case):
        return
    widths = [gpu_slots(g) for g in c.gpus]
    if None in widths or c.case.expansion_slots is None:
        c.unchecked(
            "gpu-expansion-slots", "a GPU's slot width or the case's expansion slots are unknown", (K.GPU, K.CASE)
        )
        return
    need = sum(w for w in widths if w)
    if need > c.case.expansion_slots:
        c.error(
            "gpu-expansion-slots",
            f"The GPUs take {need} expansion slots together; the case has {c.case.expansion_slots}.",
            "Choose thinner (2-slot or blower) cards or a case with more expansion slots.",
            [*(i.part for i in c.gpu_items), c.case],
            (K.GPU, K.CASE),
        )


def gpu_lanes_rule(c: Ctx) -> None:
    """Two or more GPUs: the link each runs at (gpu_lanes), a note, or a warning below x8. One GPU: its link when
    below the card's own (link.one_link), a note, or a warning at 8 GB/s or less."""
    n = len(c.gpus)
    if n >= 2:
        gpu_lanes(c, n, [i.part for i in c.gpu_items])
    elif n == 1:
        cpu = c.cpu
        known = cpu is not None and (cpu.graphics_lanes is not None or cpu.pcie_lanes is not None)
        link.one_link(c, c.gpus[0], graphics_lanes(cpu) if known else None)


def lanes_strict_unknown(build: Build) -> bool:
    """gpu-lanes' "not checked" fails a suggestion with 2+ GPUs (x8 per GPU unproven); with one GPU the link's
    generation is only said, so a part of unknown generation is not refused for it (the balance stage's link step
    asks for a known one)."""
    return sum(i.quantity for i in build.items if i.part.kind is Kind.GPU) >= 2


def gpu_spacing(c: Ctx) -> None:
    """Three or more open-air GPUs packed side by side: a warning (blower, liquid-cooled and passive cards pass)."""
    if len(c.gpus) < 3:
        return
    packed = [g for g in c.gpus if open_air(g)]
    if any(open_air(g) is None for g in c.gpus):
        c.unchecked("gpu-spacing", "a GPU's cooler type is unknown", (K.GPU,))
    if len(packed) >= 3:
        c.warn(
            "gpu-spacing",
            f"{len(packed)} open-air GPUs packed side by side recirculate each other's hot air and throttle.",
            "Use blower-style cards, risers with spacing, or water cooling for 3+ GPUs.",
            [i.part for i in c.gpu_items],
            (K.GPU,),
        )


def board_slots(board: Any) -> Hashable:
    """The facts of a board's PCIe slots that the lane rules read (gpu-lanes, gpu-slot-lanes)."""
    return (repr(board.pcie_slots), board.form_factor)


def lane_split(cpu: Any, n: int) -> int:
    """Lanes per GPU: the CPU lanes left for graphics (16 on desktop platforms, all but 8 on HEDT, fewer where the
    CPU's family says so), split evenly, rounded down to a PCIe link width and capped at x16."""
    budget = graphics_lanes(cpu)
    per = budget // n
    for width in (16, 8, 4, 2, 1):
        if per >= width:
            return width
    return 0


def graphics_lanes(cpu: Any) -> int:
    """The CPU's lanes for the graphics slots: its family's stated figure where one is recorded (Ryzen 8000G
    "Phoenix" x8, "Phoenix 2" x4: AMD's 20/16 and 14/10 total/usable lanes, and Gigabyte's B650E AORUS ELITE X AX ICE
    specification, as Hardwareluxx and TweakTown reported in 2024-01), else 16 on a desktop platform (28 lanes or
    fewer) and all but 8 on HEDT and workstation CPUs."""
    if cpu.graphics_lanes is not None:
        return int(cpu.graphics_lanes)
    lanes = int(cpu.pcie_lanes)
    return 16 if lanes <= 28 else lanes - 8


def _widths(per_slot: list[int]) -> str:
    return "/".join(f"x{w}" for w in per_slot)


def _wired(cpu: Any, used: list[Any], every_slot: Sequence[Any], budget: int, pool: str) -> tuple[list[int], str]:
    """(lanes per GPU, how) where the board lists the slots the GPUs take: its wiring when the CPU-wired slots fit
    the CPU's graphics budget, else the budget split over them."""
    # A chipset slot's lanes are the chipset's (x4 at most), not the CPU's: only the others share its budget.
    cpuish = [s for s in used if s.wired_to != "chipset"]
    chipset = " and the chipset" if len(cpuish) < len(used) else ""
    listed = [s.lanes for s in used]
    if sum(s.lanes for s in cpuish) <= budget:
        how = f"the board wires its slots {_widths(listed)} from {pool}{chipset}"
        cpu16 = any(s.wired_to == "cpu" and s.lanes >= 16 for s in every_slot)
        if cpu16 and any(s.wired_to is None and s.lanes == 8 and s.physical == 16 for s in used):
            how += " (an x8 slot of unstated wiring: x8 if the board splits the CPU's x16, else x4 from the chipset)"
        return listed, how
    per = lane_split(cpu, len(cpuish))
    per_slot = [s.lanes if s.wired_to == "chipset" else min(s.lanes, per) for s in used]
    if all(s.wired_to == "cpu" for s in cpuish):
        how = (
            f"the board splits {pool} over its slots (listed "
            f"{_widths(listed)}): {_widths(per_slot)}{' with the chipset' if chipset else ''}"
        )
    else:
        how = (
            f"the board lists {_widths(listed)} slots, but {pool} cannot run them all at full width: about "
            f"{_widths(per_slot)} if the board splits them evenly, while a slot "
            f"wired to the chipset instead runs at x4 or less (the board's manual says which)"
        )
    return per_slot, how


def gpu_lanes(c: Ctx, n: int, parts: Sequence[object]) -> None:
    """What each GPU's link runs at: the board's wiring where the data lists its slots' lanes, within the CPU's
    budget; otherwise an even split of the CPU's graphics lanes."""
    cpu = c.cpu
    if not cpu or cpu.pcie_lanes is None:
        c.unchecked("gpu-lanes", "the CPU's PCIe lane count is not known", (K.GPU, K.CPU))
        return
    budget = graphics_lanes(cpu)
    # One figure and one wording whatever the branch (issue 40: "56 graphics lanes" with 4 GPUs, "64 lanes" with 2)
    pool = f"the CPU's {budget} graphics lanes (of its {cpu.pcie_lanes})"
    board_slots = (c.board.pcie_slots if c.board else None) or ()
    every = sorted((s for s in board_slots for _ in range(s.count)), key=lambda s: -s.lanes)
    used = every[:n] if c.board and len(every) >= n else None
    if used:
        per_slot, how = _wired(cpu, used, board_slots, budget, pool)
    else:
        per_slot = [lane_split(cpu, n)] * n
        how = f"split evenly, {pool} give about {_widths(per_slot)}"
    # "3.0" < "4.0": the catalog's generations compare as strings
    gen = cpu.pcie_gen
    faster = sorted({s.gen for s in used or () if gen and s.wired_to != "chipset" and s.gen and s.gen > gen})
    if faster:
        how += f", at PCIe {gen}: the {cpu.name}'s lanes are PCIe {gen} (the slots PCIe {faster[-1]})"
    msg = f"{n} GPUs: {how}."
    slowest = min(per_slot)
    if slowest >= 8:
        c.note(
            "gpu-lanes",
            msg + " Data-parallel training loses little at x8 or more (Dettmers: a few percent on PCIe 4.0).",
            "",
            [*parts, cpu],
            (K.GPU, K.CPU),
        )
    else:
        c.warn(
            "gpu-lanes",
            msg + f" A GPU at x{slowest} exchanges gradients slowly, which slows data-parallel training noticeably.",
            "Choose a platform with more CPU lanes (Threadripper, Xeon W) for this many GPUs.",
            [*parts, cpu],
            (K.GPU, K.CPU),
        )


def gpu_radiator(c: Ctx) -> None:
    """A hybrid card (an all-in-one liquid cooler on the GPU, e.g. ASUS STRIX LC, MSI SUPRIM LIQUID) needs a free
    radiator mount in the case for each card, besides a CPU radiator's; a "Water Cooled" card carries only a block for
    a custom loop whose pump, radiator and fittings are not parts of the build. The catalog gives neither the cards'
    radiator sizes nor the case's count of mounts, so both are "not checked", naming the cards: never a silent pass."""
    hybrid = [n for n, g in enumerate(c.gpus, 1) if (g.cooling or "").lower() == "hybrid"]
    loop = [n for n, g in enumerate(c.gpus, 1) if (g.cooling or "").lower() == "water cooled"]

    def which(ns: list[int]) -> str:
        return f"GPU {ns[0]}" if len(ns) == 1 else "GPUs " + ", ".join(map(str, ns))

    if hybrid:
        c.unchecked(
            "gpu-radiator",
            f"{which(hybrid)}: a liquid cooler with a radiator of its own, which needs a free mount in the case "
            "(besides a CPU radiator's); the card's radiator size and the case's mounts are not in the data",
            (K.GPU,),  # the card's fact: any case leaves it open, so no case is to blame
        )
    if loop:
        c.unchecked(
            "gpu-radiator",
            f"{which(loop)}: a water block for a custom loop; its pump, radiator and fittings are not in the build",
            (K.GPU,),
        )
