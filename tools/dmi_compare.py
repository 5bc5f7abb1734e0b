"""linuxhw/DMI slot tables against the catalog's motherboards (issue 36): match, compare, classify.

A catalog board is matched to the DMI boards of its maker whose name has the same words once the words that only
one side writes are dropped (socket, memory type, form factor, maker, "ROG", "GA", "CSM", Wi-Fi generation, a
chipset prefix repeated before the model: "Asus B450 PRIME B450M-K II" = "PRIME B450M-K II"); Wi-Fi and non-Wi-Fi
boards are kept apart. Only an exact word-set match counts (no fuzzy score), so a board is left out rather than
matched to a sibling.

Per matched board: probes whose slot table is a template (tools/dmi_slots.templates) are set aside; the table most
of the rest give is the board's, "consistent" when every such probe gives it. It is compared with pcie_slots:
  count    the number of PCIe slots;
  width    the electrical widths (x16/x8/x4/x1), and, where those agree, the physical size of slots wired narrower
           than their connector (the catalog stating none, or another);
  wiring   CPU or chipset, where the bus address tells (tools/dmi_slots.root) and the catalog states another.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

import dmi_slots as d

NOISE = {
    "am3", "am4", "am5", "tr4", "strx4", "swrx8", "str5", "ddr3", "ddr4", "ddr5", "atx", "eatx", "e", "micro",
    "mini", "itx", "matx", "microatx", "ceb", "ssi", "eeb", "motherboard", "ga", "rog", "intel", "amd", "asus",
    "asustek", "msi", "gigabyte", "asrock", "biostar", "evga", "nzxt", "supermicro", "lga", "socket", "computer",
    "inc", "co", "ltd", "wi", "fi", "wifi",
}  # fmt: skip
CHIP = re.compile(r"[abhxzqw]\d{2,3}")

Key = tuple[str, frozenset[str], bool]


def words(name: str) -> tuple[frozenset[str], bool]:
    """(the name's words that both sides write, whether it says Wi-Fi)."""
    s = name.lower().replace("wi-fi", "wifi")
    s = re.sub(r"\(ms-[0-9a-z]+\)", " ", s)
    s = re.sub(r"\b([abhxzq]\d{2,3}) m\b", r"\1m", s)  # "B560 M PRO-E" = "B560M PRO-E"
    t = set(re.findall(r"[a-z0-9+]+", s))
    wifi = bool(re.search(r"wifi|wi fi", s))
    t = {x for x in t if not re.fullmatch(r"lga\d+|wifi\d*e?|csm", x)}
    t = {x for x in t if not (CHIP.fullmatch(x) and any(y != x and y.startswith(x) for y in t))}
    return frozenset(t - NOISE), wifi


def key(maker: str, name: str) -> Key:
    w, wifi = words(name)
    return d.vendor_key(maker) or "?", w, wifi


@dataclass
class Board:
    part: dict[str, Any]
    probes: list[d.Probe]
    template_probes: int = 0
    table: tuple[tuple[str, int | None, int | None], ...] = ()
    agree: int = 0
    usable: int = 0
    wiring: dict[str, set[str]] = field(default_factory=dict)

    @property
    def consistent(self) -> bool:
        return self.usable > 0 and self.agree == self.usable

    @property
    def source(self) -> str:
        return f"{d.REPO} {d.example(self.probes)} @{d.PIN[:12]}, CC BY 4.0"


def match(parts: list[dict[str, Any]], probes: list[d.Probe]) -> list[Board]:
    by: dict[Key, list[d.Probe]] = defaultdict(list)
    for p in probes:
        by[key(p.board_vendor, p.board)].append(p)
    tmpl = d.templates(probes)
    found = [(part, ps) for part in parts if (ps := by.get(key(part.get("manufacturer") or "", part["name"])))]
    # One table on a Mini-ITX board (one slot) and on a larger board cannot describe both; a table with more slots
    # than the board's form factor holds (Mini-ITX 1, Micro ATX 4, ATX 7: the ATX 2.2 and microATX 1.2 specs'
    # expansion-slot positions) describes another board: both are templates.
    sizes: dict[tuple[tuple[str, int | None, int | None], ...], set[bool]] = defaultdict(set)
    for part, ps in found:
        ff = (part.get("form_factor") or "").lower()
        most = 1 if "itx" in ff else 4 if "micro" in ff else 7 if ff == "atx" else None
        for t in {d.table(p) for p in ps}:
            sizes[t].add("itx" in ff)
            if most is not None and len(t) > most:
                tmpl.add(t)
    tmpl |= {t for t, s in sizes.items() if len(s) > 1}
    out = []
    for part, ps in found:
        b = Board(part, ps)
        own = [p for p in ps if d.table(p) not in tmpl]
        b.template_probes = len(ps) - len(own)
        if own:
            b.table, b.agree, b.usable = d.agreed(own)
            same = [p for p in own if d.table(p) == b.table]
            b.wiring = d.wiring(same, d.platform_of(part.get("socket")))
        out.append(b)
    return out


def catalog_slots(part: dict[str, Any]) -> list[dict[str, Any]]:
    """The catalog's slots one per slot (count expanded)."""
    return [s for s in part.get("pcie_slots") or () for _ in range(s.get("count", 1))]


def lanes_text(ls: list[int]) -> str:
    return " ".join(f"x{n}" if n else "x?" for n in sorted(ls, key=lambda n: -(n or 0)))


def slots_text(slots: list[dict[str, Any]]) -> str:
    out = []
    for s in slots:
        t = f"x{s['lanes']}"
        if s.get("physical") and s["physical"] != s["lanes"]:
            t += f"(x{s['physical']} size)"
        if s.get("wired_to"):
            t += f" {s['wired_to']}"
        out.append(t)
    return ", ".join(out) or "none"


def dmi_text(b: Board) -> str:
    out = []
    for name, e, p in b.table:
        t = f"{name or '?'} x{e or '?'}"
        if p and p != e:
            t += f"(x{p} size)"
        roots = b.wiring.get(name) or set()
        if len(roots) == 1:
            t += f" {next(iter(roots))}"
        out.append(t)
    return ", ".join(out)


def classify(b: Board) -> list[tuple[str, str]]:
    """(class, what differs) for one board with an own table: count, width, physical, wiring."""
    if not b.table:
        return []
    cat = catalog_slots(b.part)
    if not b.part.get("pcie_slots"):
        return [("count", f"catalog has no slot list; DMI lists {len(b.table)}")]
    if len(cat) != len(b.table):
        return [("count", f"catalog {len(cat)}, DMI {len(b.table)}")]
    out = []
    mine = sorted(s["lanes"] for s in cat)
    theirs = sorted(e or 0 for _, e, _ in b.table)
    if 0 not in theirs and mine != theirs:
        out.append(("width", f"catalog {lanes_text(mine)}, DMI {lanes_text(theirs)}"))
        return out
    # physical size of narrow-wired slots: pair slots by electrical width
    narrow_dmi = Counter((e, p) for _, e, p in b.table if e and p and p > e)
    for (e, p), n in narrow_dmi.items():
        cat_e = [s for s in cat if s["lanes"] == e]
        stated = Counter(s.get("physical") for s in cat_e)
        if stated.get(p, 0) < n:
            said = ", ".join(f"x{e} size {k or 'unstated'}" for k in stated) or f"no x{e} slot"
            out.append(("physical", f"DMI: {n} x{e} slot(s) of x{p} size; catalog: {said}"))
    # wiring: a DMI slot whose roots agree, paired with the catalog's slots of its width when all share one wiring
    for name, width, _ in b.table:
        roots = b.wiring.get(name) or set()
        if len(roots) != 1 or not width:
            continue
        r = next(iter(roots))
        wired = {s.get("wired_to") for s in cat if s["lanes"] == width}
        if len(wired) == 1 and (c := next(iter(wired))) is not None and c != r:
            out.append(("wiring", f"{name} x{width}: catalog {c}, DMI bus address {r}"))
        elif wired == {None}:
            out.append(("wiring unstated", f"{name} x{width}: catalog unstated, DMI bus address {r}"))
    return out
