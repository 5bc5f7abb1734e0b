"""Rules about parts fitting together: sockets, memory, form factors, lengths, slots and lanes."""

from __future__ import annotations

from collections.abc import Sequence

from rigplan.model.parts import Kind
from rigplan.rules.context import (
    Ctx,
    board_fits_case,
    dimm_form,
    gpu_slots,
    mm,
    norm_socket,
    open_air,
    socket_memory,
)
from rigplan.rules.platforms import platforms

K = Kind


def cpu_socket(c: Ctx) -> None:
    if not (c.cpu and c.board):
        return
    if not (c.cpu.socket and c.board.socket):
        c.unchecked("cpu-socket", "the CPU's or the board's socket is unknown", (K.CPU, K.MOTHERBOARD))
    elif (board_socket := platforms().socket(c.board.socket)) is not None and board_socket.soldered:
        c.error(
            "cpu-socket",
            f"The motherboard has its CPU soldered on ({c.board.socket}); it takes no {c.cpu.socket} CPU.",
            f"Choose a {c.cpu.socket} motherboard, or leave out the CPU.",
            [c.cpu, c.board],
            (K.CPU, K.MOTHERBOARD),
        )
    elif norm_socket(c.cpu.socket) != norm_socket(c.board.socket):
        c.error(
            "cpu-socket",
            f"The CPU needs socket {c.cpu.socket}; the motherboard has {c.board.socket}.",
            f"Choose a {c.cpu.socket} motherboard or a {c.board.socket} CPU.",
            [c.cpu, c.board],
            (K.CPU, K.MOTHERBOARD),
        )


def cpu_chipset(c: Ctx) -> None:
    """Same socket, different generation: an i9-9900K does not run on a Z270 board (parts/platforms.yaml)."""
    if not (c.cpu and c.board) or norm_socket(c.cpu.socket or "?") != norm_socket(c.board.socket or "!"):
        return
    pf = platforms()
    if pf.canonical_socket(c.cpu.socket) not in pf.chipsets:
        return  # no support table for this socket: every CPU of it runs on every chipset of it, as far as we know
    level = pf.chipset_support(c.cpu.socket, c.cpu.microarchitecture, c.board.chipset)
    arch, chip = c.cpu.microarchitecture, c.board.chipset
    if level is None:
        c.unchecked(
            "cpu-chipset",
            f"RigPlan's support table does not cover {arch or 'an unknown CPU generation'} on "
            f"{chip or 'an unknown chipset'}",
            (K.CPU, K.MOTHERBOARD),
        )
    elif level == "no":
        c.error(
            "cpu-chipset",
            f"The {arch} CPU fits the {c.board.socket} socket but does not run on the {chip} chipset "
            f"({pf.chipset_source(c.cpu.socket)})",
            "Choose a board with a chipset that supports this CPU generation, or a CPU of the board's generation.",
            [c.cpu, c.board],
            (K.CPU, K.MOTHERBOARD),
        )
    elif level == "bios":
        c.note(
            "cpu-chipset",
            f"The {arch} CPU runs on the {chip} chipset only after a BIOS update ({pf.chipset_source(c.cpu.socket)})",
            "Check the board's BIOS version, or choose a board with USB BIOS flashback.",
            [c.cpu, c.board],
            (K.CPU, K.MOTHERBOARD),
        )


def cpu_igpu(c: Ctx) -> None:
    if not c.cpu or c.gpus:
        return
    if c.cpu.integrated_graphics is None:
        c.unchecked("cpu-igpu", "whether the CPU has integrated graphics is unknown", (K.CPU, K.GPU))
    elif not c.cpu.integrated_graphics:
        c.error(
            "cpu-igpu",
            f"{c.cpu.name} has no integrated graphics and the build has no GPU: the machine has no display output.",
            "Add a GPU, or choose a CPU with integrated graphics.",
            [c.cpu],
            (K.GPU, K.CPU),
        )


def cpu_memory_type(c: Ctx) -> None:
    if not (c.cpu and c.memory):
        return
    for mem, _ in c.memory:
        if not (c.cpu.memory_types and mem.ram_type):
            c.unchecked("cpu-memory-type", "the CPU's or the memory's type is unknown", (K.CPU, K.MEMORY))
            continue
        if mem.ram_type not in c.cpu.memory_types:
            c.error(
                "cpu-memory-type",
                f"The memory is {mem.ram_type}; the CPU supports {', '.join(c.cpu.memory_types)}.",
                f"Choose {' or '.join(c.cpu.memory_types)} memory.",
                [mem, c.cpu],
                (K.MEMORY, K.CPU),
            )


def cooler_fit(c: Ctx) -> None:
    if c.cooler and c.cpu:
        cooler_socket(c)


def cooler_height(c: Ctx) -> None:
    if c.cooler and c.case:
        h, limit = c.cooler.height_mm, c.case.max_cooler_height_mm
        if h is None or limit is None:
            which = "the cooler's height" if h is None else "the case's cooler limit"
            c.unchecked("cooler-height", f"cooler height vs case: {which} is unknown", (K.COOLER, K.CASE))
        elif h > limit:
            c.error(
                "cooler-height",
                f"The cooler is {mm(h)} tall; the case takes at most {mm(limit)}.",
                f"Choose a cooler of at most {mm(limit)} or a case with >= {mm(h)} of cooler clearance.",
                [c.cooler, c.case],
                (K.COOLER, K.CASE),
            )
    if c.cooler and c.cooler.water_cooled and c.cooler.radiator_mm and c.case:
        c.unchecked(
            "cooler-radiator",
            f"{c.cooler.radiator_mm} mm radiator vs case mounts: the case data has no radiator support",
            (K.COOLER, K.CASE),
        )


def cooler_socket(c: Ctx) -> None:
    """The cooler fits when it lists the CPU's socket, or a socket with the same mounting pattern (the makers'
    statements in parts/platforms.yaml: AM4 coolers fit AM5, LGA1700 ones LGA1851, the 115x family and 1200...)."""
    assert c.cooler and c.cpu
    if not (c.cooler.sockets and c.cpu.socket):
        c.unchecked("cooler-socket", "the cooler's sockets or the CPU's socket are unknown", (K.COOLER, K.CPU))
        return
    pf = platforms()
    target = norm_socket(c.cpu.socket)
    if target in {norm_socket(s) for s in c.cooler.sockets}:
        return
    mount = pf.mount(c.cpu.socket)
    via = [s for s in c.cooler.sockets if mount and pf.mount(s) == mount]
    if via and mount:
        label, source = pf.mounts[mount]
        c.note(
            "cooler-socket",
            f"The cooler lists {', '.join(via)}, not {c.cpu.socket}; both use the {label}, so it fits ({source})",
            "Check that the cooler's mounting kit is the standard one for that pattern.",
            [c.cooler, c.cpu],
            (K.COOLER, K.CPU),
        )
        return
    c.error(
        "cooler-socket",
        f"The cooler does not list socket {c.cpu.socket} or one with its mounting pattern "
        f"(it fits {', '.join(c.cooler.sockets)}).",
        f"Choose a cooler that supports {c.cpu.socket}, or check the maker for a mounting kit.",
        [c.cooler, c.cpu],
        (K.COOLER, K.CPU),
    )


def board_form_factor(c: Ctx) -> None:
    if not (c.board and c.case):
        return
    ff, allowed = c.board.form_factor, c.case.motherboard_form_factors
    if not (ff and allowed):
        c.unchecked(
            "board-form-factor",
            "the board's form factor or the case's supported ones are unknown",
            (K.MOTHERBOARD, K.CASE),
        )
    elif not board_fits_case(ff, allowed):
        c.error(
            "board-form-factor",
            f"The motherboard is {ff}; the case takes {', '.join(allowed)}.",
            f"Choose a case that takes {ff} boards, or a {' / '.join(allowed)} board.",
            [c.board, c.case],
            (K.MOTHERBOARD, K.CASE),
        )


def psu_fit(c: Ctx) -> None:
    if not (c.psu and c.case):
        return
    ff, allowed = c.psu.form_factor, c.case.psu_form_factors
    if not (ff and allowed):
        c.unchecked("psu-form-factor", "the case's supported PSU form factors are unknown", (K.PSU, K.CASE))
    else:
        psu_form_factor(c, ff, allowed)
    length, limit = c.psu.length_mm, c.case.max_psu_length_mm
    if length is None or limit is None:
        c.unchecked(
            "psu-length",
            "PSU length vs case: " + ("the PSU's length" if length is None else "the case's PSU limit") + " is unknown",
            (K.PSU, K.CASE),
        )
    elif length > limit:
        c.error(
            "psu-length",
            f"The PSU is {mm(length)} long; the case takes at most {mm(limit)}.",
            f"Choose a PSU of at most {mm(limit)} or a case with more PSU room.",
            [c.psu, c.case],
            (K.PSU, K.CASE),
        )


def psu_fit_level(ff: str, allowed: tuple[str, ...] | list[str]) -> str:
    """'fits', 'bracket' (an SFX unit in an ATX bay), 'maybe' (SFX-L in an SFX case) or 'no' (parts/platforms.yaml)."""
    pf = platforms().psu_form_factor(ff)
    bays = {(b.name if (b := platforms().psu_form_factor(a)) else a) for a in allowed}
    if pf is None:
        return "fits" if ff.strip() in bays else "no"
    if pf.fits & bays:
        return "fits"
    if pf.with_bracket & bays:
        return "bracket"
    return "maybe" if pf.maybe & bays else "no"


def psu_form_factor(c: Ctx, ff: str, allowed: tuple[str, ...]) -> None:
    """An SFX or SFX-L unit fits an ATX bay with the usual bracket (a note); an ATX unit in an SFX case does not."""
    assert c.psu and c.case
    level = psu_fit_level(ff, allowed)
    pf = platforms().psu_form_factor(ff)
    if level == "bracket":
        c.note(
            "psu-form-factor",
            f"The PSU is {ff}; the case takes {', '.join(allowed)} units: it fits with an {ff}-to-ATX bracket "
            f"({pf.source if pf else ''}).",
            "Use the bracket that comes with the PSU, or buy one; check the PSU cables reach.",
            [c.psu, c.case],
            (K.PSU, K.CASE),
        )
    elif level == "maybe":
        c.warn(
            "psu-form-factor",
            f"The PSU is {ff}, 30 mm deeper than the SFX units the case lists ({', '.join(allowed)}).",
            "Check the case maker's PSU clearance, or choose an SFX unit.",
            [c.psu, c.case],
            (K.PSU, K.CASE),
        )
    elif level == "no":
        c.error(
            "psu-form-factor",
            f"The PSU is {ff}; the case takes {', '.join(allowed)} units.",
            f"Choose a {' / '.join(allowed)} PSU or a case that takes {ff}.",
            [c.psu, c.case],
            (K.PSU, K.CASE),
        )


def memory_rules(c: Ctx) -> None:
    if not c.memory:
        return
    b = c.board
    modules = 0
    total_gb = 0.0
    unknown_layout = False
    for mem, qty in c.memory:
        if mem.modules is None or mem.capacity_gb is None:
            unknown_layout = True
        modules += (mem.modules or 0) * qty
        total_gb += (mem.capacity_gb or 0) * qty
        if b:
            if not (mem.ram_type and b.ram_type):
                c.unchecked("memory-type", "the memory's or the board's memory type is unknown", (K.MEMORY,))
            elif mem.ram_type != b.ram_type:
                c.error(
                    "memory-type",
                    f"The memory is {mem.ram_type}; the motherboard takes {b.ram_type}.",
                    f"Choose {b.ram_type} memory, or a {mem.ram_type} motherboard.",
                    [mem, b],
                    (K.MEMORY, K.MOTHERBOARD),
                )
        socket = (b.socket if b and b.socket else None) or (c.cpu.socket if c.cpu else None)
        takes = socket_memory(socket)
        if socket and (takes is None or mem.registered is None):
            why = (
                "the memory's buffering is unknown"
                if takes
                else f"which DIMMs {socket} takes is not in RigPlan's table"
            )
            c.unchecked("memory-registered", why, (K.MEMORY,))
        elif takes and mem.registered is not None:
            if mem.registered and takes == "UDIMM":
                c.error(
                    "memory-registered",
                    f"The memory is registered (RDIMM); {socket} takes unbuffered DIMMs.",
                    "Choose unbuffered (UDIMM) memory.",
                    [mem, b or c.cpu],
                    (K.MEMORY,),
                )
            elif not mem.registered and takes == "RDIMM":
                c.error(
                    "memory-registered",
                    f"The memory is unbuffered; {socket} takes registered DIMMs (RDIMM).",
                    "Choose registered ECC (RDIMM) memory.",
                    [mem, b or c.cpu],
                    (K.MEMORY,),
                )
        if b:
            memory_form_factor(c, mem)
    mems = [m for m, _ in c.memory]
    if b:
        if b.memory_slots is None or unknown_layout:
            c.unchecked(
                "memory-slots", "the board's slot count or the kit's module count is unknown", (K.MEMORY, K.MOTHERBOARD)
            )
        elif modules > b.memory_slots:
            c.error(
                "memory-slots",
                f"The memory has {modules} modules; the motherboard has {b.memory_slots} slots.",
                f"Use at most {b.memory_slots} modules (larger modules for the same capacity).",
                [*mems, b],
                (K.MEMORY, K.MOTHERBOARD),
            )
    limits = [(p, p.max_memory_gb, label) for p, label in ((b, "motherboard"), (c.cpu, "CPU")) if p is not None]
    for part, limit, label in limits:
        if limit is None or unknown_layout:
            c.unchecked("memory-capacity", f"the {label}'s maximum memory is unknown", (K.MEMORY,))
        elif total_gb > limit:
            c.error(
                "memory-capacity",
                f"The build has {total_gb:g} GB of memory; the {label} supports at most {limit} GB.",
                f"Use at most {limit} GB, or a {label} that supports {total_gb:g} GB.",
                [*mems, part],
                (K.MEMORY, K.MOTHERBOARD if label == "motherboard" else K.CPU),
            )


def memory_form_factor(c: Ctx, mem: object) -> None:
    """Laptop SO-DIMMs do not fit desktop DIMM slots, nor the reverse (different length and pin count, JEDEC)."""
    b = c.board
    assert b is not None
    have, takes = dimm_form(getattr(mem, "form_factor", None)), b.memory_form_factor
    if have is None or takes is None:
        c.unchecked("memory-form-factor", "the memory's or the board's module form factor is unknown", (K.MEMORY,))
    elif have != takes:
        c.error(
            "memory-form-factor",
            f"The memory is {have} ({getattr(mem, 'form_factor', '')}); the motherboard has {takes} slots.",
            f"Choose {takes} memory{' (desktop modules)' if takes == 'DIMM' else ' (laptop modules)'}.",
            [mem, b],
            (K.MEMORY, K.MOTHERBOARD),
        )


def storage_rules(c: Ctx) -> None:
    if not (c.storage and c.board):
        return
    b = c.board
    m2 = [(d, q) for d, q in c.storage if d.is_m2]
    sata = [(d, q) for d, q in c.storage if d.is_sata and not d.is_m2]
    if any(d.is_m2 is None for d, _ in c.storage):
        c.unchecked("storage-m2", "a drive's form factor is unknown", (K.STORAGE,))
    if m2:
        n = sum(q for _, q in m2)
        drives = [d for d, _ in m2]
        if b.m2_slots is None:
            c.unchecked("storage-m2", "the board's M.2 slots are not in the data", (K.STORAGE, K.MOTHERBOARD))
        else:
            slots = [s for s in b.m2_slots if (s.key or "M").upper() in {"M", "B+M", "M+B"}]
            if n > len(slots):
                c.error(
                    "storage-m2",
                    f"The build has {n} M.2 drives; the motherboard has {len(slots)} M-key M.2 slots.",
                    "Use fewer M.2 drives, a PCIe adapter card, or a board with more M.2 slots.",
                    [*drives, b],
                    (K.STORAGE, K.MOTHERBOARD),
                )
            for d in drives:
                size = (d.form_factor or "").removeprefix("M.2-")
                if size.isdigit() and slots and all(s.size and size not in s.size for s in slots):
                    c.error(
                        "storage-m2",
                        f"{d.name} is M.2 {size}; the board's M.2 slots take {', '.join(sorted({s.size or '?' for s in slots}))}.",  # noqa: E501
                        "Choose a 2280 drive or a board with a slot of that length.",
                        [d, b],
                        (K.STORAGE, K.MOTHERBOARD),
                    )
    if sata:
        n = sum(q for _, q in sata)
        if b.sata_ports is None:
            c.unchecked("storage-sata", "the board's SATA port count is unknown", (K.STORAGE, K.MOTHERBOARD))
        elif n > b.sata_ports:
            c.error(
                "storage-sata",
                f"The build has {n} SATA drives; the motherboard has {b.sata_ports} SATA ports.",
                "Use fewer SATA drives or add a SATA controller card.",
                [*(d for d, _ in sata), b],
                (K.STORAGE, K.MOTHERBOARD),
            )


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
    x16 = c.board.x16_size_slots()
    if x16 is None:
        c.unchecked("gpu-slots", "the board's PCIe slots are not in the data", (K.GPU, K.MOTHERBOARD))
    elif n > x16:
        c.error(
            "gpu-slots",
            f"The build has {n} GPUs; the motherboard has {x16} x16-size slot{'s' if x16 != 1 else ''}.",
            f"Choose a board with at least {n} x16 slots (a workstation board for 3+ GPUs).",
            [*(i.part for i in c.gpu_items), c.board],
            (K.GPU, K.MOTHERBOARD),
        )


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


def gpu_multi(c: Ctx) -> None:
    """Several GPUs: slot spacing (not in the data), lanes per card and open-air cards packed together. Notes and
    warnings only."""
    parts = [i.part for i in c.gpu_items]
    n = len(c.gpus)
    if n >= 2 and c.board:
        c.unchecked(
            "gpu-slot-spacing",
            "the distance between the board's x16 slots is not in the data: check that "
            "each card's cooler clears the next slot",
            (K.GPU, K.MOTHERBOARD),
        )
    if n >= 2:
        gpu_lanes(c, n, parts)
    if n >= 3:
        packed = [g for g in c.gpus if open_air(g)]
        if any(open_air(g) is None for g in c.gpus):
            c.unchecked("gpu-spacing", "a GPU's cooler type is unknown", (K.GPU,))
        if len(packed) >= 3:
            c.warn(
                "gpu-spacing",
                f"{len(packed)} open-air GPUs packed side by side recirculate each other's hot air and throttle.",
                "Use blower-style cards, risers with spacing, or water cooling for 3+ GPUs.",
                parts,
                (K.GPU,),
            )


def lane_split(cpu_lanes: int, n: int) -> int:
    """Lanes per GPU: the CPU lanes left for graphics (16 on desktop platforms, all but 8 on HEDT), split evenly,
    rounded down to a PCIe link width and capped at x16."""
    budget = graphics_lanes(cpu_lanes)
    per = budget // n
    for width in (16, 8, 4, 2, 1):
        if per >= width:
            return width
    return 0


def graphics_lanes(cpu_lanes: int) -> int:
    return 16 if cpu_lanes <= 28 else cpu_lanes - 8


def _widths(per_slot: list[int]) -> str:
    return "/".join(f"x{w}" for w in per_slot)


def gpu_lanes(c: Ctx, n: int, parts: Sequence[object]) -> None:
    """What each GPU's link runs at: the board's wiring where the data lists its slots' lanes, within the CPU's
    budget; otherwise an even split of the CPU's graphics lanes."""
    if not c.cpu or c.cpu.pcie_lanes is None:
        c.unchecked("gpu-lanes", "the CPU's PCIe lane count is not known", (K.GPU, K.CPU))
        return
    budget = graphics_lanes(c.cpu.pcie_lanes)
    board_slots = (c.board.pcie_slots if c.board else None) or ()
    slots = sorted((s.lanes for s in board_slots for _ in range(s.count)), reverse=True)
    wired = slots[:n] if c.board and len(slots) >= n else None
    if wired and sum(wired) <= budget:
        per_slot = wired
        how = f"the board wires its slots {_widths(per_slot)} from the CPU's {c.cpu.pcie_lanes} lanes"
    elif wired:
        per = lane_split(c.cpu.pcie_lanes, n)
        per_slot = [min(w, per) for w in wired]
        how = (
            f"the board lists {_widths(wired)} slots, but the CPU has {budget} lanes for graphics, so not all can "
            f"run at full width: about {_widths(per_slot)} if the board splits them evenly, while a slot wired to "
            f"the chipset instead runs at x4 or less (the board's manual says which)"
        )
    else:
        per = lane_split(c.cpu.pcie_lanes, n)
        per_slot = [per] * n
        how = f"split evenly, the CPU's {budget} graphics lanes give about {_widths(per_slot)}"
    slowest = min(per_slot)
    msg = f"{n} GPUs: {how}."
    if slowest >= 8:
        c.note(
            "gpu-lanes",
            msg + " Data-parallel training loses little at x8 or more (Dettmers: a few percent on PCIe 4.0).",
            "",
            [*parts, c.cpu],
            (K.GPU, K.CPU),
        )
    else:
        c.warn(
            "gpu-lanes",
            msg + f" A GPU at x{slowest} exchanges gradients slowly, which slows data-parallel training noticeably.",
            "Choose a platform with more CPU lanes (Threadripper, Xeon W) for this many GPUs.",
            [*parts, c.cpu],
            (K.GPU, K.CPU),
        )
