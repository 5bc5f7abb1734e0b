"""Why the picker's list is empty when the search has words (issue 40: "0 of 3,835" with an empty list and no
reason, and Ctrl+F typed "4090" into the CPU list): the words match nothing here, or match parts that would all add
an error, or match parts of another kind, each said with a link that shows them."""

from __future__ import annotations

from html import escape

from rigplan.catalog import Catalog
from rigplan.gui.parts.slots import SLOT_ORDER
from rigplan.kinds import Kind


def matches(catalog: Catalog, kind: Kind, words: tuple[str, ...]) -> int:
    """How many parts of `kind` have every word in their name, maker or chipset (the picker's own text match)."""
    return sum(all(w in hay for w in words) for hay in catalog.table(kind).haystacks())


def plural(kind: Kind, n: int) -> str:
    label = " ".join(w if w.isupper() else w.lower() for w in kind.label.split())
    return label if n == 1 or label.endswith("memory") or label.endswith("storage") else label + "s"


def best_other(catalog: Catalog, kind: Kind, words: tuple[str, ...]) -> tuple[Kind, int] | None:
    """The other kind with the most parts matching the words, or None."""
    counts = [(matches(catalog, k, words), k) for k in SLOT_ORDER if k != kind]
    n, k = max(counts, key=lambda c: c[0])
    return (k, n) if n else None


def no_match_text(catalog: Catalog, kind: Kind, words: tuple[str, ...], compatible_only: bool) -> str:
    """Rich text for the hint under the search box; links are "kind:<value>" (show that kind, the search kept)."""
    said = escape(" ".join(words))
    here = matches(catalog, kind, words)
    if here and compatible_only:
        return (
            f"{here:,} {plural(kind, here)} match \u201c{said}\u201d but each would add an error to this build: "
            "untick \u201cCompatible only\u201d to see them."
        )
    other = best_other(catalog, kind, words)
    if other is not None:
        k, n = other
        return (
            f"No {plural(kind, 1)} matches \u201c{said}\u201d. <a href='kind:{k.value}'>Show the {n:,} "
            f"{plural(k, n)} that match</a> (or press Enter)."
        )
    return (
        f"Nothing in the catalog matches \u201c{said}\u201d: every word must appear in a part's name, maker or chipset."
    )
