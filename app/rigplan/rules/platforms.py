"""Platform facts from parts/platforms.yaml: canonical sockets, cooler mounts, board and PSU form factors.

Spellings are compared without spaces, hyphens or case ("LGA 1700" == "LGA1700", "TR4" -> "sTR4"), and dual-socket
boards ("2 x LGA 2011") map to their socket. The file is read once, on first use (no import reads files).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from rigplan.paths import parts_dir


@lru_cache(maxsize=4096)
def key(s: str) -> str:
    return re.sub(r"[\s\-_]", "", s).upper()


_MULTI = re.compile(r"^\s*(\d+)\s*x\s*(.+)$", re.I)


@dataclass(frozen=True)
class Socket:
    name: str
    vendor: str
    mount: str | None
    memory: str | None  # "UDIMM", "RDIMM" or None when boards differ
    hedt: bool
    soldered: bool
    cooler_only: bool
    # A board-side variant of a CPU socket (a narrow-ILM LGA 2011-3 board takes LGA 2011-3 CPUs): the CPU socket;
    # None: the socket is its own.
    cpu_socket: str | None = None


@dataclass(frozen=True)
class FormFactor:
    name: str
    fits: frozenset[str]  # canonical case form factors that take this board (its own included)
    note: str | None
    source: str


@dataclass(frozen=True)
class PsuFormFactor:
    name: str
    fits: frozenset[str]
    with_bracket: frozenset[str]
    maybe: frozenset[str]
    source: str


@dataclass
class Platforms:
    sockets: dict[str, Socket] = field(default_factory=dict)  # by key() of every spelling
    mounts: dict[str, tuple[str, str]] = field(default_factory=dict)  # id -> (label, source)
    unknown: dict[str, str] = field(default_factory=dict)  # key() -> why it is ignored
    board_ff: dict[str, FormFactor] = field(default_factory=dict)  # by key() of every spelling
    psu_ff: dict[str, PsuFormFactor] = field(default_factory=dict)
    _memo: dict[str, Socket | None] = field(default_factory=dict, repr=False)
    # Keys of spellings already normalised (socket_key, ff_key) and board-in-case answers (board_fits): the rules
    # ask for the same few hundred spellings tens of thousands of times per suggestion.
    _keys: dict[tuple[str, str], str] = field(default_factory=dict, repr=False)
    _fits: dict[tuple[str, tuple[str, ...]], bool] = field(default_factory=dict, repr=False)
    # socket -> (chipsets known for it, {microarchitecture: (ok chipsets, bios chipsets)}, source)
    chipsets: dict[str, tuple[frozenset[str], dict[str, tuple[frozenset[str], frozenset[str]]], str]] = field(
        default_factory=dict
    )

    # socket -> [(CPU-name pattern, its generation key)]: product lines that share a microarchitecture but not a
    # chipset list (Threadripper PRO 7000 WX and Threadripper 7000 are both Zen 4 on sTR5; WRX90 takes only PRO).
    lines: dict[str, list[tuple[re.Pattern[str], str]]] = field(default_factory=dict)

    def cpu_line(self, socket: str | None, cpu_name: str | None) -> str | None:
        """The product line of the socket's chipset table that `cpu_name` belongs to, or None."""
        for rx, line in self.lines.get(self.canonical_socket(socket) or "", ()):
            if cpu_name and rx.search(cpu_name):
                return line
        return None

    def chipset_support(
        self, socket: str | None, microarch: str | None, chipset: str | None, cpu_name: str | None = None
    ) -> str | None:
        """'ok', 'bios' (after a BIOS update), 'no', or None when the table does not cover the pair. A product line
        matched by the CPU's name comes before its microarchitecture."""
        name = self.canonical_socket(socket)
        table = self.chipsets.get(name or "")
        line = self.cpu_line(socket, cpu_name)
        if table is None or not (microarch or line) or not chipset:
            return None
        known, gens, _ = table
        chip = chipset_name(chipset)
        gen = gens.get(line) if line else gens.get((microarch or "").strip())
        if gen is None or chip not in known:
            return None
        ok, bios = gen
        return "ok" if chip in ok else "bios" if chip in bios else "no"

    def chipset_source(self, socket: str | None) -> str:
        table = self.chipsets.get(self.canonical_socket(socket) or "")
        return table[2] if table else ""

    def socket(self, spelling: str | None) -> Socket | None:
        if not spelling:
            return None
        try:
            return self._memo[spelling]
        except KeyError:
            m = _MULTI.match(spelling)
            found = self._memo[spelling] = self.sockets.get(key(m.group(2) if m else spelling))
            return found

    def canonical_socket(self, spelling: str | None) -> str | None:
        """Canonical name; an unrecognised spelling stays as written (compared literally), None stays None."""
        if not spelling:
            return None
        s = self.socket(spelling)
        return s.name if s else spelling.strip()

    def mount(self, spelling: str) -> str | None:
        s = self.socket(spelling)
        return s.mount if s else None

    def board_form_factor(self, spelling: str | None) -> FormFactor | None:
        return self.board_ff.get(key(spelling)) if spelling else None

    def canonical_ff(self, spelling: str) -> str:
        ff = self.board_form_factor(spelling)
        return ff.name if ff else spelling.strip()

    def socket_key(self, spelling: str) -> str:
        """The canonical socket of `spelling` as a key (context.norm_socket), remembered."""
        k = ("socket", spelling)
        found = self._keys.get(k)
        if found is None:
            found = self._keys[k] = key(self.canonical_socket(spelling) or spelling)
        return found

    def ff_key(self, spelling: str) -> str:
        """The canonical board form factor of `spelling` as a key (context.norm_ff), remembered."""
        k = ("ff", spelling)
        found = self._keys.get(k)
        if found is None:
            found = self._keys[k] = key(self.canonical_ff(spelling))
        return found

    def board_fits(self, board_ff: str, case_ffs: tuple[str, ...]) -> bool:
        """A board of this form factor fits a case listing these (context.board_fits_case), remembered."""
        k = (board_ff, case_ffs)
        found = self._fits.get(k)
        if found is None:
            ff = self.board_form_factor(board_ff)
            listed = {self.ff_key(a) for a in case_ffs}
            fits = self.ff_key(board_ff) in listed if ff is None else any(key(f) in listed for f in ff.fits)
            found = self._fits[k] = fits
        return found

    def psu_form_factor(self, spelling: str | None) -> PsuFormFactor | None:
        return self.psu_ff.get(key(spelling)) if spelling else None


def chipset_name(chipset: str) -> str:
    """'Intel Z390' -> 'Z390', 'AMD B650E' -> 'B650E'."""
    return re.sub(r"^(Intel|AMD)\s+", "", chipset.strip(), flags=re.I).upper()


def _load(path: Path) -> Platforms:
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    doc: dict[str, Any] = yaml.load(path.read_text("utf-8"), Loader=loader)  # noqa: S506 - a safe loader
    p = Platforms()
    for mid, m in doc["mounts"].items():
        p.mounts[mid] = (m["label"], " ".join(m["source"].split()))
    for name, s in doc["sockets"].items():
        sock = Socket(
            name=name,
            vendor=s.get("vendor", ""),
            mount=s.get("mount"),
            memory=s.get("memory"),
            hedt=bool(s.get("hedt")),
            soldered=bool(s.get("soldered")),
            cooler_only=bool(s.get("cooler_only")),
            cpu_socket=s.get("cpu_socket"),
        )
        for spelling in (name, *s.get("aliases", ())):
            p.sockets[key(spelling)] = sock
    p.unknown = {key(k): v for k, v in (doc.get("unknown_spellings") or {}).items()}
    names: dict[str, str] = {}
    for name, f in doc["form_factors"].items():
        for spelling in (name, *f.get("aliases", ())):
            names[key(spelling)] = name
    for name, f in doc["form_factors"].items():
        fits = frozenset({name, *(names.get(key(x), x) for x in f.get("fits_cases_for", ()))})
        ff = FormFactor(name, fits, f.get("note"), " ".join(f["source"].split()))
        for spelling in (name, *f.get("aliases", ())):
            p.board_ff[key(spelling)] = ff
    for name, f in doc["psu_form_factors"].items():
        pf = PsuFormFactor(
            name,
            frozenset(f.get("fits", ())),
            frozenset(f.get("with_bracket", ())),
            frozenset(f.get("maybe", ())),
            " ".join(f["source"].split()),
        )
        for spelling in (name, *f.get("aliases", ())):
            p.psu_ff[key(spelling)] = pf
    for sock, entry in (doc.get("chipsets") or {}).items():
        gens: dict[str, tuple[frozenset[str], frozenset[str]]] = {}
        known: set[str] = set()
        for g in entry["generations"]:
            ok = frozenset(chipset_name(c) for c in g.get("ok", ()))
            bios = frozenset(chipset_name(c) for c in g.get("bios", ()))
            known |= ok | bios
            for arch in g.get("cpus", ()):
                gens[arch] = (ok, bios)
            if g.get("line"):  # a product line, matched on the CPU's name
                p.lines.setdefault(sock, []).append((re.compile(g["match"], re.I), g["line"]))
                gens[g["line"]] = (ok, bios)
        p.chipsets[sock] = (frozenset(known), gens, " ".join(entry["source"].split()))
    return p


@lru_cache(maxsize=4)
def _cached(override: str | None) -> Platforms:
    return _load(parts_dir() / "platforms.yaml")


# The table of one check() (or one mask) while it runs: the rules ask for it ~35 times per check, and each
# os.environ read costs ~5 us, about a tenth of a check. A context variable, so a check in a worker thread and one
# in the GUI thread each keep their own; outside `one_table()` every call reads the environment as before.
_PINNED: ContextVar[Platforms | None] = ContextVar("rigplan_platforms", default=None)


def platforms() -> Platforms:
    """The platform table of the parts folder in use (RIGPLAN_PARTS_DIR or the bundled one), read once."""
    pinned = _PINNED.get()
    return pinned if pinned is not None else _cached(os.environ.get("RIGPLAN_PARTS_DIR"))


@contextmanager
def one_table() -> Iterator[Platforms]:
    """platforms() answers the same table, without reading the environment, until the block ends."""
    table = platforms()
    token = _PINNED.set(table)
    try:
        yield table
    finally:
        _PINNED.reset(token)
