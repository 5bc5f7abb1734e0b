"""Find the catalog part a shop or PCPartPicker listing names, with a score the user can judge.

Exact (normalised) names first. Otherwise every part of the kind that shares a model token with the listing is
scored on its name tokens (tokens with digits, such as "7950x" or "rm1000x", weigh three times a word; colours
little, since a listing often leaves the colour out), and the specs the listing's name states (capacity, module
layout, DDR generation and speed, CAS latency, wattage, VRAM, GPU chipset, socket) must agree with the part's:
one disagreement rules the part out, because "32 GB (2 x 16 GB)" and "64 GB (2 x 32 GB)" are different products
however alike their names.

A match is "sure" only with a high score and a clear lead over the next candidate; close calls are "uncertain" and
go to the user with the candidates and their scores. Nothing here guesses: an uncertain listing never silently
becomes a part.
"""

from __future__ import annotations

import math
import re
import weakref
from dataclasses import dataclass
from typing import Any

from rigplan.catalog.loader import Catalog, KindTable
from rigplan.kinds import Kind

SURE_SCORE = 0.8  # below this a match is shown for review
SURE_LEAD = 0.1  # ... and so is one whose runner-up is this close
MIN_SCORE = 0.4  # below this a candidate is not worth showing
MAX_CANDIDATES = 5

_TOKEN = re.compile(r"[a-z0-9]+")
# Words PCPartPicker appends to say what kind of part it is, and spec words stated separately below.
_GENERIC = frozenset(
    re.findall(
        r"\S+",
        """processor core memory video card solid state drive internal hard power supply case cpu cooler motherboard
        certified fully semi non modular ghz mhz cfm rpm mm the with w and gb tb nvme pcie x4 x8 x16 sata ssd hdd gen
        tower mid full mini micro atx itx eatx e ssi ceb fan liquid air 80 plus bronze silver gold platinum titanium
        ddr4 ddr5 ddr3 cl dimm desktop edition graphics""",
    )
)
_COLOURS = frozenset(
    re.findall(
        r"\S+", "black white silver gray grey red blue green pink purple gold brown yellow orange beige rgb argb"
    )
)
_SPEC_TEXT = [
    re.compile(r"\(\s*\d+\s*x\s*\d+(?:\.\d+)?\s*gb\s*\)", re.IGNORECASE),  # before "32GB" alone
    re.compile(r"\d+(?:\.\d+)?\s*(?:gb|tb)\b", re.IGNORECASE),
    re.compile(r"ddr\d-\d+", re.IGNORECASE),
    re.compile(r"\bcl\s?\d+\b", re.IGNORECASE),
    re.compile(r"\b\d+(?:\.\d+)?\s*(?:w|ghz|mhz|cfm|rpm|mm)\b", re.IGNORECASE),
    re.compile(r"\b\d+-core\b", re.IGNORECASE),
    re.compile(r"\bm\.2(?:-\d+)?\b", re.IGNORECASE),
    re.compile(r"\bsata\s*\d(?:\.\d)?\s*gb/s\b", re.IGNORECASE),
    re.compile(r"\d(?:\.\d)?\"", re.IGNORECASE),
    re.compile(r"\bpcie\s*\d\.\d\s*x\d+\b", re.IGNORECASE),
    re.compile(r"\b80\+", re.IGNORECASE),
]
# One pass instead of one per pattern (the index runs this over 26,000 names); the order of the alternatives keeps
# "(2 x 32 GB)" ahead of "32 GB".
_SPEC_ONE = re.compile("|".join(f"(?:{p.pattern})" for p in _SPEC_TEXT))  # run on lower-cased text


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.lower().replace("+", " plus "))


def norm(text: str) -> str:
    return " ".join(tokens(text))


def name_tokens(text: str) -> frozenset[str]:
    """The words that name the product, with the spec phrases and the part-type words taken out."""
    text = _SPEC_ONE.sub(" ", text.lower())
    toks = tokens(text)
    # A number after a word is part of the model name ("Meshify 2", "Dark Power 13"): the pair is its own token,
    # so "Meshify 2 XL" is not read as "Meshify 3 XL" with one digit wrong.
    pairs = [f"{a}{b}" for a, b in zip(toks, toks[1:], strict=False) if b.isdigit() and a.isalpha() and len(a) > 2]
    return frozenset(t for t in toks if t not in _GENERIC) | frozenset(pairs)


def _weight(tok: str, idf: dict[str, float]) -> float:
    """Rare tokens ("creator", "7950x") say more than common ones ("asus", "x670e"); colours say little."""
    if tok in _COLOURS:
        return 0.3
    return idf.get(tok, idf.get("", 1.0))


def stated_specs(kind: Kind, name: str) -> dict[str, Any]:
    """Specs a listing's name states, as catalog fields ("64 GB (2 x 32 GB) DDR5-6000 CL30" -> five fields)."""
    low = name.lower()
    out: dict[str, Any] = {}
    if kind is Kind.MEMORY:
        if m := re.search(r"(\d+(?:\.\d+)?)\s*gb\s*\(\s*(\d+)\s*x\s*(\d+(?:\.\d+)?)\s*gb\s*\)", low):
            out.update(capacity_gb=float(m.group(1)), modules=int(m.group(2)), module_gb=float(m.group(3)))
        if m := re.search(r"ddr(\d)-(\d+)", low):
            out.update(ram_type=f"DDR{m.group(1)}", speed_mts=int(m.group(2)))
        if m := re.search(r"\bcl\s?(\d+)\b", low):
            out["cas_latency"] = float(m.group(1))
    elif kind is Kind.STORAGE:
        if m := re.search(r"(\d+(?:\.\d+)?)\s*(tb|gb)\b", low):
            out["capacity_gb"] = float(m.group(1)) * (1000 if m.group(2) == "tb" else 1)
    elif kind is Kind.PSU:
        if m := re.search(r"\b(\d{3,4})\s*w\b", low):
            out["wattage"] = int(m.group(1))
    elif kind is Kind.GPU:
        if m := re.search(r"\b(\d+)\s*gb\b", low):
            out["vram_gb"] = float(m.group(1))
    elif kind is Kind.CASE:
        if m := re.search(r"\b((?:e-?atx|atx|micro ?atx|mini ?itx)\s+(?:full|mid|mini|super)\s+tower)\b", low):
            out["form_factor"] = m.group(1)
    elif kind is Kind.MOTHERBOARD and (m := re.search(r"\b(am[3-5]|lga\s?\d{4}|str5|swrx8|strx4|tr4)\b", low)):
        out["socket"] = m.group(1).replace(" ", "")
    return out


def _agrees(field: str, stated: Any, value: Any) -> bool:
    if value is None:
        return True  # the catalog does not know: no disagreement (and no credit)
    if field == "form_factor":
        return norm(str(value)) == norm(stated)
    if field == "socket":
        return str(value).lower().replace(" ", "") == stated
    if isinstance(stated, float):
        return abs(float(value) - stated) < 1e-6 * max(1.0, stated) or (
            field == "capacity_gb" and abs(float(value) - stated) / stated < 0.03  # 1.92 TB vs 1920 GB
        )
    return value == stated


@dataclass(frozen=True)
class Candidate:
    part_id: str
    name: str
    score: float  # 0..1


@dataclass(frozen=True)
class MatchResult:
    status: str  # "exact", "sure", "uncertain" or "none"
    candidates: tuple[Candidate, ...] = ()

    @property
    def best(self) -> Candidate | None:
        return self.candidates[0] if self.candidates else None

    @property
    def confident(self) -> bool:
        return self.status in ("exact", "sure")


class _KindIndex:
    def __init__(self, table: KindTable) -> None:
        self.table = table
        names, makers = table.column("name"), table.column("manufacturer")
        self.exact: dict[str, list[int]] = {}
        self.toks: list[frozenset[str]] = []
        self.by_token: dict[str, list[int]] = {}
        for i, (name, maker) in enumerate(zip(names, makers, strict=True)):
            full = norm(name)
            self.exact.setdefault(full, []).append(i)
            if maker and not full.startswith(norm(maker)):
                self.exact.setdefault(f"{norm(maker)} {full}", []).append(i)
            t = name_tokens(f"{maker or ''} {name}")
            self.toks.append(t)
            for tok in t:
                self.by_token.setdefault(tok, []).append(i)
        # GPU chipsets, to tell "RTX 4070 SUPER" from "RTX 4070" (the shorter one's tokens are in the longer's).
        self.chipsets = {c: frozenset(name_tokens(c)) for c in set(table.column("chipset")) if c}
        n = len(names) or 1
        # Inverse document frequency within the kind; a token no part has weighs as the rarest would.
        self.idf = {tok: 1.0 + math.log(n / len(rows)) for tok, rows in self.by_token.items()}
        self.idf[""] = 1.0 + math.log(n)


class Matcher:
    """Matches listing names to one catalog. Indexes are built per kind on first use (a few hundred ms)."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self._idx: dict[Kind, _KindIndex] = {}

    def _index(self, kind: Kind) -> _KindIndex:
        if kind not in self._idx:
            self._idx[kind] = _KindIndex(self.catalog.table(kind))
        return self._idx[kind]

    def match(self, kind: Kind, listing: str) -> MatchResult:
        idx = self._index(kind)
        table = idx.table
        specs = stated_specs(kind, listing)
        chips = self._listing_chipsets(idx, listing) if kind is Kind.GPU else None
        exact = [i for i in idx.exact.get(norm(listing), []) if self._specs_ok(table, i, kind, specs, chips)]
        if len(exact) == 1:
            i = exact[0]
            return MatchResult("exact", (Candidate(table.ids[i], table.column("name")[i], 1.0),))
        want = name_tokens(listing)
        if not want:
            return MatchResult("none")
        # Candidates share at least one of the listing's rarer tokens (a model token, not just the maker's name).
        known = sorted((t for t in want if t in idx.by_token), key=lambda t: len(idx.by_token[t]))
        pool = {i for t in known[:3] for i in idx.by_token[t]}
        scored = []
        idf = idx.idf
        w_want = sum(_weight(t, idf) for t in want)
        for i in pool:
            if not self._specs_ok(table, i, kind, specs, chips):
                continue
            have = idx.toks[i]
            common = want & have
            w_common = sum(_weight(t, idf) for t in common)
            recall = w_common / w_want
            precision = w_common / (sum(_weight(t, idf) for t in have) or 1.0)
            score = round(0.6 * recall + 0.4 * precision, 3)
            if score >= MIN_SCORE:
                scored.append((score, table.column("name")[i], i))
        scored.sort(key=lambda s: (-s[0], s[1]))
        cands = tuple(Candidate(table.ids[i], name, score) for score, name, i in scored[:MAX_CANDIDATES])
        if not cands:
            return MatchResult("none")
        lead = cands[0].score - (cands[1].score if len(cands) > 1 else 0.0)
        sure = cands[0].score >= SURE_SCORE and lead >= SURE_LEAD and not self._colour_twin(idx, scored, want)
        return MatchResult("sure" if sure else "uncertain", cands)

    @staticmethod
    def _colour_twin(idx: _KindIndex, scored: list[tuple[float, str, int]], want: frozenset[str]) -> bool:
        """Two catalog parts that differ only in colour are two parts; a listing that names no colour cannot
        choose between them, however the scores fall."""
        if want & _COLOURS or len(scored) < 2:
            return False
        best = idx.toks[scored[0][2]] - _COLOURS
        return any(idx.toks[i] - _COLOURS == best for _, _, i in scored[1:])

    def _specs_ok(self, table: KindTable, i: int, kind: Kind, specs: dict[str, Any], chips: set[str] | None) -> bool:
        for f, stated in specs.items():
            if not _agrees(f, stated, table.column(f)[i]):
                return False
        if kind is Kind.GPU and chips is not None:
            chip = table.column("chipset")[i]
            if chip and chip not in chips:
                return False
        return True

    def _listing_chipsets(self, idx: _KindIndex, listing: str) -> set[str]:
        """The most specific GPU chipsets the listing names: for "RTX 4070 SUPER" that is "RTX 4070 SUPER", not
        "RTX 4070" too; and "RTX 4090" never stands for an "RTX 4090 D"."""
        have = name_tokens(listing)
        named = {c: t for c, t in idx.chipsets.items() if t and t <= have}
        return {c for c, t in named.items() if not any(t < other for other in named.values())}


_MATCHERS: weakref.WeakKeyDictionary[Catalog, Matcher] = weakref.WeakKeyDictionary()


def matcher_for(catalog: Catalog) -> Matcher:
    """One matcher per loaded catalog: its indexes (about 1 s for all kinds) are built once, not per import."""
    m = _MATCHERS.get(catalog)
    if m is None:
        m = _MATCHERS[catalog] = Matcher(catalog)
    return m
