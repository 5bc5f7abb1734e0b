"""The view of a build that rules read, and the name normalisation they share with the vectorised filter."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TypeVar

from rigplan.model.assumptions import Assumptions
from rigplan.model.build import Build, BuildItem
from rigplan.model.parts import Case, Cooler, Cpu, Gpu, Kind, Memory, Motherboard, Part, PcieSlot, Psu, Storage
from rigplan.rules.blowers import blower_line, liquid_by_name, single_or_unknown_fan
from rigplan.rules.findings import Finding, NotChecked, Report, Severity
from rigplan.rules.platforms import key, platforms
from rigplan.rules.power import PowerEstimate, estimate_power

P = TypeVar("P")


def norm_socket(s: str) -> str:
    """Canonical socket, compared as a key: 'LGA 1700' == 'LGA1700'; 'TR4' == 'sTR4' (parts/platforms.yaml)."""
    return platforms().socket_key(s)


def cpu_fit_key(s: str) -> str:
    """The CPU socket a board socket takes, as a key: a narrow-ILM 'LGA 2011-3 Narrow' board takes LGA 2011-3 CPUs
    (parts/platforms.yaml `cpu_socket`); only the cooler mount differs."""
    sock = platforms().socket(s)
    return key(sock.cpu_socket) if sock is not None and sock.cpu_socket else norm_socket(s)


def norm_ff(s: str) -> str:
    """Canonical motherboard form factor as a key: 'E-ATX' == 'EATX', 'Micro-ATX' == 'Micro ATX'."""
    return platforms().ff_key(s)


def board_fits_case(board_ff: str, case_ffs: tuple[str, ...] | list[str]) -> bool:
    """A board fits a case that lists its form factor or a larger standard that keeps its holes (platforms.yaml)."""
    return platforms().board_fits(board_ff, tuple(case_ffs))


def socket_memory(socket: str | None) -> str | None:
    """'UDIMM' or 'RDIMM': the DIMMs a platform takes, from AMD's and Intel's specs; None when unknown."""
    s = platforms().socket(socket)
    return s.memory if s else None


def dimm_form(value: str | None) -> str | None:
    """'288-pin DIMM' / 'UDIMM' -> 'DIMM'; '262-pin SO-DIMM' -> 'SO-DIMM'; anything else unknown."""
    if not value:
        return None
    v = value.upper().replace("SODIMM", "SO-DIMM")
    if "SO-DIMM" in v:
        return "SO-DIMM"
    return "DIMM" if "DIMM" in v else None


def gpu_cables(gpu: Gpu) -> tuple[int, int] | None:
    """(16-pin cables, 6+2-pin cables) one card needs, or None when its connectors are unknown."""
    if gpu.power_connectors is None:
        return None
    pc = gpu.power_connectors
    return pc.pin16, pc.pin8 + pc.pin6


def eps_fed(gpu: Part) -> bool:
    """A card with an 8-pin EPS power socket (RTX A6000, A40, A100 PCIe): gpu-eps-power concerns only those."""
    pc = getattr(gpu, "power_connectors", None)
    return bool(pc and pc.eps8)


def gpu_slots(gpu: Gpu) -> int | None:
    return math.ceil(gpu.slot_width - 0.05) if gpu.slot_width else None


def slot_size(s: PcieSlot) -> int:
    """The slot's physical size in lanes: stated, else its electrical lanes (a x16-wired slot is x16-size)."""
    return s.physical or s.lanes


def x16_size_slots(board: Motherboard) -> list[PcieSlot] | None:
    """The board's x16-size slots, one entry per slot, the best-wired first; None when its slots are unknown."""
    if board.pcie_slots is None:
        return None
    slots = [s for s in board.pcie_slots for _ in range(s.count) if slot_size(s) >= 16]
    return sorted(slots, key=lambda s: -s.lanes)


OPEN_AIR_EXCLUDED = ("blower", "water", "hybrid", "passive")


def open_air(gpu: Gpu) -> bool | None:
    """True: an axial-fan card that blows into the case; False: blower, liquid or passive; None: unknown.
    A listing of one fan or none is read by its product line first (rules/blowers.py): OpenDB records most blower
    cards (Gigabyte and ASUS TURBO, GTX 10 Founders Edition, workstation cards) as "1 Fan"."""
    if single_or_unknown_fan(gpu.cooling) and (
        liquid_by_name(gpu.name) or blower_line(gpu.manufacturer, gpu.chipset, gpu.name) is not None
    ):
        return False
    if gpu.cooling is None:
        return None
    cooling = gpu.cooling.lower()
    return not any(w in cooling for w in OPEN_AIR_EXCLUDED)


@dataclass
class Ctx:
    build: Build
    report: Report = field(default_factory=Report)

    def __post_init__(self) -> None:
        b = self.build
        self.cpu = _one(b, Kind.CPU, Cpu)
        self.cooler = _one(b, Kind.COOLER, Cooler)
        self.board = _one(b, Kind.MOTHERBOARD, Motherboard)
        self.psu = _one(b, Kind.PSU, Psu)
        self.case = _one(b, Kind.CASE, Case)
        self.memory: list[tuple[Memory, int]] = [(i.part, i.quantity) for i in b.items if isinstance(i.part, Memory)]
        self.storage: list[tuple[Storage, int]] = [(i.part, i.quantity) for i in b.items if isinstance(i.part, Storage)]
        self.gpu_items: list[BuildItem] = b.of_kind(Kind.GPU)
        self.gpus: list[Gpu] = [i.part for i in self.gpu_items for _ in range(i.quantity) if isinstance(i.part, Gpu)]

    @cached_property
    def power(self) -> PowerEstimate:
        return estimate_power(self.build)

    def plus(self, part: Part, single: bool) -> Ctx:
        """This build with one more part (a new line of quantity 1), without copying the build until a rule asks
        for it (the power estimate, the PSU count): the filter judges thousands of candidates this way."""
        c = _Plus.__new__(_Plus)
        c.__dict__.update(self.__dict__)
        del c.__dict__["build"]
        c.__dict__.pop("power", None)
        c.base, c.part, c.single, c.report = self.build, part, single, Report()
        if isinstance(part, Cpu):
            c.cpu = part
        elif isinstance(part, Cooler):
            c.cooler = part
        elif isinstance(part, Motherboard):
            c.board = part
        elif isinstance(part, Psu):
            c.psu = part
        elif isinstance(part, Case):
            c.case = part
        elif isinstance(part, Memory):
            c.memory = [*self.memory, (part, 1)]
        elif isinstance(part, Storage):
            c.storage = [*self.storage, (part, 1)]
        elif isinstance(part, Gpu):
            c.gpu_items = [*self.gpu_items, BuildItem.model_construct(part=part, quantity=1, price_override=None)]
            c.gpus = [*self.gpus, part]
        return c

    @property
    def assumptions(self) -> Assumptions:
        return self.build.assumptions

    def add(
        self,
        severity: Severity,
        rule: str,
        message: str,
        hint: str,
        parts: Sequence[object],
        kinds: tuple[Kind, ...],
    ) -> None:
        ids = tuple(dict.fromkeys(p.id for p in parts if p is not None))  # type: ignore[attr-defined]
        self.report.findings.append(Finding(severity, rule, message, hint, ids, kinds))

    def error(self, rule: str, message: str, hint: str, parts: Sequence[object], kinds: tuple[Kind, ...]) -> None:
        self.add(Severity.ERROR, rule, message, hint, parts, kinds)

    def warn(self, rule: str, message: str, hint: str, parts: Sequence[object], kinds: tuple[Kind, ...]) -> None:
        self.add(Severity.WARNING, rule, message, hint, parts, kinds)

    def note(self, rule: str, message: str, hint: str, parts: Sequence[object], kinds: tuple[Kind, ...]) -> None:
        self.add(Severity.NOTE, rule, message, hint, parts, kinds)

    def unchecked(self, rule: str, reason: str, kinds: tuple[Kind, ...]) -> None:
        self.report.not_checked.append(NotChecked(rule, reason, kinds))


class _Plus(Ctx):
    """Ctx.plus: `build` is made on first use (the base build with the part appended, or in place of its kind)."""

    base: Build
    part: Part
    single: bool

    @property
    def build(self) -> Build:  # type: ignore[override]
        made = self.__dict__.get("_build")
        if made is None:
            items = tuple(i for i in self.base.items if not (self.single and i.part.kind == self.part.kind))
            made = self.__dict__["_build"] = self.base.model_copy(
                update={"items": (*items, BuildItem.model_construct(part=self.part, quantity=1, price_override=None))}
            )
        return made


def _one(build: Build, kind: Kind, cls: type[P]) -> P | None:
    part = build.first(kind)
    return part if isinstance(part, cls) else None


def mm(v: float) -> str:
    return f"{v:g} mm"
