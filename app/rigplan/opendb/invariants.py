"""Invariants across fields (issue 36): facts of one record that must agree with each other, as a table.

Each row of INVARIANTS names the part kind, the facts that must agree, the check, its source and the correction: a
value is set from a platform fact when the other facts state it (a C612 board with DDR4 is LGA 2011-3, whatever its
socket field says), otherwise it is made unknown. The importer runs every invariant on every part of the catalog
(data_quality.check) and docs/data.md reports, per invariant, the parts corrected and the values made unknown.

Values filled in rather than corrected (a dual-socket board's second EPS socket, a board's BMC video) are also
written to the part's `inferred` map with the reason, so the catalog says which values are inferences.
"""

from __future__ import annotations

import collections
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rigplan.model.parts import Kind
from rigplan.opendb.invariant_base import INTEL_ARK, Recorder, Tables, infer
from rigplan.opendb.invariants_board import (
    board_eps,
    board_m2_gen,
    board_narrow,
    board_platform,
    board_sas,
    board_socket_count,
    board_video,
)

# --- cases: board list <-> expansion slots -------------------------------------------------------------------------

ITX = {"Mini-ITX", "Mini ITX", "Thin Mini-ITX"}


def case_slots(r: Recorder, t: Tables) -> None:
    """A Mini-ITX board has one slot position; a case for it has 1-3 (a dual-slot card, or a riser). A case listed
    Mini-ITX-only with 5+ expansion slots contradicts its own slot count: 7+ slots are the ATX slot area (Intel ATX
    2.2: seven positions), so it takes ATX and microATX boards; 5-6 leave the board list unknown."""
    d = r.d
    ffs = d.get("motherboard_form_factors") or []
    n = d.get("expansion_slots")
    if not ffs or not n or not set(ffs) <= ITX or n < 5:
        return
    if n >= 7:
        add = [f for f in ("Micro ATX", "ATX") if f not in ffs]
        infer(
            r,
            "case-slots-boards",
            "motherboard_form_factors",
            [*add, *ffs],
            f"{n} expansion slots: the ATX slot area (Intel ATX 2.2, seven positions); Mini-ITX cases have 1-3",
        )
    else:
        r.set(
            "motherboard_form_factors",
            None,
            f"listed Mini-ITX only with {n} expansion slots (Mini-ITX: 1-3)",
            "invariant case-slots-boards",
        )


# --- PSUs: form factor <-> length -------------------------------------------------------------------------------

SFXL_NAME = re.compile(r"\bSFX[- ]?L\b|\bSF\d{3,4}L\b|\bSX\d{3,4}-L", re.I)


def psu_length(r: Recorder, t: Tables) -> None:
    """Intel SFX12V design guide: an SFX unit is 100 mm deep; SFX-L units (SilverStone's name, 2014) are 125-130 mm.
    An 'SFX' unit 120 mm or deeper, or named SFX-L, is SFX-L; 101-119 mm fits neither: the length becomes unknown."""
    d = r.d
    ff, length = d.get("form_factor"), d.get("length_mm")
    if ff == "SFX" and (SFXL_NAME.search(d["name"]) or (length and length >= 120)):
        why = "the name says SFX-L" if SFXL_NAME.search(d["name"]) else f"{length:g} mm deep: SFX is 100 mm"
        r.set("form_factor", "SFX-L", f"{why} (Intel SFX12V guide; SFX-L 125-130 mm)", "invariant psu-form-length")
    elif ff == "SFX" and length and 100 < length < 120:
        r.set(
            "length_mm",
            None,
            f"an SFX unit {length:g} mm deep (SFX: 100 mm, SFX-L: 125-130 mm)",
            "invariant psu-form-length",
        )
    elif ff == "SFX-L" and length and length <= 100:
        r.set("form_factor", "SFX", f"{length:g} mm deep: SFX (SFX-L is 125-130 mm)", "invariant psu-form-length")


VOLT_230 = re.compile(r"\b(?:230|240|220)\s?V\b|\(230V\)|\b200-240\s?V", re.I)


def psu_input(r: Recorder, t: Tables) -> None:
    """A unit sold as '230V' (the 230 V-only versions of Cooler Master, Deepcool, Thermaltake, FSP and Corsair's
    AX1500i 240V) is rated for 200-240 V input; others state 100-240 V where the maker says so (not inferred)."""
    if VOLT_230.search(r.d["name"]):
        infer(r, "psu-input-voltage", "input_voltage_min_v", 200, "the name says a 230 V (200-240 V) input version")


# --- storage: interface <-> nvme <-> form factor ----------------------------------------------------------------


def storage_protocol(r: Recorder, t: Tables) -> None:
    """U.2 (SFF-8639 with PCIe, SFF-TA-1001) drives are NVMe and 2.5-inch; SATA and SAS interfaces are not NVMe."""
    d = r.d
    iface = d.get("interface") or ""
    if iface == "U.2" or re.search(r"\bU\.2\b", d["name"]) and iface.startswith("PCIe"):
        if d.get("nvme") is not True:
            r.set(
                "nvme",
                True,
                "a U.2 drive is an NVMe (PCIe) drive (SFF-8639 / SFF-TA-1001)",
                "invariant storage-interface-nvme",
            )
        if d.get("form_factor") not in (None, '2.5"'):
            r.set("form_factor", '2.5"', "U.2 drives are 2.5-inch (SFF-8639)", "invariant storage-interface-nvme")
    elif re.match(r"(M\.2 )?(SATA|SAS)\b", iface) and d.get("nvme") is True:
        r.set("nvme", False, f"a {iface} drive is not NVMe (AHCI/SCSI protocol)", "invariant storage-interface-nvme")


# --- CPUs: family <-> sockets per board <-> ECC/RDIMM; generation tags ---------------------------------------------

# (name pattern, most sockets, why). Intel ARK 'Scalability': Xeon E5-1600 '1S Only', E5-2600 / E5-2400 '2S',
# E5-4600 '4S'; Xeon E3, E-2000, W-1200/W-2000/W-3000/W-2400/W-3400 single-socket; AMD: EPYC 'P' parts are
# single-socket only, EPYC 4004 (AM5) single-socket, EPYC 7002/7003/9004 non-P up to 2; Opteron 6000 up to 4.
# Desktop CPUs (Core, Ryzen, Threadripper, Athlon, FX, Pentium, Celeron) have no inter-socket link: 1.
SOCKETS_BY_NAME: tuple[tuple[re.Pattern[str], int, str], ...] = (
    (re.compile(r"Xeon E5[- ]?1\d{3}", re.I), 1, "Intel ARK: Xeon E5-1600 scalability 1S only"),
    (re.compile(r"Xeon E5[- ]?2\d{3}", re.I), 2, "Intel ARK: Xeon E5-2600/2400 scalability 2S"),
    (re.compile(r"Xeon E5[- ]?4\d{3}", re.I), 4, "Intel ARK: Xeon E5-4600 scalability 4S"),
    (re.compile(r"Xeon (E3|E[- ]?2\d{3}|W[- ]?\d{4})", re.I), 1, "Intel ARK: Xeon E3/E-2000/W scalability 1S only"),
    (re.compile(r"EPYC \d{4}P", re.I), 1, "AMD: EPYC 'P' processors are single-socket only"),
    (re.compile(r"EPYC 4\d{3}", re.I), 1, "AMD EPYC 4004/4005 (AM5): single-socket"),
    (re.compile(r"EPYC [79]\d{3}", re.I), 2, "AMD EPYC 7002/7003/9004/9005: up to two sockets"),
    (re.compile(r"Opteron 6\d{3}", re.I), 4, "AMD Opteron 6000 (G34): up to four sockets"),
    (re.compile(r"\b(Core|Ryzen|Threadripper|Athlon|FX|Pentium|Celeron|A\d{1,2}-)", re.I), 1,
     "desktop CPUs have no inter-socket link (Intel ARK, AMD): single-socket"),
)  # fmt: skip


def cpu_sockets(r: Recorder, t: Tables) -> None:
    d = r.d
    for rx, n, why in SOCKETS_BY_NAME:
        if rx.search(d["name"]):
            infer(r, "cpu-socket-count", "max_sockets", n, why)
            if n >= 2:
                # every multi-socket Xeon and EPYC runs ECC registered memory (Intel ARK, AMD)
                if d.get("ecc") is False:
                    r.set("ecc", True, f"{why}: a multi-socket server CPU runs ECC", "invariant cpu-socket-count")
                if d.get("rdimm_support") is False:
                    r.set(
                        "rdimm_support",
                        True,
                        f"{why}: a multi-socket server CPU runs RDIMMs",
                        "invariant cpu-socket-count",
                    )
            return


LGA1700_GENS = {"12": "Alder Lake", "13": "Raptor Lake", "14": "Raptor Lake Refresh"}


def cpu_generation(r: Recorder, t: Tables) -> None:
    """Intel ARK: Core 12th gen 'Products formerly Alder Lake', 13th 'Raptor Lake', 14th 'Raptor Lake Refresh'."""
    d = r.d
    m = re.search(r"\bi[3579][- ]?(1[234])\d{3}", d["name"], re.I)
    if d.get("socket") == "LGA 1700" and m and d.get("microarchitecture"):
        want = LGA1700_GENS[m.group(1)]
        if d["microarchitecture"] != want:
            r.set(
                "microarchitecture",
                want,
                f"a {m.group(1)}th-gen Core model number: {want} (Intel ARK)",
                "invariant cpu-generation",
            )


# --- coolers: name <-> sockets ----------------------------------------------------------------------------------

I4_LINE = re.compile(r"\bNoctua\b.*\b(NH-[UD]\d+\w*DX\s?-?i4|NH-[UD]\d+S? DX-3647)", re.I)


def cooler_narrow(r: Recorder, t: Tables) -> None:
    """Noctua's i4 line (NH-U9DX i4, NH-U12DX i4, NH-U14S DX i4, NH-D9DX i4 3U) and DX-3647 coolers mount on the
    narrow ILM as well as the square one (Noctua product pages: 'Intel LGA2011-0 & LGA2011-3 (Square ILM and
    Narrow ILM)'); OpenDB lists their square sockets only."""
    d = r.d
    sockets = d.get("sockets") or []
    if I4_LINE.search(d["name"]) and sockets and "LGA 2011-3 Narrow" not in sockets:
        add = [s for s in ("LGA 2011 Narrow", "LGA 2011-3 Narrow") if s not in sockets]
        r.set(
            "sockets",
            [*sockets, *add],
            "Noctua i4/DX line: square and narrow ILM (Noctua product pages)",
            "invariant cooler-narrow-ilm",
        )


# --- the table ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Invariant:
    id: str
    kind: Kind
    facts: str  # the facts that must agree
    check: str
    source: str
    correction: str
    run: Callable[[Recorder, Tables], None]


K = Kind
INVARIANTS: tuple[Invariant, ...] = (
    Invariant("board-socket-count", K.MOTHERBOARD, "socket field, name, CPU sockets",
              "'2 x SOCKET' is two sockets of SOCKET", "the listing", "count to cpu_sockets", board_socket_count),
    Invariant("board-socket-chipset", K.MOTHERBOARD, "socket, chipset",
              "the chipset's socket (C612/X99: LGA 2011-3, C602: LGA 2011, ...)", INTEL_ARK + "; AMD",
              "socket from the chipset", board_platform),
    Invariant("board-narrow-ilm", K.MOTHERBOARD, "socket, name", "a name saying Narrow is a narrow-ILM socket",
              "Intel narrow ILM (56 x 94 mm)", "socket + ' Narrow'", board_narrow),
    Invariant("board-eps-per-socket", K.MOTHERBOARD, "CPU sockets, EPS inputs",
              "one 8-pin EPS input per processor", "SSI EEB 3.61", "inferred: one 8-pin per socket", board_eps),
    Invariant("board-m2-generation", K.MOTHERBOARD, "M.2 interface, chipset/socket PCIe generation",
              "no M.2 slot above the platform's PCIe generation", "tools/chipsets.yaml (Intel ARK, AMD)",
              "generation clamped to the platform's", board_m2_gen),
    Invariant("board-display-output", K.MOTHERBOARD, "BMC / VGA port, socket", "a VGA port on a socket without "
              "integrated graphics, or an ASPEED BMC, is the board's own display output", "Intel ARK, AMD; "
              "Supermicro naming convention", "inferred: onboard_video", board_video),
    Invariant("board-sas", K.MOTHERBOARD, "chipset, SAS ports", "desktop chipsets have no SAS controller",
              "Intel/AMD chipset datasheets", "inferred: 0 SAS ports", board_sas),
    Invariant("case-slots-boards", K.CASE, "board list, expansion slots",
              "a Mini-ITX-only case has 1-3 slots", "Intel ATX 2.2 (7 positions); VIA Mini-ITX (1)",
              "7+: ATX and microATX added (inferred); 5-6: board list unknown", case_slots),
    Invariant("psu-form-length", K.PSU, "form factor, length", "SFX is 100 mm deep, SFX-L 125-130 mm",
              "Intel SFX12V design guide; SilverStone SFX-L", "SFX -> SFX-L, or length unknown", psu_length),
    Invariant("psu-input-voltage", K.PSU, "name, input voltage", "a '230V' version takes 200-240 V only",
              "the makers' 230 V product pages", "inferred: 200 V minimum", psu_input),
    Invariant("storage-interface-nvme", K.STORAGE, "interface, nvme, form factor",
              "U.2 is NVMe and 2.5-inch; SATA/SAS are not NVMe", "SFF-8639 / SFF-TA-1001",
              "nvme and form factor from the interface", storage_protocol),
    Invariant("cpu-socket-count", K.CPU, "family, sockets per board, ECC/RDIMM",
              "1S/2S/4S from the family; multi-socket CPUs run ECC RDIMMs", "Intel ARK scalability; AMD EPYC",
              "inferred: max_sockets; ECC/RDIMM set", cpu_sockets),
    Invariant("cooler-narrow-ilm", K.COOLER, "name, sockets", "Noctua's i4/DX coolers take the narrow ILM",
              "Noctua product pages", "narrow-ILM sockets added", cooler_narrow),
    Invariant("cpu-generation", K.CPU, "model number, microarchitecture",
              "12th gen Alder Lake, 13th Raptor Lake, 14th Raptor Lake Refresh", "Intel ARK",
              "microarchitecture from the model number", cpu_generation),
)  # fmt: skip


def run(r: Recorder, t: Tables) -> None:
    for inv in INVARIANTS:
        if inv.kind is r.kind:
            inv.run(r, t)


def section(changes: list[Any]) -> list[str]:
    """docs/data.md: per invariant, the parts corrected, the parts with an inferred value and the values made
    unknown."""
    fixed: dict[str, set[str]] = collections.defaultdict(set)
    inferred: dict[str, set[str]] = collections.defaultdict(set)
    unknown: collections.Counter[str] = collections.Counter()
    for c in changes:
        if not c.check.startswith("invariant "):
            continue
        name = c.check.split(" ", 1)[1]
        if c.new is None:
            unknown[name] += 1
        elif c.old is None:
            inferred[name].add(c.part_id)
        else:
            fixed[name].add(c.part_id)
    lines = [
        "## Invariants across fields (issue 36)",
        "",
        "Facts of one record that must agree (`rigplan/opendb/invariants.py`, run on every part of every import).",
        "A value is corrected from a platform fact when the other facts state it, filled in (and marked in the part's",
        "`inferred` map with the reason) when unknown, or made unknown when the facts disagree and none decides.",
        "",
        "| Invariant | Kind | Facts that must agree | Check | Source | Correction | Parts corrected "
        "| Parts filled in (inferred) | Values made unknown |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for inv in INVARIANTS:
        lines.append(
            f"| `{inv.id}` | {inv.kind.value} | {inv.facts} | {inv.check} | {inv.source} | {inv.correction} "
            f"| {len(fixed[inv.id]):,} | {len(inferred[inv.id]):,} | {unknown[inv.id]:,} |"
        )
    return [*lines, ""]
