"""Power: what each part draws at load and idle, what the wall sees through the PSU, and the PSU to buy.

Every figure's basis is in docs/checks.md ("Power estimate"). All figures are estimates and are labelled so.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from rigplan.model.build import Build
from rigplan.model.parts import Cooler, Cpu, Gpu, Kind, Memory, Motherboard, Psu, Storage

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

# Common PSU sizes on the market, for rounding the recommendation up to something one can buy.
PSU_SIZES = (300, 350, 400, 450, 500, 550, 650, 750, 850, 1000, 1200, 1300, 1500, 1600, 2000, 2200, 2800)
RECOMMEND_MARGIN = 0.10  # Dettmers: sum of part powers + 10 %
TRANSIENT_SHARE = 0.25  # + 25 % of GPU board power for millisecond spikes (ATX 3.x allows 200 % excursions)

HEDT_SOCKETS = frozenset({"sTR5", "sTRX4", "sWRX8", "TR4", "LGA 4677", "LGA 2066", "LGA 2011-3", "LGA 2011"})


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
    return np.interp(load_fraction, xs, ys)


def wall_watts(dc_watts: float, psu: Psu | None, rated_w: float | None = None) -> float:
    """AC watts at the wall for `dc_watts` drawn from `psu` (or a Gold unit of `rated_w` when there is none)."""
    if dc_watts <= 0:
        return 0.0
    rating = psu.efficiency if psu else DEFAULT_RATING
    size = (psu.wattage if psu and psu.wattage else None) or rated_w or dc_watts
    return float(dc_watts / efficiency(dc_watts / size, rating))


def round_up_psu(watts: float) -> int:
    for size in PSU_SIZES:
        if size >= watts:
            return size
    return int(math.ceil(watts / 100) * 100)


@dataclass(frozen=True)
class PowerLine:
    label: str
    kind: Kind | None
    load_w: float
    idle_w: float


@dataclass(frozen=True)
class PowerEstimate:
    load_w: float
    idle_w: float
    wall_load_w: float
    wall_idle_w: float
    psu_w: int | None
    recommended_psu_w: int
    efficiency_at_load: float
    gpu_w: float
    lines: tuple[PowerLine, ...] = ()
    notes: tuple[str, ...] = field(default=())

    def to_json(self) -> dict[str, float | int | None]:
        return {
            "load_w": round(self.load_w, 1),
            "idle_w": round(self.idle_w, 1),
            "wall_load_w": round(self.wall_load_w, 1),
            "wall_idle_w": round(self.wall_idle_w, 1),
            "psu_w": self.psu_w,
            "recommended_psu_w": self.recommended_psu_w,
        }


# --- per-part figures (load W, idle W); basis in docs/checks.md -----------------------------------------------------


def gpu_watts(gpu: Gpu) -> tuple[float, float]:
    tdp = float(gpu.tdp_w or 0)
    return tdp, min(30.0, max(8.0, 0.07 * tdp)) if tdp else 0.0


def cpu_watts(cpu: Cpu) -> tuple[float, float]:
    tdp = float(cpu.tdp_w or 0)
    return tdp, min(60.0, max(10.0, 0.15 * tdp)) if tdp else 0.0


def board_watts(board: Motherboard | None, socket: str | None) -> tuple[float, float]:
    hedt = (board.socket if board and board.socket else socket) in HEDT_SOCKETS
    return (60.0, 40.0) if hedt else (40.0, 25.0)


def memory_watts(mem: Memory) -> tuple[float, float]:
    per = (8.0, 4.0) if mem.registered else (4.0, 2.0)
    n = mem.modules or 1
    return per[0] * n, per[1] * n


def storage_watts(drive: Storage) -> tuple[float, float]:
    if (drive.storage_type or "").upper() == "HDD":
        return 8.0, 5.0
    if drive.nvme or drive.is_m2:
        return 7.0, 1.0
    return 3.0, 0.5


def cooler_watts(cooler: Cooler | None) -> tuple[float, float]:
    if cooler is None:
        return 3.0, 2.0  # a boxed cooler's fan
    fans = cooler.fan_count or (0 if cooler.fanless else 1)
    pump = 6.0 if cooler.water_cooled else 0.0
    return 3.0 * fans + pump, 1.5 * fans + pump


CASE_FANS = (9.0, 5.0)  # three 120 mm case fans; the case data has no fan count


def estimate_power(build: Build) -> PowerEstimate:
    lines: list[PowerLine] = []
    cpu = build.first(Kind.CPU)
    board = build.first(Kind.MOTHERBOARD)
    for item in build.items:
        p, n = item.part, item.quantity
        watts: tuple[float, float] | None = None
        if isinstance(p, Gpu):
            watts = gpu_watts(p)
        elif isinstance(p, Cpu):
            watts = cpu_watts(p)
        elif isinstance(p, Memory):
            watts = memory_watts(p)
        elif isinstance(p, Storage):
            watts = storage_watts(p)
        elif isinstance(p, Cooler):
            watts = cooler_watts(p)
        if watts is not None:
            label = f"{n}x {p.name}" if n > 1 else p.name
            lines.append(PowerLine(label, p.kind, watts[0] * n, watts[1] * n))
    notes: list[str] = []
    if build.items:
        bw = board_watts(
            board if isinstance(board, Motherboard) else None, cpu.socket if isinstance(cpu, Cpu) else None
        )
        lines.append(PowerLine("Motherboard, chipset and VRM losses (estimate)", Kind.MOTHERBOARD, *bw))
        if build.first(Kind.COOLER) is None and isinstance(cpu, Cpu) and cpu.includes_cooler:
            lines.append(PowerLine("Boxed CPU cooler fan", Kind.COOLER, *cooler_watts(None)))
        lines.append(PowerLine("Case fans (3 assumed)", Kind.CASE, *CASE_FANS))
    unknown = [i.part.name for i in build.items if isinstance(i.part, (Gpu, Cpu)) and not i.part.tdp_w]
    if unknown:
        notes.append(f"no TDP known for {', '.join(unknown)}: counted as 0 W")
    load = sum(line.load_w for line in lines)
    idle = sum(line.idle_w for line in lines)
    gpu_w = sum(line.load_w for line in lines if line.kind is Kind.GPU)
    recommended = round_up_psu(load * (1 + RECOMMEND_MARGIN) + TRANSIENT_SHARE * gpu_w) if load else 0
    psu = build.first(Kind.PSU)
    psu = psu if isinstance(psu, Psu) else None
    if psu is None:
        notes.append(f"no PSU chosen: wall draw assumes an {DEFAULT_RATING} unit of {recommended} W")
    elif psu.efficiency is None:
        notes.append(f"PSU efficiency rating unknown: {UNKNOWN_EFFICIENCY:.0%} assumed")
    elif psu.wattage is None:
        notes.append("PSU wattage unknown: efficiency taken at the recommended size")
    size = (psu.wattage if psu else None) or recommended or 1
    rating = psu.efficiency if psu else DEFAULT_RATING
    eff = float(efficiency(load / size, rating)) if load else 0.0
    return PowerEstimate(
        load_w=load,
        idle_w=idle,
        wall_load_w=wall_watts(load, psu, recommended),
        wall_idle_w=wall_watts(idle, psu, recommended),
        psu_w=psu.wattage if psu else None,
        recommended_psu_w=recommended,
        efficiency_at_load=eff,
        gpu_w=gpu_w,
        lines=tuple(lines),
        notes=tuple(notes),
    )
