"""Model-word checks every price join passes (issue 25): exact-name, token and attribute joins alike.

A price row joins a part only when no check below finds a reason it names another product:
  * model suffix: a letter or digits after a model number belong to the model ("i5-3550" is not "i5-3550S", "B650"
    is not "B650E", "7950X" is not "7950X3D"): a word of one name that extends a word of the other is a sibling;
  * model letters: the same model digits with other letters are another model ("S300 Pro" is not "X300 Pro");
  * borrowed digits: a bare number in the row must be a word of the part's name, not part of another word ("Viper 4"
    does not match "DDR4");
  * premium variant: the part's name adds a variant word the row lacks (OC, Ultra, Pro, Plus, Max, Ti, Super, XT,
    Extreme, Elite, special editions...): a base model's price never lands on the premium one;
  * storage interface / form factor: both sides state them and they differ (mSATA vs 2.5", U.2 vs add-in card,
    2230 vs 2280, SATA vs NVMe).
"""

from __future__ import annotations

import re
from typing import Any

from rigplan.model.parts import Kind

WORD = re.compile(r"[a-z0-9]+(?:\.[0-9]+)?")
# Units glued to numbers: "850W", "16GB", "2TB", "3200MHz" are the same number, not another model.
UNIT = re.compile(r"^(w|gb|tb|mb|mm|mhz|mts|g|pin|rpm|cfm)$")
# Descriptor words of the catalog's memory names ("DDR4-3200 CL16"): not model words.
DESCRIPTOR = re.compile(r"^(ddr\d|cl\d+|\d+x\d+gb|\d+gb|\d+tb|\d+w|\d+mm)$")
VARIANT = frozenset(
    [
        "oc",
        "ultra",
        "pro",
        "plus",
        "max",
        "ti",
        "super",
        "xt",
        "xtx",
        "extreme",
        "elite",
        "limited",
        "special",
        "anniversary",
        "signature",
        "se",
        "le",
        "ii",
        "iii",
        "iv",
        "v2",
        "v3",
        "evo",
        "xe",
        "ks",
        "kf",
        "x3d",
        "hx",
        "neo",
    ]
)
# Variant words that are also ordinary descriptions in the catalog's names.
_NOT_VARIANT_FOR = {Kind.MEMORY: {"pro", "elite", "plus", "evo", "neo", "max"}, Kind.STORAGE: set()}


def words(text: str) -> list[str]:
    text = re.sub(
        r"(80|am3|fm2)\s*\+", r"\1plus ", (text or "").lower()
    )  # "80+ Gold" is a rating, not the "+" of "NITRO+"
    return WORD.findall(text.replace("+", " plus "))


def _digits(w: str) -> str:
    return re.sub(r"[^0-9]", "", w)


def _extends(long: str, short: str) -> bool:
    """`long` is `short` with more model characters after it (not a unit)."""
    return long.startswith(short) and long != short and not UNIT.match(long[len(short) :])


class _Names:
    """The words of one row and one part, as join_problem's checks read them."""

    def __init__(self, kind: Kind, row: dict[str, Any], part: dict[str, Any]) -> None:
        self.kind, self.part = kind, part
        self.rw = words(row.get("name") or "")
        self.pw = words(part.get("name") or "")
        self.pset = set(self.pw) | set(words(part.get("manufacturer") or ""))
        self.rset = set(self.rw) | set(words(str(row.get("chipset") or "")))
        self.joined = {a + b for a, b in zip(self.pw, self.pw[1:], strict=False)} | {
            a + b for a, b in zip(self.rw, self.rw[1:], strict=False)
        }


def join_problem(kind: Kind, row: dict[str, Any], part: dict[str, Any]) -> str | None:
    """Why the row names another product than the part, or None."""
    n = _Names(kind, row, part)
    for k, r in enumerate(n.rw):
        problem = _row_word_problem(n, k, r)
        if problem:
            return problem
    problem = _variant_problem(n)
    if problem:
        return problem
    if kind is Kind.STORAGE:
        return _storage_problem(row, part)
    return None


def _row_word_problem(n: _Names, k: int, r: str) -> str | None:
    """The checks one word of the row's name (with a digit in it) must pass."""
    if not any(c.isdigit() for c in r):
        return None
    if r.isdigit() and k + 1 < len(n.rw) and UNIT.match(n.rw[k + 1]):
        return _quantity_problem(n, r, n.rw[k + 1])
    for p in n.pset:
        problem = _pair_problem(n, r, p)
        if problem:
            return problem
    glued = any(p.startswith(r) and UNIT.match(p[len(r) :]) for p in n.pset)
    if r.isdigit() and r not in n.pset and not glued and not _derived(n.kind, r, n.part):
        return f"borrowed digits: '{r}' is not a word of the part's name"
    return None


def _quantity_problem(n: _Names, r: str, unit: str) -> str | None:
    """A quantity ("16 GB", "360 mm"): the part must carry it as a word, glued to its unit, or in its specs."""
    if not (r in n.pset or any(p == r + unit for p in n.pset) or _derived(n.kind, r, n.part)):
        return f"borrowed digits: '{r} {unit}' is not in the part's name or specs"
    return None


def _pair_problem(n: _Names, r: str, p: str) -> str | None:
    """A row word `r` against a part word `p`: model suffix or model letters."""
    if DESCRIPTOR.match(p) or p in n.joined or r in n.joined:
        return None
    if p == r or not any(c.isdigit() for c in p):
        return None
    if _extends(p, r) or _extends(r, p):
        return _suffix_problem(n, r, p)
    if _digits(p) == _digits(r) and re.sub(r"[0-9]", "", p) != re.sub(r"[0-9]", "", r) and len(_digits(r)) >= 2:
        return _letters_problem(n, r, p)
    return None


def _suffix_problem(n: _Names, r: str, p: str) -> str | None:
    longer, shorter = (p, r) if len(p) > len(r) else (r, p)
    if p in n.rset or r in n.pset or longer[len(shorter) :] in (n.pset if longer == r else n.rset):
        return None
    return f"model suffix: '{r}' vs '{p}'"


def _letters_problem(n: _Names, r: str, p: str) -> str | None:
    if p in n.rset or r in n.pset or UNIT.match(re.sub(r"[0-9.]", "", p)) or UNIT.match(re.sub(r"[0-9.]", "", r)):
        return None
    return f"model letters: '{r}' vs '{p}'"


def _variant_problem(n: _Names) -> str | None:
    skip = _NOT_VARIANT_FOR.get(n.kind, set())
    extra = [w for w in n.pw if w in VARIANT and w not in n.rset and w not in skip]
    if n.kind is Kind.GPU:
        extra = [w for w in extra if w not in set(words(str(n.part.get("chipset") or "")))]
    if extra:
        return f"premium variant: the part adds '{' '.join(sorted(set(extra)))}'"
    return None


def _derived(kind: Kind, r: str, part: dict[str, Any]) -> bool:
    """A bare number the importer itself adds to the part's tokens (capacity, wattage)."""
    n = float(r)
    if kind is Kind.STORAGE and part.get("capacity_gb"):
        return n in (part["capacity_gb"], part["capacity_gb"] / 1000)
    if kind is Kind.PSU:
        return n == part.get("wattage")
    if kind is Kind.MEMORY:
        return n in (part.get("capacity_gb"), part.get("module_gb"), part.get("speed_mts"), part.get("modules"))
    return False


def _ff(v: Any) -> str | None:
    s = str(v or "").lower().replace('"', "").replace(" ", "")
    if not s:
        return None
    if "msata" in s:
        return "msata"
    if "u.2" in s:
        return "u.2"
    m = re.search(r"m\.2-?(\d{4})", s)
    if m:
        return f"m.2-{m.group(1)}"
    if "pcie" in s or "card" in s:
        return "card"
    m = re.search(r"(2\.5|3\.5|1\.8)", s)
    return m.group(1) if m else s


def _iface(v: Any) -> str | None:
    s = str(v or "").lower()
    if not s:
        return None
    if "sata" in s and "m.2" not in s:
        return "sata"
    if "m.2" in s and "sata" in s:
        return "m.2 sata"
    if "u.2" in s:
        return "u.2"
    if "sas" in s:
        return "sas"
    if "m.2" in s or "pcie" in s:
        return "pcie"
    return s


def _storage_problem(row: dict[str, Any], part: dict[str, Any]) -> str | None:
    rf, pf = _ff(row.get("form_factor")), _ff(part.get("form_factor"))
    if rf and pf and rf != pf:
        return f"form factor: {row.get('form_factor')} vs {part.get('form_factor')}"
    ri, pi = _iface(row.get("interface")), _iface(part.get("interface"))
    if ri and pi and ri != pi:
        return f"interface: {row.get('interface')} vs {part.get('interface')}"
    return None
