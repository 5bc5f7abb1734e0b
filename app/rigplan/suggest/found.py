"""What the search finds: a GPU option, a complete build, and the order in which the rest of a build is completed.
Its own module so the search's helpers (bounds, pruning) can name them without importing the search."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from rigplan.model.assumptions import Assumptions
from rigplan.model.build import Build, BuildItem
from rigplan.model.common import Price
from rigplan.model.parts import Gpu, Kind, Part
from rigplan.rules.platforms import platforms
from rigplan.suggest.breakeven import Score

# Completion order: the board first (it fixes socket, memory type and form factor), then what it constrains most.
ORDER = (Kind.MOTHERBOARD, Kind.PSU, Kind.CPU, Kind.MEMORY, Kind.CASE, Kind.STORAGE, Kind.COOLER)


# Sockets of the platforms an expert builds a deep-learning box on today, with their launch (makers' announcements):
# AMD AM5 (Ryzen 7000, 2022-09), sTR5 (Threadripper 7000: TRX50 and WRX90, 2023-11), sWRX8 (Threadripper PRO
# 5000WX, WRX80, 2022-03), SP5 (EPYC 9004, 2022-11); Intel LGA 1700 (Core 12th-14th gen, 2021-11), LGA 1851 (Core
# Ultra 200S, 2024-10), LGA 4677 (Xeon W-2400/3400 on W790, 2023-02). Every other socket of the catalog (AM4, sTRX4 /
# TRX40, LGA 2011-3 / X99, LGA 2066 / X299 and older) is an older platform: at a budget of CURRENT_FROM_USD or more
# it is only named as the cheaper alternative, with its saving (docs/suggest.md).
# The one definition: socket (as platforms() names it, spaces and dashes dropped, upper case) -> how an answer names
# the platform.
CURRENT_PLATFORMS = {
    "AM5": "AM5",
    "LGA1700": "LGA 1700",
    "LGA1851": "LGA 1851",
    "STR5": "Threadripper 7000 / 9000 (sTR5)",
    "SWRX8": "Threadripper PRO 5000WX (sWRX8)",
    "LGA4677": "Xeon W-2400/3400 (LGA 4677)",
    "SP5": "EPYC 9004 (SP5)",
}
CURRENT_SOCKETS = frozenset(CURRENT_PLATFORMS)
# The current platforms an expert sells for 3+ GPUs (Puget: Threadripper PRO or Xeon W; EPYC): the desktop ones give
# 16 to 20 graphics lanes, too few for three GPUs at x8 (opendb/platform_report.py counts what each one lacks).
WORKSTATION_SOCKETS = ("STR5", "SWRX8", "LGA4677", "SP5")
CURRENT_FROM_USD = 5000.0


def current_names() -> str:
    """The current platforms as an answer lists them ("AM5, LGA 1700, ...")."""
    return ", ".join(CURRENT_PLATFORMS.values())


def platform_key(socket: str | None) -> str:
    """A socket as the catalog spells it, as CURRENT_PLATFORMS keys it ("sTR5" -> "STR5", "LGA 1700" -> "LGA1700")."""
    sock = platforms().socket(socket)
    name = sock.name if sock else (socket or "")
    return name.replace(" ", "").replace("-", "").upper()


def is_current(socket: str | None) -> bool:
    """A board or CPU socket of a current platform (CURRENT_SOCKETS); unknown: no."""
    return platform_key(socket) in CURRENT_SOCKETS


def vendor_of(socket: str | None) -> str:
    """The CPU platform's maker ("AMD", "Intel") of a socket as the catalog spells it; "" when unknown."""
    sock = platforms().socket(socket)
    return sock.vendor if sock else ""


@dataclass(frozen=True)
class GpuOption:
    row: int
    part: Gpu
    count: int
    unit_usd: float
    throughput: float  # V100-equivalents of `count` cards (rigplan.costs.perf.scaled)
    vram_gb: float  # in total
    signature: str

    @property
    def cost_usd(self) -> float:
        return self.unit_usd * self.count


@dataclass(frozen=True)
class Found:
    """A complete build that passes check() with no errors."""

    option: GpuOption
    parts: tuple[tuple[Part, float], ...]  # the other parts with their USD prices, in ORDER
    total_usd: float
    score: Score | None = None  # goal BREAKEVEN: the break-even day against the offer
    own: Mapping[str, Price] = field(default_factory=dict)  # the user's prices used, by part id

    def build(self, a: Assumptions, name: str = "Suggested build") -> Build:
        """The build, with the user's own prices (when used) as its own prices."""
        items = [BuildItem(part=p, price_override=self.own.get(p.id)) for p, _ in self.parts]
        gpu = self.option.part
        items.insert(1, BuildItem(part=gpu, quantity=self.option.count, price_override=self.own.get(gpu.id)))
        return Build(name=name, items=tuple(items), assumptions=a)

    @property
    def vendor(self) -> str:
        """The CPU platform's maker ("AMD", "Intel"), from the board's socket; "" when unknown."""
        board = self.parts[0][0] if self.parts else None
        return vendor_of(getattr(board, "socket", None))


class Cancelled(Exception):
    """The user stopped the search."""


@dataclass
class Stats:
    completions: int = 0  # branch-and-bound runs (memoised ones not counted)
    nodes: int = 0
    unpriced: dict[str, int] = field(default_factory=dict)  # per kind: parts skipped for having no price
    unknown_speed: int = 0  # priced GPUs skipped: no speed figure (never taken as speed 1)
    unknown_vram: int = 0
    too_small_for_fit: int = 0  # GPU options whose memory per GPU is below the workload's need (or unknown)
    tight_for_fit: int = 0  # GPU options the workload fits only above the expert's share (expert.FULL_SHARE)
    missing_data_gpus: int = 0  # GPUs left out because a rule that reads the card alone is not checked (gpu-radiator)
    rejected: int = 0  # complete builds check() passed that the strict verdicts turned down (a leaf test)
    open_air_stacks: int = 0  # options of 3+ open-air cards (or of unknown cooling) left out: gpu-spacing
    depth: dict[int, int] = field(default_factory=dict)
