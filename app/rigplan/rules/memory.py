"""Rules about memory and drives on the board: type, buffering, module form, slots, capacity, M.2 and SATA. One
function per rule (engine.RULES gives each its own facts and `needs`)."""

from __future__ import annotations

from rigplan.model.parts import Kind, Memory
from rigplan.rules.context import Ctx, dimm_form, socket_memory

K = Kind


def memory_type(c: Ctx) -> None:
    b = c.board
    if b is None:
        return
    for mem, _ in c.memory:
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


def memory_registered(c: Ctx) -> None:
    """RDIMM or UDIMM, as the platform takes (the board's socket, else the CPU's: parts/platforms.yaml)."""
    b = c.board
    socket = (b.socket if b and b.socket else None) or (c.cpu.socket if c.cpu else None)
    if not socket:
        return
    takes = socket_memory(socket)
    for mem, _ in c.memory:
        if takes is None and mem.registered is True and c.cpu is not None and c.cpu.rdimm_support is not None:
            continue  # the CPU in the build says whether it takes RDIMMs: memory-rdimm-cpu (workstation.py)
        if takes is None or mem.registered is None:
            why = (
                "the memory's buffering is unknown"
                if takes
                else f"which DIMMs {socket} takes is not in RigPlan's table"
            )
            c.unchecked("memory-registered", why, (K.MEMORY,))
        elif mem.registered and takes == "UDIMM":
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


def memory_form_factor(c: Ctx) -> None:
    """Laptop SO-DIMMs do not fit desktop DIMM slots, nor the reverse (different length and pin count, JEDEC)."""
    b = c.board
    if b is None:
        return
    for mem, _ in c.memory:
        have, takes = dimm_form(mem.form_factor), b.memory_form_factor
        if have is None or takes is None:
            c.unchecked("memory-form-factor", "the memory's or the board's module form factor is unknown", (K.MEMORY,))
        elif have != takes:
            c.error(
                "memory-form-factor",
                f"The memory is {have} ({mem.form_factor or ''}); the motherboard has {takes} slots.",
                f"Choose {takes} memory{' (desktop modules)' if takes == 'DIMM' else ' (laptop modules)'}.",
                [mem, b],
                (K.MEMORY, K.MOTHERBOARD),
            )


def _layout(c: Ctx) -> tuple[int, float] | None:
    """(modules, GB) of all the memory in the build; None when a kit's module count or capacity is unknown."""
    if any(m.modules is None or m.capacity_gb is None for m, _ in c.memory):
        return None
    return sum((m.modules or 0) * q for m, q in c.memory), sum((m.capacity_gb or 0) * q for m, q in c.memory)


def memory_slots(c: Ctx) -> None:
    b = c.board
    if b is None or not c.memory:
        return
    layout = _layout(c)
    if b.memory_slots is None or layout is None:
        c.unchecked(
            "memory-slots", "the board's slot count or the kit's module count is unknown", (K.MEMORY, K.MOTHERBOARD)
        )
    elif layout[0] > b.memory_slots:
        c.error(
            "memory-slots",
            f"The memory has {layout[0]} modules; the motherboard has {b.memory_slots} slots.",
            f"Use at most {b.memory_slots} modules (larger modules for the same capacity).",
            [*_kits(c), b],
            (K.MEMORY, K.MOTHERBOARD),
        )


def memory_capacity(c: Ctx) -> None:
    """The most memory the board and the CPU each support (their makers' figures), against the build's total."""
    if not c.memory:
        return
    layout = _layout(c)
    limits = [(p, p.max_memory_gb, label) for p, label in ((c.board, "motherboard"), (c.cpu, "CPU")) if p is not None]
    for part, limit, label in limits:
        if limit is None or layout is None:
            c.unchecked("memory-capacity", f"the {label}'s maximum memory is unknown", (K.MEMORY,))
        elif layout[1] > limit:
            total_gb = layout[1]
            c.error(
                "memory-capacity",
                f"The build has {total_gb:g} GB of memory; the {label} supports at most {limit} GB.",
                f"Use at most {limit} GB, or a {label} that supports {total_gb:g} GB.",
                [*_kits(c), part],
                (K.MEMORY, K.MOTHERBOARD if label == "motherboard" else K.CPU),
            )


def _kits(c: Ctx) -> list[Memory]:
    return [m for m, _ in c.memory]


def storage_m2(c: Ctx) -> None:
    b = c.board
    if not (c.storage and b):
        return
    if any(d.is_m2 is None for d, _ in c.storage):
        c.unchecked("storage-m2", "a drive's form factor is unknown", (K.STORAGE,))
    m2 = [(d, q) for d, q in c.storage if d.is_m2]
    if not m2:
        return
    drives = [d for d, _ in m2]
    if b.m2_slots is None:
        c.unchecked("storage-m2", "the board's M.2 slots are not in the data", (K.STORAGE, K.MOTHERBOARD))
        return
    n = sum(q for _, q in m2)
    slots = [s for s in b.m2_slots if (s.key or "M").upper() in {"M", "B+M", "M+B"}]
    if n > len(slots):
        c.error(
            "storage-m2",
            f"The build has {n} M.2 drives; the motherboard has {len(slots)} M-key M.2 slots.",
            "Use fewer M.2 drives, a PCIe adapter card, or a board with more M.2 slots.",
            [*drives, b],
            (K.STORAGE, K.MOTHERBOARD),
        )
    sizes = ", ".join(sorted({s.size or "?" for s in slots}))
    for d in drives:
        size = (d.form_factor or "").removeprefix("M.2-")
        if size.isdigit() and slots and all(s.size and size not in s.size for s in slots):
            c.error(
                "storage-m2",
                f"{d.name} is M.2 {size}; the board's M.2 slots take {sizes}.",
                "Choose a 2280 drive or a board with a slot of that length.",
                [d, b],
                (K.STORAGE, K.MOTHERBOARD),
            )


def storage_sata(c: Ctx) -> None:
    b = c.board
    sata = [(d, q) for d, q in c.storage if d.is_sata and not d.is_m2]
    if not (sata and b):
        return
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
