"""Rules about memory and drives on the board: type, buffering, module form, slots, capacity, M.2 and SATA."""

from __future__ import annotations

from rigplan.model.parts import Kind
from rigplan.rules.context import Ctx, dimm_form, socket_memory

K = Kind


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
        cpu_decides = takes is None and mem.registered is True and c.cpu is not None and c.cpu.rdimm_support is not None
        if cpu_decides:
            pass  # the CPU in the build says whether it takes RDIMMs: memory-rdimm-cpu (workstation.py)
        elif socket and (takes is None or mem.registered is None):
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
