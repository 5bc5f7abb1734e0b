"""Tie-breaks for the price join (issue 19): when several catalog parts carry every token of a price row's name, the
attributes the row states (colour, form factor, efficiency, modularity, length, boost clock, cores, interface...)
must agree with each candidate's where both sides know them. A row is joined only when exactly one candidate
survives, so only rows whose attributes single out one catalog part gain a price; the rest stay ambiguous.

Colours: a catalog name that states colours ("... Black / Silver ...") disagrees with a row of another colour set;
a name without colour words is unknown. Two colours of one product are two parts only if the catalog lists two.
An audit of 100 random new matches (docs/data.md) decides which rules stay: see RULES.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from rigplan.model.parts import Kind

COLOURS = frozenset(
    "black white silver gray grey red blue green pink purple gold brown yellow orange beige clear".split()  # noqa: SIM905
)


def _n(v: Any) -> str:
    return re.sub(r"[^a-z0-9.]", "", str(v).lower())


def colours(text: str) -> frozenset[str]:
    words = {"grey" if w == "gray" else w for w in re.findall(r"[a-z]+", text.lower())}
    return frozenset(words & COLOURS)


def _colour(p: dict[str, Any], d: dict[str, Any]) -> bool | None:
    row = colours(p.get("color") or "")
    name = colours(d.get("name") or "")
    if not row or not name:
        return None
    return row == name


def _eq(pv: Any, dv: Any, f: Callable[[Any], Any] = _n) -> bool | None:
    if pv in (None, "", "None") or dv in (None, ""):
        return None
    return f(pv) == f(dv)


def _near(pv: Any, dv: Any, tol: float) -> bool | None:
    if not isinstance(pv, (int, float)) or not isinstance(dv, (int, float)) or not pv or not dv:
        return None
    return abs(float(pv) - float(dv)) <= tol


_EFFICIENCY = {"plus": "80+", "bronze": "80+ bronze", "silver": "80+ silver", "gold": "80+ gold"}
_EFFICIENCY |= {"platinum": "80+ platinum", "titanium": "80+ titanium"}
_MODULAR = {"full": "full", "false": "nonmodular", "semi": "semimodular", "full / side": "full"}
_STORAGE_TYPE = {"ssd": "ssd", "hybrid": "hybrid"}


def _form(v: Any) -> str:
    return _n(v).replace("microatx", "microatx").replace("miniitx", "miniitx")


def checks(kind: Kind, p: dict[str, Any], d: dict[str, Any]) -> dict[str, bool | None]:
    """Attribute -> agrees (True), disagrees (False) or unknown (None)."""
    if kind is Kind.GPU:
        return {
            "colour": _colour(p, d),
            "length": _near(p.get("length"), d.get("length_mm"), 1.0),
            "boost clock": _near(p.get("boost_clock"), d.get("boost_clock_mhz"), 0.5),
        }
    if kind is Kind.PSU:
        eff = _EFFICIENCY.get(str(p.get("efficiency")).lower())
        return {
            "colour": _colour(p, d),
            "form factor": _eq(p.get("type"), d.get("form_factor")),
            "efficiency": _eq(eff, d.get("efficiency")),
            "modular": _eq(_MODULAR.get(str(p.get("modular")).lower()), d.get("modular")),
        }
    if kind is Kind.CASE:
        return {"colour": _colour(p, d), "form factor": _eq(p.get("type"), d.get("form_factor"), _form)}
    if kind is Kind.MOTHERBOARD:
        return {
            "colour": _colour(p, d),
            "form factor": _eq(p.get("form_factor"), d.get("form_factor")),
            "memory slots": _eq(p.get("memory_slots"), d.get("memory_slots")),
            "max memory": _eq(p.get("max_memory"), d.get("max_memory_gb")),
        }
    if kind is Kind.STORAGE:
        kind_of = "ssd" if p.get("type") == "SSD" else ("hdd" if str(p.get("type") or "").isdigit() else None)
        return {
            "interface": _eq(p.get("interface"), d.get("interface")),
            "form factor": _eq(str(p.get("form_factor") or "").strip('"'), str(d.get("form_factor") or "").strip('"')),
            "type": _eq(kind_of, d.get("storage_type")),
        }
    if kind is Kind.CPU:
        return {
            "cores": _eq(p.get("core_count"), d.get("cores")),
            "boost clock": _near(p.get("boost_clock"), d.get("boost_clock_ghz"), 0.05),
            "tdp": _eq(p.get("tdp"), d.get("tdp_w")),
        }
    if kind is Kind.COOLER:
        size = p.get("size")
        return {"colour": _colour(p, d), "radiator": _eq(size, d.get("radiator_mm")) if size else None}
    if kind is Kind.MEMORY:
        return {"colour": _colour(p, d)}
    return {}


def single_out(kind: Kind, p: dict[str, Any], parts: list[dict[str, Any]], cands: list[int]) -> tuple[int, str] | None:
    """The one candidate whose attributes do not disagree with the row's, and the attributes that decided."""
    alive = [i for i in cands if all(v is not False for v in checks(kind, p, parts[i]).values())]
    if len(alive) != 1:
        return None
    why = sorted({a for i in cands if i != alive[0] for a, v in checks(kind, p, parts[i]).items() if v is False})
    # Proof, not elimination alone: the survivor must itself state every attribute that ruled the others out.
    # (A board whose name gives no colour is not "the white one" because the black one was ruled out.)
    mine = checks(kind, p, parts[alive[0]])
    if not why or any(mine.get(a) is not True for a in why):
        return None
    if unexplained(p.get("name") or "", parts[alive[0]]):
        return None
    return alive[0], ", ".join(why)


# Words a catalog name adds that describe, not name, the product: a survivor may carry these beyond the row's name.
_DESCRIBE = frozenset(
    re.findall(
        r"[a-z]+",
        """ddr ddr3 ddr4 ddr5 cl gb tb mb mm cfm rpm water air liquid atx eatx micro mini itx mid full tower case ssd
        hdd nvme pcie sata m gddr gddr5 gddr6 gddr6x gddr7 x pc""",
    )
)
_WORD = re.compile(r"[a-z]+|[0-9]+(?:\.[0-9]+)?")


def unexplained(row_name: str, part: dict[str, Any]) -> list[str]:
    """Model words in the part's name, among or right after the row's words, that the row does not have: "RGB" in
    "Corsair Vengeance RGB" for a "Corsair Vengeance" row, "GX" in "Montech SKY TWO GX" for "Montech SKY TWO", "E"
    in "VENTUS 3X E OC" for "VENTUS 3X OC". Such a survivor is a sibling model, not the row's product (audit 1)."""
    row = set(_WORD.findall(row_name.lower()))
    allowed = row | set(_WORD.findall(str(part.get("chipset") or "").lower())) | _DESCRIBE | COLOURS
    toks = _WORD.findall(str(part.get("name") or "").lower())
    at = [i for i, t in enumerate(toks) if t in row]
    if not at:
        return []
    span = toks[at[0] : at[-1] + 2]
    return [t for t in span if t not in allowed and not t[0].isdigit()]
