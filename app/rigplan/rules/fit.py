"""Rules about parts fitting together: sockets, memory, form factors, lengths, slots and lanes."""

from __future__ import annotations

from rigplan.model.parts import Cpu, Kind
from rigplan.rules.context import (
    Ctx,
    board_fits_case,
    mm,
    norm_socket,
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


def cpu_chipset_facts(cpu: Cpu) -> tuple[object, ...]:
    """What cpu-chipset reads of a CPU: its socket, generation and product line (by name, platforms.yaml)."""
    return cpu.socket, cpu.microarchitecture, platforms().cpu_line(cpu.socket, cpu.name)


def cpu_chipset(c: Ctx) -> None:
    """Same socket, different generation: an i9-9900K does not run on a Z270 board (parts/platforms.yaml)."""
    if not (c.cpu and c.board) or norm_socket(c.cpu.socket or "?") != norm_socket(c.board.socket or "!"):
        return
    pf = platforms()
    if pf.canonical_socket(c.cpu.socket) not in pf.chipsets:
        return  # no support table for this socket: every CPU of it runs on every chipset of it, as far as we know
    level = pf.chipset_support(c.cpu.socket, c.cpu.microarchitecture, c.board.chipset, c.cpu.name)
    arch, chip = pf.cpu_line(c.cpu.socket, c.cpu.name) or c.cpu.microarchitecture, c.board.chipset
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


def psu_form_factor_rule(c: Ctx) -> None:
    if not (c.psu and c.case):
        return
    ff, allowed = c.psu.form_factor, c.case.psu_form_factors
    if not (ff and allowed):
        c.unchecked("psu-form-factor", "the case's supported PSU form factors are unknown", (K.PSU, K.CASE))
    else:
        psu_form_factor(c, ff, allowed)


def psu_length(c: Ctx) -> None:
    """The PSU's depth against the case's PSU room (both makers' figures, mm): longer by any amount is an error."""
    if not (c.psu and c.case):
        return
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
