"""A buyer's spelling of a case size ("Mini-ITX", "ITX", "mini itx", "SFF", "mATX", "mid tower") read as the case
classes the catalog uses ("Mini ITX Tower", "Micro ATX Mini Tower", ...), or a one-line error that lists them.

Before, `--case Mini-ITX` matched no class exactly, every case was left out and the answer said "no priced board that
fits a Mini-ITX case has more than 0 x16-size slots". The classes are OpenDB's PCCase `type` values (docs/data.md).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from rigplan.suggest.question import SuggestError

# A board size as buyers write it -> the prefix of the catalog's classes of that size. "SFF" (small form factor) is
# read as Mini-ITX: the smallest class the catalog has towers of; the answer says how it was read.
SIZES = {
    "miniitx": "Mini ITX",
    "itx": "Mini ITX",
    "mitx": "Mini ITX",
    "sff": "Mini ITX",
    "smallformfactor": "Mini ITX",
    "microatx": "Micro ATX",
    "matx": "Micro ATX",
    "uatx": "Micro ATX",
    "atx": "ATX",
    "eatx": "EATX",
    "extendedatx": "EATX",
}
BENCH = "Test Bench"  # an open frame, not a box: a size word picks it only when asked by name


def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


@dataclass(frozen=True)
class CaseClasses:
    classes: tuple[str, ...]  # the catalog's classes, as it spells them
    how: str  # how the spelling was read ("" when it named one class exactly)


def case_classes(spelling: str, known: Iterable[str | None]) -> CaseClasses:
    """The catalog's case classes a buyer's spelling names: one class by its name in any case and punctuation
    ("atx mid-tower"), every class of a board size ("Mini-ITX", "ITX", "SFF", "mATX", "E-ATX"; the test benches
    only by name), or every class of a kind ("mid tower", "desktop"). SuggestError lists the accepted ones."""
    names = sorted({k for k in known if k})
    want = _norm(spelling)
    exact = tuple(k for k in names if _norm(k) == want)
    if exact:
        return CaseClasses(exact, "")
    size = SIZES.get(want)
    if size is not None:
        hits = tuple(k for k in names if k.startswith(size + " ") and not k.endswith(BENCH))
    else:
        hits = tuple(k for k in names if want and _norm(k).endswith(want))  # "mid tower", "full tower", "desktop"
    if hits:
        return CaseClasses(hits, f"case '{spelling}' read as the catalog's {', '.join(hits)}")
    raise SuggestError(
        f"unknown case class '{spelling}': the catalog's classes are {', '.join(names)}; a board size (Mini-ITX, "
        "ITX, SFF, Micro ATX, mATX, ATX, E-ATX) or a kind (Mid Tower, Full Tower, Desktop) picks every class of it"
    )
