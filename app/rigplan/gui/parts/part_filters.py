"""Numeric and field filters typed in the picker's search box, as the CLI's `--where` takes them.

"4090 vram>=24 length<=330 price<=800" keeps the parts whose name has "4090", with 24 GB of VRAM or more, at most
330 mm long and at most 800 (the catalog's currency). A field is named as in the catalog (vram_gb, length_mm) or
without its unit (vram, length, tdp, height); "price" is the catalog price. Units typed after the number (24gb,
330 mm, $800) are ignored. The table's own headers work too (x16>=2, slots>=4, gb>=128), computed columns included,
and an unknown name is said in the picker, never dropped silently. Unknown values never match
(rigplan.catalog.search.Condition), as in the CLI.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rigplan.catalog.search import Condition

SHOWN = "shown:"  # as rigplan.gui.parts.partsmodel.SHOWN: a column as the table shows it

_TOKEN = re.compile(r"^([a-z_][a-z_0-9.]*)\s*(>=|<=|!=|>|<|=)\s*(.+)$", re.IGNORECASE)
# A comparison typed with spaces ("vram >= 24") is joined first.
_SPACED = re.compile(
    r"([a-z_][a-z_0-9.]*)\s+(>=|<=|!=|>|<|=)\s*(\S+)|([a-z_][a-z_0-9.]*)(>=|<=|!=|>|<|=)\s+(\S+)", re.I
)
_UNITS = ("_gb", "_mm", "_w", "_mts", "_ghz", "_mhz", "_l", "_gbs", "_tflops")
ALIASES = {"price": "price.amount", "watts": "wattage", "slots": "slot_width", "lanes": "pcie_lanes"}


@dataclass(frozen=True)
class Parsed:
    words: str
    conditions: tuple[Condition, ...]
    problem: str = ""


def field_names(columns: dict[str, list[object]]) -> dict[str, str]:
    """Names a user may type -> catalog field, for one kind's columns."""
    names = {k: k for k in columns}
    for k in columns:
        for unit in _UNITS:
            if k.endswith(unit):
                names.setdefault(k.removesuffix(unit), k)
    for alias, field in ALIASES.items():
        if field.split(".")[0] in columns:
            names.setdefault(alias, field)
    if "price" in columns:
        names["price"] = "price.amount"  # the price column holds {amount, currency, date, source}
    # Issue 29: the headers the table shows ("shown:x16", "shown:gpu max") win: what the user reads is what they type.
    for k in columns:
        if k.startswith(SHOWN):
            head = k.removeprefix(SHOWN)
            if re.fullmatch(r"[a-z_][a-z_0-9 ]*", head):
                names[head.replace(" ", "_")] = k
                names[head.replace(" ", "")] = k
    return names


def _number(raw: str) -> float | str:
    text = raw.strip().lstrip("$€£¥").replace(",", "")
    m = re.match(r"^(-?\d+(?:\.\d+)?)\s*[a-z/]*$", text, re.IGNORECASE)
    return float(m.group(1)) if m else raw.strip()


def parse(text: str, columns: dict[str, list[object]]) -> Parsed:
    names = field_names(columns)
    joined = _SPACED.sub(lambda m: "".join(g for g in m.groups() if g), text)
    words, conds, unknown = [], [], []
    for token in joined.split():
        m = _TOKEN.match(token)
        if not m:
            words.append(token)
            continue
        name, op, raw = m.groups()
        field = names.get(name.lower())
        if field is None:
            unknown.append(name)
            continue
        conds.append(Condition(field, op, _number(raw)))
    problem = ""
    if unknown:
        shown = [n for n, f in names.items() if f.startswith(SHOWN) and "_" not in n and n != "name"]
        usable = shown + sorted(
            n for n in names if n not in {"id", "custom", "spec_source", "name", *shown} and "_" not in n
        )
        problem = (
            f"No field called {', '.join(repr(u) for u in unknown)} here, so that term was not applied; try one of: "
            f"{', '.join(usable[:14])} (the table's headers, or a catalog field such as vram_gb)."
        )
    return Parsed(" ".join(words), tuple(conds), problem)
