"""Rules workstation builds meet (issue 25): ECC and registered memory by board and CPU, slot positions and slot
wiring for several GPUs, a front radiator's cost in GPU clearance, and the PSU's ATX version. Sources in
docs/checks.md."""

from __future__ import annotations

from rigplan.model.parts import Kind
from rigplan.rules.context import Ctx, gpu_slots, mm, socket_memory, x16_size_slots
from rigplan.rules.platforms import platforms
from rigplan.rules.power import TRANSIENT_SHARE, is_atx3

K = Kind

# Expansion-slot positions a board of each form factor has at most. Intel ATX 2.2: seven; Intel microATX 1.2: four;
# VIA Mini-ITX: one. SSI CEB keeps the ATX slot area (seven). E-ATX has no standard and SSI EEB boards use seven or
# eight: eight is taken, so that no board is refused on a guess.
SLOT_POSITIONS: dict[str, tuple[int, str]] = {
    "Mini-ITX": (1, "VIA Mini-ITX: one expansion slot"),
    "Thin Mini-ITX": (1, "Intel Thin Mini-ITX: one expansion slot"),
    "Micro ATX": (4, "Intel microATX specification 1.2: at most four expansion slots"),
    "ATX": (7, "Intel ATX specification 2.2: at most seven expansion slots"),
    "SSI CEB": (7, "SSI CEB 1.1 keeps the ATX expansion-slot area: seven"),
    "EATX": (8, "E-ATX has no standard; boards carry seven or eight slot positions (eight taken)"),
    "SSI EEB": (8, "SSI EEB 3.61 boards carry seven or eight slot positions (eight taken)"),
}
# A radiator in the front takes its own thickness (about 30 mm) plus its fans (25 mm) off the GPU clearance when the
# case states it without them: "a 420 mm bare clearance becomes approximately 395 mm with a standard 25 mm fan and
# 365 mm if a 30 mm radiator is also in the path" (Evetech, "How to avoid GPU fitment issues when choosing a case").
FRONT_RADIATOR_MM = 55


def memory_ecc(c: Ctx) -> None:
    """ECC UDIMMs correct errors only where the board and the CPU run ECC; elsewhere they run as plain memory."""
    ecc = [m for m, _ in c.memory if m.ecc and m.registered is not True]
    if not ecc or not (c.board or c.cpu):
        return
    sides = [(p, label, flag) for p, label, flag in (
        (c.board, "motherboard", c.board.ecc_support if c.board else None),
        (c.cpu, "CPU", c.cpu.ecc if c.cpu else None),
    ) if p is not None]  # fmt: skip
    off = [(p, label) for p, label, flag in sides if flag is False]
    if off:
        who = " and the ".join(label for _, label in off)
        verb = "do" if len(off) > 1 else "does"
        c.warn(
            "memory-ecc",
            f"The memory is ECC ({', '.join(m.name for m in ecc)}); the {who} {verb} not support ECC, so the modules "
            f"run in non-ECC mode: no error correction for the price of ECC.",
            "For error correction choose a board and CPU that list ECC support (Xeon W, Threadripper PRO, some "
            "AM4/AM5 boards with Ryzen PRO or Ryzen 7000); otherwise non-ECC memory costs less.",
            [*ecc, *(p for p, _ in off)],
            (K.MEMORY, K.MOTHERBOARD if off[0][1] == "motherboard" else K.CPU),
        )
    elif any(flag is None for _, _, flag in sides) or len(sides) < 2:
        unknown = [label for _, label, flag in sides if flag is None] + (
            ["CPU" if c.cpu is None else "motherboard"] if len(sides) < 2 else []
        )
        c.unchecked(
            "memory-ecc",
            f"ECC memory: whether the {' and the '.join(unknown)} run{'s' if len(unknown) == 1 else ''} ECC is "
            f"{'unknown' if c.board and c.cpu else 'unknown or not chosen yet'}",
            (K.MEMORY,),
        )


def memory_rdimm_cpu(c: Ctx) -> None:
    """On platforms where the CPU decides (X99/X79/LGA2011: Xeon E5 takes RDIMMs, Core i7 does not)."""
    regs = [m for m, _ in c.memory if m.registered is True]
    if not (regs and c.cpu):
        return
    socket = (c.board.socket if c.board and c.board.socket else None) or c.cpu.socket
    if socket_memory(socket) is not None:
        return  # the platform decides: memory-registered
    if c.cpu.rdimm_support is None:
        c.unchecked(
            "memory-rdimm-cpu",
            f"registered memory: whether the {c.cpu.name} takes registered DIMMs is unknown ({socket or 'its socket'} "
            "runs them with some CPUs only)",
            (K.MEMORY, K.CPU),
        )
    elif not c.cpu.rdimm_support:
        c.error(
            "memory-rdimm-cpu",
            f"The memory is registered (RDIMM); the {c.cpu.name} supports unbuffered DIMMs only, though "
            f"{socket} boards take RDIMMs with other CPUs.",
            "Choose unbuffered (UDIMM) memory, or a CPU with registered-memory support (a Xeon on this socket).",
            [*regs, c.cpu],
            (K.MEMORY, K.CPU),
        )


def gpu_slot_lanes(c: Ctx) -> None:
    """A GPU in a x16-size slot wired x4 works, at x4: a lane warning, not a slot error."""
    if not (c.gpus and c.board):
        return
    slots = x16_size_slots(c.board)
    if slots is None:
        c.unchecked("gpu-slot-lanes", "the board's PCIe slots are not in the data", (K.GPU, K.MOTHERBOARD))
        return
    used = list(enumerate(slots[: len(c.gpus)], 1))
    narrow = [(n, s) for n, s in used if s.lanes < 8]
    if not narrow:
        # A second x16-size slot beside the CPU's x16 whose wiring the data leaves open: on chipsets that can split
        # the CPU's x16 (tools/chipsets.yaml, `split`) it runs x8 from the CPU when the board splits it, else x4 from
        # the chipset. Which one only the board's manual says: not checked, rather than taken as x8.
        cpu16 = any(s.wired_to == "cpu" and s.lanes >= 16 for s in slots)
        open_ = [n for n, s in used if s.wired_to is None and s.lanes == 8 and cpu16]
        if len(used) >= 2 and all(s.wired_to is None for s in slots):
            # No slot's wiring is known (a chipset with no row in tools/chipsets.yaml, a board typed in by hand): on
            # a 16-lane desktop CPU the second card may sit on the chipset at x4, so x8 is not shown, only hoped for.
            c.unchecked(
                "gpu-slot-lanes",
                f"{'GPU 2' if len(used) == 2 else f'GPUs 2-{len(used)}'}: the data does not say which of the board's "
                f"{len(slots)} x16-size slots the CPU feeds (no chipset facts for it): x8 or more from the CPU, or x4 "
                "or less from the chipset",
                (K.GPU, K.MOTHERBOARD),
            )
            return
        if open_:
            c.unchecked(
                "gpu-slot-lanes",
                f"GPU {', '.join(map(str, open_))}: its x16-size slot runs x8 from the CPU if the board splits the "
                "CPU's x16 over two slots, else x4 from the chipset; the data does not say which",
                (K.GPU, K.MOTHERBOARD),
            )
        return
    where = "; ".join(
        f"GPU {n} in a x16-size slot wired x{s.lanes}{' from the chipset' if s.wired_to == 'chipset' else ''}"
        for n, s in narrow
    )
    c.warn(
        "gpu-slot-lanes",
        f"{len(c.gpus)} GPU{'s' if len(c.gpus) != 1 else ''} on {len(slots)} x16-size slots, best-wired first: "
        f"{where}. The card fits and runs, at x{min(s.lanes for _, s in narrow)} instead of x16.",
        "Fine for inference on one card; for multi-GPU training choose a board whose GPU slots are wired x8 or x16 "
        "to the CPU (Threadripper, Xeon W).",
        [*(i.part for i in c.gpu_items), c.board],
        (K.GPU, K.MOTHERBOARD),
    )


def board_slot_positions(c: Ctx) -> None:
    """N cards of width w side by side need w1 + ... + w(N-1) + 1 positions (the widest card goes last)."""
    if len(c.gpus) < 2 or not c.board:
        return
    ff = platforms().canonical_ff(c.board.form_factor) if c.board.form_factor else None
    widths = [gpu_slots(g) for g in c.gpus]
    known = SLOT_POSITIONS.get(ff or "")
    if known is None or None in widths:
        why = (
            "a GPU's slot width is unknown"
            if known is not None
            else f"RigPlan has no slot-position count for the {ff or 'unknown'} form factor"
        )
        c.unchecked("board-slot-positions", f"slot positions for {len(c.gpus)} GPUs: {why}", (K.GPU, K.MOTHERBOARD))
        return
    positions, source = known
    ws = sorted(w for w in widths if w)
    need = sum(ws[:-1]) + 1
    if need > positions:
        c.error(
            "board-slot-positions",
            f"{len(c.gpus)} GPUs of {'+'.join(str(w) for w in ws)} slots side by side need {need} slot positions "
            f"(every card but the last blocks the positions under it); a {ff} board has at most {positions} "
            f"({source}).",
            f"Use at most {(k := (positions - 1) // max(ws) + 1)} such card{'s' if k != 1 else ''}, thinner (2-slot "
            "or blower) cards, "
            "PCIe risers, or a larger board (ATX: 7 positions, E-ATX / SSI EEB: up to 8).",
            [*(i.part for i in c.gpu_items), c.board],
            (K.GPU, K.MOTHERBOARD),
        )


def case_radiator_gpu(c: Ctx) -> None:
    """Where the liquid cooler's radiator goes, and what a front radiator leaves of the GPU clearance."""
    if not (c.cooler and c.case and c.cooler.water_cooled):
        return
    if not c.cooler.radiator_mm:
        c.unchecked(
            "case-radiator-gpu",
            f"the radiator of {c.cooler.name}: its size is unknown, so where it goes in the case and what it leaves of "
            "the GPU clearance are not checked",
            (K.COOLER, K.CASE),
        )
        return
    r, front, top = c.cooler.radiator_mm, c.case.max_radiator_front_mm, c.case.max_radiator_top_mm
    name = f"the {r} mm radiator of {c.cooler.name}"
    kinds = (K.COOLER, K.CASE)
    if top is not None and top >= r:
        return  # the top takes it: no GPU clearance lost
    if front is None or front < r:
        if front is None or top is None:
            missing = " and ".join(w for w, v in (("front", front), ("top", top)) if v is None)
            c.unchecked(
                "case-radiator-gpu",
                f"{name} vs the case: the case's largest {missing} radiator is not in the data (OpenDB's case records "
                "have no radiator-support field; parts/corrections-case-radiator.yaml gives it from the maker's page "
                "for a few cases)",
                kinds,
            )
            return
        c.error(
            "case-radiator-gpu",
            f"{_cap(name)} fits neither the case's top (at most {top} mm) nor its front (at most {front} mm).",
            f"Choose a case that takes a {r} mm radiator, or a cooler with a radiator of at most {max(top, front)} mm.",
            [c.cooler, c.case],
            kinds,
        )
        return
    limit = c.case.max_gpu_length_mm
    lengths = [(n, g, g.length_mm) for n, g in enumerate(c.gpus, 1)]
    if not lengths:
        return
    if limit is None or any(length is None for _, _, length in lengths):
        c.unchecked(
            "case-radiator-gpu", f"{name} in the front: the GPU's length or the case's GPU clearance is unknown", kinds
        )
        return
    left = limit - FRONT_RADIATOR_MM
    long = [(n, g, length) for n, g, length in lengths if length is not None and length > left]
    if long:
        n, g, length = max(long, key=lambda x: x[2] or 0)
        c.error(
            "case-radiator-gpu",
            f"{_cap(name)} fits only the case's front (its top takes {f'at most {top} mm' if top else 'none'}), "
            f"where it and its fans take about {FRONT_RADIATOR_MM} mm of the {mm(limit)} GPU clearance, leaving "
            f"{mm(left)}: GPU {n} ({g.name}) is {mm(length)} long.",
            f"Choose a case whose top takes a {r} mm radiator, a GPU of at most {mm(left)}, or a smaller radiator.",
            [c.cooler, c.case, g],
            (K.CASE, K.GPU, K.COOLER),
        )


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def psu_atx3(c: Ctx) -> None:
    """Three-valued: the maker says so (the data or the name), the maker says not (or the unit predates ATX 3.0), or
    unknown. A native 12V-2x6 / 12VHPWR cable is no proof (the 2022 PRIME TX-1600 has two and is ATX 2.53).
    Unknown is said as unknown, never as "not ATX 3.x"."""
    if not c.psu:
        return
    v = is_atx3(c.psu)
    gpu_w = sum(g.tdp_w or 0 for g in c.gpus)
    if v is None:
        c.unchecked(
            "psu-atx3",
            f"whether the {c.psu.name} is an ATX 3.x unit is unknown (no maker's statement in the data; a native "
            f"12V-2x6 / 12VHPWR cable alone is no proof): it is sized with the GPU spike margin",
            (K.PSU,),
        )
    elif v is False and gpu_w:
        # A note when the unit's rating covers the sizing load with the spike margin (psu-wattage is then silent):
        # the margin already answers the concern; a warning only when it does not (issue 36).
        w = c.psu.wattage
        covered = w is not None and c.power.load_w > 0 and not c.power.unknown
        covered = covered and w is not None and c.power.sizing_w <= w * c.build.count(K.PSU)
        (c.note if covered else c.warn)(
            "psu-atx3",
            f"The {c.psu.name} is not an ATX 3.x unit: GPUs spike to 1.5-2x board power for under 1 ms (Igor's Lab), "
            f"which can trip an older unit's over-current protection; RigPlan adds {TRANSIENT_SHARE:.0%} of the "
            f"GPUs' {gpu_w} W ({TRANSIENT_SHARE * gpu_w:.0f} W) to its sizing"
            + (", and the unit's rating covers that." if covered else ", and the unit's rating does not cover it."),
            "Keep that margin, or choose an ATX 3.x unit: it is rated for 200 % spikes (Intel ATX 3.0 design guide, "
            "3.2.11).",
            [c.psu],
            (K.PSU,),
        )
