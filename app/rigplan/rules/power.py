"""Power: what each part draws at load and idle, what the wall sees through the PSU, and the PSU to buy.

Every figure's basis is in docs/checks.md ("Power estimate"). All figures are estimates and are labelled so.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from rigplan.model.build import Build
from rigplan.model.other import PSU_FED
from rigplan.model.parts import Cooler, Cpu, Gpu, Kind, Memory, Motherboard, Part, Psu, Storage
from rigplan.rules.part_power import (
    CASE_FANS,
    VRM_LOSS,
    board_watts,
    cooler_watts,
    cpu_boost_w,
    cpu_watts,
    gpu_watts,
    memory_watts,
    storage_watts,
)

# 80 PLUS efficiency requirements, 115 V internal non-redundant PSUs, at 20 % / 50 % / 100 % of rated load
# (Titanium also 10 %). Source: 80 PLUS program (CLEAResult), "80 PLUS Certified Power Supplies and Manufacturers".
EIGHTY_PLUS: dict[str, dict[float, float]] = {
    "80+": {0.2: 0.80, 0.5: 0.80, 1.0: 0.80},
    "80+ Bronze": {0.2: 0.82, 0.5: 0.85, 1.0: 0.82},
    "80+ Silver": {0.2: 0.85, 0.5: 0.88, 1.0: 0.85},
    "80+ Gold": {0.2: 0.87, 0.5: 0.90, 1.0: 0.87},
    "80+ Platinum": {0.2: 0.90, 0.5: 0.92, 1.0: 0.89},
    "80+ Titanium": {0.1: 0.90, 0.2: 0.92, 0.5: 0.94, 1.0: 0.90},
}
# Below the lowest certified point efficiency falls; we take 5 points under it at 10 % load (typical of measured
# curves) and hold that value below 10 %. An unknown rating is treated as a plain, uncertified unit at 80 %.
LOW_LOAD_DROP = 0.05
UNKNOWN_EFFICIENCY = 0.80
# When no PSU is chosen, wall draw assumes an 80 PLUS Gold unit sized at the recommended rating.
DEFAULT_RATING = "80+ Gold"

# PSU ratings to recommend: every size at least 20 catalog models are sold in below 1500 W, and every size that
# exists from 1500 W up (few models each, and there a step matters: a 1,735 W need is an 1800 W unit, not 2000 W).
# tests/test_platforms.py holds this list to the catalog.
PSU_SIZES = (
    300, 350, 400, 450, 500, 550, 600, 650, 700, 750, 800, 850, 1000, 1050, 1200, 1250, 1300, 1500, 1550, 1600,
    1650, 1800, 2000, 2050, 2200, 2800,
)  # fmt: skip
RECOMMEND_MARGIN = 0.10  # Dettmers: sum of part powers + 10 %
# Millisecond GPU power excursions. ATX 3.x units are specified to carry 200 % of their rating for 100 us and 180 %
# for 1 ms (Intel ATX 3.0 design guide, section 3.2.11), which covers GPU spikes, so they get no extra margin. Older
# or unknown units get +25 % of GPU board power (NVIDIA's RTX 30-series spikes reached about 1.5-2x board power for
# under 1 ms in Igor's Lab measurements).
TRANSIENT_SHARE = 0.25


CONTINUOUS_SHARE = 0.8  # a breaker may carry 80 % of its rating continuously (US NEC 210.19/210.20)


def circuit_limit_w(volts: float, amps: float) -> float:
    return volts * amps * CONTINUOUS_SHARE


@lru_cache(maxsize=16)
def _curve(rating: str | None) -> tuple[np.ndarray, np.ndarray]:
    points = EIGHTY_PLUS.get(rating or "")
    if points is None:
        return np.array([0.0, 1.0]), np.array([UNKNOWN_EFFICIENCY, UNKNOWN_EFFICIENCY])
    xs = sorted(points)
    ys = [points[x] for x in xs]
    if xs[0] > 0.1:
        xs, ys = [0.1, *xs], [ys[0] - LOW_LOAD_DROP, *ys]
    return np.array(xs), np.array(ys)


def efficiency(load_fraction: float | np.ndarray, rating: str | None) -> float | np.ndarray:
    """Efficiency at a fraction of rated load, interpolated between the 80 PLUS points (flat beyond them)."""
    xs, ys = _curve(rating)
    if isinstance(load_fraction, float | int):  # one build: the same line, without numpy's per-call overhead
        return _interp1(float(load_fraction), xs, ys)
    return np.interp(load_fraction, xs, ys)


def _interp1(x: float, xs: np.ndarray, ys: np.ndarray) -> float:
    """np.interp for one value (flat beyond the ends)."""
    if x <= xs[0]:
        return float(ys[0])
    for k in range(1, len(xs)):
        if x <= xs[k]:
            x0, x1, y0, y1 = float(xs[k - 1]), float(xs[k]), float(ys[k - 1]), float(ys[k])
            return y0 + (y1 - y0) * (x - x0) / (x1 - x0)
    return float(ys[-1])


def wall_watts(dc_watts: float, psu: Psu | None, rated_w: float | None = None, units: int = 1) -> float:
    """AC watts at the wall for `dc_watts` drawn from `psu` (or a Gold unit of `rated_w` when there is none)."""
    if dc_watts <= 0:
        return 0.0
    rating = psu.efficiency if psu else DEFAULT_RATING
    size = (psu.wattage * units if psu and psu.wattage else None) or rated_w or dc_watts
    return float(dc_watts / efficiency(dc_watts / size, rating))


def wall_draw(
    load: np.ndarray, gpu_w: np.ndarray, psu_w: np.ndarray, rating: np.ndarray, atx3: np.ndarray | bool
) -> np.ndarray:
    """wall_watts at the sizing load over arrays of candidates (the suggester's bounds): a PSU of unknown wattage
    is taken at the recommended size, as estimate_power does."""
    sizes = np.array(PSU_SIZES, dtype=float)
    raw = load * RECOMMEND_MARGIN + sizing_watts(load, gpu_w, atx3)  # recommended_psu, over arrays
    pos = np.searchsorted(sizes, raw)
    rec = np.where(pos < len(sizes), sizes[np.minimum(pos, len(sizes) - 1)], np.ceil(raw / 100) * 100)
    size = np.where(np.isnan(psu_w), rec, psu_w)
    frac = load / np.where(size > 0, size, 1.0)
    eff = np.full(load.shape, UNKNOWN_EFFICIENCY)
    for r in set(rating.tolist()):
        m = rating == r
        eff[m] = efficiency(frac[m], r if r in EIGHTY_PLUS else None)
    return np.where(load > 0, load / eff, 0.0)


def wall_draw_one(load: float, gpu_w: float, psu_w: float | None, rating: str, atx3: bool) -> float:
    """wall_draw for one build, without building arrays (estimate_power runs once per check()): the same steps,
    each value computed as wall_draw computes it (the efficiency by np.interp), so the two agree to the bit."""
    raw = load * RECOMMEND_MARGIN + sizing_watts(load, gpu_w, atx3)
    pos = bisect_left(PSU_SIZES, raw)  # np.searchsorted's default side
    rec = float(PSU_SIZES[pos]) if pos < len(PSU_SIZES) else math.ceil(raw / 100) * 100.0
    size = rec if psu_w is None else psu_w
    xs, ys = _curve(rating if rating in EIGHTY_PLUS else None)
    eff = float(np.interp(load / (size if size > 0 else 1.0), xs, ys))
    return float(load / eff) if load > 0 else 0.0


def round_up_psu(watts: float) -> int:
    for size in PSU_SIZES:
        if size >= watts:
            return size
    return int(math.ceil(watts / 100) * 100)


ATX3_NAME = re.compile(r"\bATX\s*3(\.\d)?\b|\bATX3", re.I)


def is_atx3(psu: Psu | None) -> bool | None:
    """Three-valued. True: an ATX 3.x unit (the maker or the data says so, or its name says so); False: the data
    says it is not; None: unknown (and said so, never "not ATX 3.x"). Native 12V-2x6 / 12VHPWR cables are not
    taken as proof: Seasonic's 2022 PRIME TX-1600 ships two and is ATX 2.53 (docs/checks.md, psu-atx3)."""
    if psu is None:
        return None
    if psu.atx3 is not None:
        return psu.atx3
    if ATX3_NAME.search(psu.name):
        return True
    return None


def spike_rated(psu: Psu | None) -> bool:
    """Rated for GPU power spikes (ATX 3.x); unknown and older units get the transient margin."""
    return bool(is_atx3(psu))


def sizing_watts(peak_w: Any, gpu_w: Any, atx3: Any) -> Any:
    """The worst case a PSU must carry: sustained peak, plus GPU spikes unless the unit is rated for them. Floats
    for one build, arrays for the filter."""
    return (
        peak_w + np.where(atx3, 0.0, TRANSIENT_SHARE * gpu_w)
        if isinstance(peak_w, np.ndarray)
        else (peak_w + (0.0 if atx3 else TRANSIENT_SHARE * gpu_w))
    )


def recommended_psu(peak_w: float, gpu_w: float, atx3: bool) -> int:
    if not peak_w:
        return 0
    return round_up_psu(peak_w * RECOMMEND_MARGIN + sizing_watts(peak_w, gpu_w, atx3))


@dataclass(frozen=True)
class PowerLine:
    label: str
    kind: Kind | None
    load_w: float  # peak sustained (PSU sizing)
    idle_w: float
    train_w: float = 0.0  # training-load profile (running costs)


@dataclass(frozen=True)
class PowerEstimate:
    """Two figures for two purposes (docs/checks.md): `load_w` is the worst sustained DC draw that sizes the PSU
    (GPU board power, CPU at sustained boost, the rest at full); `train_w` is the DC draw while training, which with
    `idle_w` drives running costs. `wall_*` are the same through the PSU's efficiency. When a GPU's or CPU's power is
    unknown, `unknown` names it and every figure is a lower bound ("at least")."""

    load_w: float
    idle_w: float
    wall_load_w: float  # AC at training load (running costs)
    wall_idle_w: float
    psu_w: int | None
    recommended_psu_w: int
    efficiency_at_load: float
    gpu_w: float
    train_w: float = 0.0
    sizing_w: float = 0.0  # load_w plus the GPU-spike margin for the chosen PSU (none for ATX 3.x units)
    wall_peak_w: float = 0.0  # AC at the sizing load (wall circuit)
    recommended_psu_w_atx2: int = 0  # for a unit without ATX 3.x transient ratings
    unknown: tuple[str, ...] = ()
    lines: tuple[PowerLine, ...] = ()
    notes: tuple[str, ...] = field(default=())

    def to_json(self) -> dict[str, object]:
        return {
            "load_w": round(self.load_w, 1),
            "train_w": round(self.train_w, 1),
            "sizing_w": round(self.sizing_w, 1),
            "idle_w": round(self.idle_w, 1),
            "wall_peak_w": round(self.wall_peak_w, 1),
            "wall_load_w": round(self.wall_load_w, 1),
            "wall_idle_w": round(self.wall_idle_w, 1),
            "psu_w": self.psu_w,
            "recommended_psu_w": self.recommended_psu_w,
            "recommended_psu_w_atx2": self.recommended_psu_w_atx2,
            "lower_bound": bool(self.unknown),
            "unknown_power": list(self.unknown),
        }


def psu_units(build: Build) -> int:
    """How many units of the build's PSU (the quantity of its line): their ratings add up (rules/units.py)."""
    psu = _psu_of(build)
    return sum(i.quantity for i in build.items if psu is not None and i.part.id == psu.id) or 1


def _psu_of(build: Build) -> Psu | None:
    psu = build.first(Kind.PSU)
    return psu if isinstance(psu, Psu) else None


def power_unknown(p: Part) -> bool:
    """A GPU or CPU without a power figure: every total is then a lower bound and the power rules are not checked."""
    if isinstance(p, Gpu):
        return not p.tdp_w
    return isinstance(p, Cpu) and cpu_boost_w(p) is None


def part_lines(p: Part, n: int) -> list[PowerLine]:
    """The power lines one build item adds (a CPU adds its voltage regulators' losses too)."""
    lines: list[PowerLine] = []
    watts: tuple[float, float, float] | None = None
    if isinstance(p, Gpu):
        watts = gpu_watts(p)
    elif isinstance(p, Cpu):
        watts = cpu_watts(p)
        if cpu_boost_w(p) is not None:
            extra = VRM_LOSS * watts[0], VRM_LOSS * watts[1], VRM_LOSS * watts[2]
            lines.append(PowerLine("CPU voltage regulator losses (10 %)", Kind.MOTHERBOARD, *extra))
    elif isinstance(p, Memory):
        watts = memory_watts(p)
    elif isinstance(p, Storage):
        watts = storage_watts(p)
    elif isinstance(p, Cooler):
        watts = cooler_watts(p)
    if watts is not None:
        label = f"{n}x {p.name}" if n > 1 else p.name
        lines.append(PowerLine(label, p.kind, watts[0] * n, watts[1] * n, watts[2] * n))
    return lines


def fixed_lines(board: Part | None, cpu: Part | None, has_cooler: bool, has_items: bool) -> list[PowerLine]:
    """Lines no single part owns: board and chipset, a boxed cooler's fan, case fans (none for an empty build)."""
    if not has_items:
        return []
    mb = board if isinstance(board, Motherboard) else None
    bw = board_watts(mb, cpu.socket if isinstance(cpu, Cpu) else None)
    lines = [PowerLine("Motherboard and chipset (estimate)", Kind.MOTHERBOARD, bw[0], bw[1], bw[0])]
    if not has_cooler and isinstance(cpu, Cpu) and cpu.includes_cooler:
        lines.append(PowerLine("Boxed CPU cooler fan", Kind.COOLER, *cooler_watts(None)))
    lines.append(PowerLine("Case fans (3 assumed)", Kind.CASE, *CASE_FANS))
    return lines


def other_fan_lines(build: Build) -> tuple[list[PowerLine], list[str]]:
    """Case fans listed as Other items (issue 29) with their watts: the PSU feeds them, so they size it, beside the
    case's own three fans assumed in fixed_lines. The watts given are taken as the fan's full speed (sizing), with the
    same shares while training and idle as the assumed case fans (CASE_FANS). A fan without watts is named in a note:
    not counted, never 0 W."""
    lines, unknown = [], []
    share_train, share_idle = CASE_FANS[2] / CASE_FANS[0], CASE_FANS[1] / CASE_FANS[0]
    for o in build.other:
        if o.category not in PSU_FED:
            continue
        if o.watts is None:
            unknown.append(o.name)
            continue
        w = o.watts * o.quantity
        label = f"{o.quantity}x {o.name} (Other item)" if o.quantity > 1 else f"{o.name} (Other item)"
        lines.append(PowerLine(label, Kind.CASE, w, w * share_idle, w * share_train))
    notes = (
        [f"no watts given for {', '.join(unknown)}: not counted in the PSU load or the electricity cost"]
        if unknown
        else []
    )
    return lines, notes


def estimate_power(build: Build) -> PowerEstimate:
    lines: list[PowerLine] = []
    cpu = build.first(Kind.CPU)
    unknown: list[str] = []
    for item in build.items:
        lines += part_lines(item.part, item.quantity)
        if power_unknown(item.part):
            unknown.append(item.part.name)
    notes: list[str] = []
    has_cooler = build.first(Kind.COOLER) is not None
    lines += fixed_lines(build.first(Kind.MOTHERBOARD), cpu, has_cooler, bool(build.items))
    fans, fan_notes = other_fan_lines(build)
    lines += fans
    notes += fan_notes
    unknown = list(dict.fromkeys(unknown))
    if unknown:
        notes.append(f"no power figure for {', '.join(unknown)}: every figure is a lower bound (at least)")
    load = sum(line.load_w for line in lines)
    idle = sum(line.idle_w for line in lines)
    train = sum(line.train_w for line in lines)
    gpu_w = sum(line.load_w for line in lines if line.kind is Kind.GPU)
    psu = _psu_of(build)
    units = psu_units(build)
    atx3 = spike_rated(psu)
    rec3 = recommended_psu(load, gpu_w, True)
    rec2 = recommended_psu(load, gpu_w, False)
    recommended = rec3 if (psu is None or atx3) else rec2
    if psu is None:
        notes.append(f"no PSU chosen: wall draw assumes an {DEFAULT_RATING} unit of {recommended} W")
    elif psu.efficiency is None:
        notes.append(f"PSU efficiency rating unknown: {UNKNOWN_EFFICIENCY:.0%} assumed")
    elif psu.wattage is None:
        notes.append("PSU wattage unknown: efficiency taken at the recommended size")
    a = build.assumptions
    limit = circuit_limit_w(a.wall_voltage, a.wall_amps)
    wall_peak = wall_draw_one(
        load,
        gpu_w,
        psu.wattage * units if psu and psu.wattage else None,
        (psu.efficiency if psu else DEFAULT_RATING) or "?",
        psu is None or atx3,
    )
    if wall_peak > limit:
        notes.append(
            f"no PSU fixes the wall circuit: at {wall_peak:,.0f} W from the wall the build needs more than a "
            f"{a.wall_voltage:g} V / {a.wall_amps:g} A circuit carries ({limit:,.0f} W continuously)"
        )
    size = (psu.wattage * units if psu and psu.wattage else None) or recommended or 1
    rating = psu.efficiency if psu else DEFAULT_RATING
    eff = float(efficiency(train / size, rating)) if train else 0.0
    return PowerEstimate(
        load_w=load,
        idle_w=idle,
        wall_load_w=wall_watts(train, psu, recommended, units),
        wall_idle_w=wall_watts(idle, psu, recommended, units),
        psu_w=psu.wattage * units if psu and psu.wattage else None,
        recommended_psu_w=recommended,
        efficiency_at_load=eff,
        gpu_w=gpu_w,
        train_w=train,
        sizing_w=sizing_watts(load, gpu_w, psu is None or atx3),
        wall_peak_w=wall_peak,
        recommended_psu_w_atx2=rec2,
        unknown=tuple(unknown),
        lines=tuple(lines),
        notes=tuple(notes),
    )
