"""Board invariants (issue 36): socket <-> chipset <-> memory type, sockets per board, narrow ILM, EPS inputs per
socket, M.2 generation against the platform, the board's own video (BMC), SAS ports. Listed in INVARIANTS
(rigplan/opendb/invariants.py), which docs/data.md reports."""

from __future__ import annotations

import re
from typing import Any

from rigplan.opendb.invariant_base import INTEL_ARK, Recorder, Tables, infer

# --- boards: socket <-> chipset <-> memory type ------------------------------------------------------------------

# Chipset -> (socket, memory types the platform runs). Intel ARK: the C600/X79 family is LGA2011 with DDR3 (Sandy/Ivy
# Bridge-EP), C610/C612/X99 LGA2011-3 with DDR4 (Haswell/Broadwell-EP), C422/X299 LGA2066, C620 LGA3647, W790/C741
# LGA4677 with DDR5, 5520/X58 LGA1366; AMD: X399 TR4 (sTR4), TRX40 sTRX4, WRX80 sWRX8, TRX50/WRX90 sTR5, SR5690 G34.
CHIPSET_PLATFORM: dict[str, tuple[str, tuple[str, ...]]] = {
    "X79": ("LGA 2011", ("DDR3",)),
    "C602": ("LGA 2011", ("DDR3",)),
    "C602J": ("LGA 2011", ("DDR3",)),
    "C604": ("LGA 2011", ("DDR3",)),
    "C606": ("LGA 2011", ("DDR3",)),
    "C608": ("LGA 2011", ("DDR3",)),
    "X99": ("LGA 2011-3", ("DDR4",)),
    "C612": ("LGA 2011-3", ("DDR4",)),
    "C422": ("LGA 2066", ("DDR4",)),
    "X299": ("LGA 2066", ("DDR4",)),
    "C621": ("LGA 3647", ("DDR4",)),
    "C622": ("LGA 3647", ("DDR4",)),
    "C624": ("LGA 3647", ("DDR4",)),
    "W790": ("LGA 4677", ("DDR5",)),
    # Workstation chipsets of the desktop sockets, missing here until the second-source comparison with
    # wddesousa/findmyprebuilt prisma/data.ts @b849a44 (issue 36; that table names them, with no socket): W880 is
    # LGA1851 with DDR5 only (hardwareluxx.de news 64011, Intel 800-series table: W880 = Z890 without CPU overclocking,
    # with ECC; pcmasters.de: LGA1851 takes DDR5 only); W680 and R680E are LGA1700 with DDR4 or DDR5 ECC
    # (thinkcomputers.org, W680 block diagram: 'both DDR5 and DDR4 ECC memory'); W580, W480 and W480E are LGA1200
    # with DDR4 (Intel ARK: Xeon W-1200/W-1300 and 10th/11th-gen Core on LGA1200 run DDR4).
    "W880": ("LGA 1851", ("DDR5",)),
    "W680": ("LGA 1700", ("DDR4", "DDR5")),
    "R680E": ("LGA 1700", ("DDR4", "DDR5")),
    "W580": ("LGA 1200", ("DDR4",)),
    "W480": ("LGA 1200", ("DDR4",)),
    "W480E": ("LGA 1200", ("DDR4",)),
    "C741": ("LGA 4677", ("DDR5",)),
    "X58": ("LGA 1366", ("DDR3",)),
    "5520": ("LGA 1366", ("DDR3",)),
    "X399": ("TR4", ("DDR4",)),
    "TRX40": ("sTRX4", ("DDR4",)),
    "WRX80": ("sWRX8", ("DDR4",)),
    "TRX50": ("sTR5", ("DDR5",)),
    "WRX90": ("sTR5", ("DDR5",)),
    "SR5690": ("G34", ("DDR3",)),
}
MULTI = re.compile(r"^\s*(\d+)\s*x\s*", re.I)
DUAL_NAME = re.compile(r"\bDual[- ]?(CPU|Socket|Processor|Xeon)\b|\b2P\b", re.I)
# Supermicro's board names carry the socket count after the generation: X10DRi, X11DPi, X12DPi, H12DSi, H13DSH are
# dual-processor ("D"), X11SPi, H12SSL, X13SWA single ("S") (Supermicro's motherboard naming convention, the product
# pages' "Dual Socket" / "Single Socket").
SUPERMICRO_DUAL = re.compile(r"\b[XH]\d{1,2}D[A-Z]")
NARROW_NAME = re.compile(r"\bNarrow\b", re.I)


def _chip(d: dict[str, Any]) -> str:
    return re.sub(r"^(Intel|AMD)\s+", "", (d.get("chipset") or "").strip(), flags=re.I).upper()


def board_socket_count(r: Recorder, t: Tables) -> None:
    """'2 x LGA 2011-3' is two sockets of LGA 2011-3: the count goes to cpu_sockets, the socket keeps its name."""
    d = r.d
    s = d.get("socket") or ""
    m = MULTI.match(s)
    if m:
        r.set(
            "socket",
            s[m.end() :].strip(),
            f"'{s}': {m.group(1)} sockets of one kind (count in cpu_sockets)",
            "invariant board-socket-count",
        )
        infer(r, "board-socket-count", "cpu_sockets", int(m.group(1)), f"the socket field lists {s}")
    elif DUAL_NAME.search(d["name"]) and s:
        infer(r, "board-socket-count", "cpu_sockets", 2, "the name says dual-CPU")
    elif s and (d.get("manufacturer") or "").lower() == "supermicro" and SUPERMICRO_DUAL.search(d["name"]):
        infer(r, "board-socket-count", "cpu_sockets", 2, "Supermicro's name says dual-processor (X11DPi: 'D')")
    elif s and not s.startswith("Integrated"):
        infer(r, "board-socket-count", "cpu_sockets", 1, "one socket listed and the name names no second")


def board_platform(r: Recorder, t: Tables) -> None:
    d = r.d
    row = CHIPSET_PLATFORM.get(_chip(d))
    if row is None:
        return
    socket, mem = row
    have = d.get("socket") or ""
    narrow = " Narrow" if NARROW_NAME.search(have) else ""
    base = re.sub(r"\s+Narrow$", "", have, flags=re.I)
    if base and base != socket and not (socket == "TR4" and base in ("sTR4", "TR4")):
        r.set(
            "socket",
            socket + narrow,
            f"the {d['chipset']} chipset is {socket} ({INTEL_ARK}; AMD chipset pages)",
            "invariant board-socket-chipset",
        )
    ram = d.get("ram_type")
    if ram and ram not in mem:
        if len(mem) == 1:
            r.set(
                "ram_type",
                mem[0],
                f"the {d['chipset']} platform runs {mem[0]} only ({INTEL_ARK})",
                "invariant board-memory-chipset",
            )
        else:
            r.set("ram_type", None, f"{ram} on a {d['chipset']} board", "invariant board-memory-chipset")


def board_narrow(r: Recorder, t: Tables) -> None:
    """The listing's own name says 'Narrow' (LGA2011/2011-3 narrow ILM): the socket carries it, so the cooler rule
    reads the narrow mount (Intel: the narrow ILM is 56 x 94 mm, the square one 80 x 80 mm)."""
    d = r.d
    s = d.get("socket") or ""
    if NARROW_NAME.search(d["name"]) and s in ("LGA 2011", "LGA 2011-3") and not s.endswith("Narrow"):
        r.set("socket", f"{s} Narrow", "the name says Narrow (narrow ILM)", "invariant board-narrow-ilm")


def board_eps(r: Recorder, t: Tables) -> None:
    """Each processor of a dual-socket board has its own 8-pin 12 V input (SSI EEB 3.61, processor power
    connectors; Supermicro/ASUS/ASRock Rack dual-socket manuals: JPWR/EATX12V 1 and 2)."""
    d = r.d
    n = d.get("cpu_sockets") or 1
    if n >= 2 and not d.get("eps_connectors"):
        infer(
            r,
            "board-eps-per-socket",
            "eps_connectors",
            ["8-pin"] * n,
            f"{n} CPU sockets: one 8-pin EPS input per processor (SSI EEB 3.61)",
        )


GEN = re.compile(r"PCIe\s+(\d\.\d)")
GENS = {"1.0": 1, "1.1": 1, "2.0": 2, "3.0": 3, "4.0": 4, "5.0": 5}


def board_m2_gen(r: Recorder, t: Tables) -> None:
    """An M.2 slot cannot run a PCIe generation neither the CPU nor the chipset of the platform has."""
    d = r.d
    m2 = d.get("m2_slots")
    if not m2:
        return
    top = t.platform_gen(d)
    if top is None:
        return
    new = []
    for s in m2:
        m = GEN.search(s.get("interface") or "")
        if m and GENS.get(m.group(1), 0) > GENS[top]:
            s = {**s, "interface": (s["interface"][: m.start(1)] + top + s["interface"][m.end(1) :])}
        new.append(s)
    if new != m2:
        r.set(
            "m2_slots",
            new,
            f"{d.get('chipset') or d.get('socket')} platform: PCIe {top} at most (tools/chipsets.yaml;"
            f" {t.socket_cap_source.split(';')[0]})",
            "invariant board-m2-generation",
        )


# Sockets whose CPUs have no integrated graphics (Intel ARK: Xeon E5/Scalable/W-2000/3000, Core X; AMD: Threadripper,
# EPYC 7002/9004, Opteron): a VGA port on such a board is driven by a chip on the board (a BMC or a VGA controller).
NO_IGPU_SOCKETS = {
    "LGA 1366",
    "LGA 1356",
    "LGA 2011",
    "LGA 2011-3",
    "LGA 2066",
    "LGA 3647",
    "LGA 4189",
    "LGA 4677",
    "TR4",
    "sTR4",
    "sTRX4",
    "sWRX8",
    "sTR5",
    "SP3",
    "SP5",
    "SP6",
    "G34",
}
ASPEED = re.compile(r"\b(?:ASPEED\s*)?(AST\s?2[3-6]00)\b", re.I)
# Supermicro's model suffix F: 'IPMI 2.0 with virtual media over LAN and KVM-over-LAN' (Supermicro motherboard
# naming convention), on an ASPEED BMC with VGA; ASRock Rack's 'U'/'D4U'/'D2I'-style server boards carry ASPEED BMCs.
SUPERMICRO_F = re.compile(r"\b[XH]\d{1,2}[A-Z]{2,4}\w*-(?:[A-Z0-9]*F|F[A-Z0-9]*)\b")
# Server board lines whose makers fit a BMC with VGA on every model (the makers' spec pages: ASRock Rack's
# EPC612D4U/D8A/D4I, EP2C612D16, E3C2xxD4U/D2I, X470D4U/X570D4U 'BMC: ASPEED AST2400/AST2500'; ASUS Z10PE-D16,
# Z9PA-U8/D8, KGPE-D16 'onboard VGA: ASPEED AST2400/AST2050'; Gigabyte MW50-SV0/MW21-SE0 'ASPEED AST2400'; Intel
# S2600 boards: integrated BMC with 2D video).
BMC_LINES = re.compile(
    r"\b(EPC\d{3}D\w+|EP2C\d{3}D\w+|E3C\d{3}D\w+|[XB]\d{3}\s?D4U\w*|C\d{4}D4I|D\d{4}D4I|Z10P[AE]-[DU]\d+(?! WS)"
    r"|Z9P[AE]-[DU]\d+(?! WS)|KGPE-D16|MW\d{2}-[A-Z]{2}\d|BBS2600\w+)\b"
)


def board_video(r: Recorder, t: Tables) -> None:
    d = r.d
    hints = d.pop("_video_hints", None) or ""
    if d.get("onboard_video"):
        return  # stated already (the source data, or a correction)
    m = ASPEED.search(hints)
    base = re.sub(r"\s+Narrow$", "", d.get("socket") or "")
    if m:
        infer(
            r,
            "board-display-output",
            "onboard_video",
            f"ASPEED {m.group(1).replace(' ', '').upper()} (BMC)",
            "the listing names the ASPEED BMC",
        )
    elif (d.get("manufacturer") or "").lower() == "supermicro" and SUPERMICRO_F.search(d["name"]):
        infer(
            r,
            "board-display-output",
            "onboard_video",
            "ASPEED BMC (IPMI)",
            "Supermicro model suffix F: IPMI BMC with VGA (Supermicro naming convention)",
        )
    elif m2 := BMC_LINES.search(d["name"]):
        infer(
            r,
            "board-display-output",
            "onboard_video",
            "BMC video (ASPEED or the maker's BMC)",
            f"{m2.group(0)}: a server board line with a BMC and VGA on every model (maker's spec pages)",
        )
    elif re.search(r"\bVGA\b|D-Sub", hints) and base in NO_IGPU_SOCKETS:
        infer(
            r,
            "board-display-output",
            "onboard_video",
            "onboard VGA",
            f"a VGA port on a {base} board, whose CPUs have no integrated graphics (Intel ARK, AMD)",
        )


CONSUMER_CHIPSET = re.compile(r"^(?:[HBZQ]\d{2,3}[A-Z]?|A\d{3}A?|[BX]\d{3}E?|X\d{3}E?)$")


def board_sas(r: Recorder, t: Tables) -> None:
    """Desktop chipsets (Intel H/B/Z/Q, AMD A/B/X) have SATA ports and no SAS controller (Intel and AMD chipset
    datasheets); a board on one has no SAS port unless it adds a controller, which desktop boards do not."""
    d = r.d
    chip = _chip(d)
    if chip and CONSUMER_CHIPSET.match(chip) and chip not in CHIPSET_PLATFORM and d.get("sas_ports") is None:
        infer(r, "board-sas", "sas_ports", 0, f"the {d['chipset']} desktop chipset has no SAS controller")
