"""Two or more PSUs (a build line of quantity 2+): which unit feeds which GPU, each unit's load against its own
rating (psu-quantity), and GPUs with an 8-pin EPS power socket (gpu-eps-power).

Unit 1 is the main unit: it feeds the board (24-pin, EPS), CPU, drives and fans; the others feed GPUs only (through
an add2psu relay or a dual-PSU case). GPUs are spread by board power, the strongest first, each to the unit with
the least GPU power so far (unit 1 last on ties, as it feeds the rest too). The split reads only the GPUs, so the
cable rules that use it read nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rigplan.model.parts import Gpu, Kind
from rigplan.rules.context import Ctx
from rigplan.rules.power import RECOMMEND_MARGIN, efficiency, is_atx3, psu_units, round_up_psu, sizing_watts

K = Kind
EPS_ADAPTER_8PIN = 2  # NVIDIA's RTX A6000 / A40 adapter: two PCIe 8-pin cables into one 8-pin EPS socket


def psu_count(c: Ctx) -> int:
    """How many units of the build's PSU: the quantity of its line (a second, different PSU line is not modelled)."""
    return psu_units(c.build) if c.psu is not None else 0


def split_gpus(gpus: list[Gpu], units: int) -> list[list[int]]:
    """GPU numbers (1-based, build order) per unit."""
    out: list[list[int]] = [[] for _ in range(max(1, units))]
    watts = [0.0] * len(out)
    for n, g in sorted(enumerate(gpus, 1), key=lambda x: -(x[1].tdp_w or 0)):
        u = min(range(len(out)), key=lambda k: (watts[k], -k))
        out[u].append(n)
        watts[u] += g.tdp_w or 0
    return [sorted(x) for x in out]


def _names(nums: list[int], gpus: list[Gpu]) -> str:
    return ", ".join(f"GPU {n} ({gpus[n - 1].name})" for n in nums) or "no GPU"


@dataclass
class UnitLoad:
    number: int
    gpus: list[int]
    load_w: float  # sustained DC load on this unit
    gpu_w: float
    sizing_w: float = 0.0
    wall_w: float = 0.0
    lines: list[str] = field(default_factory=list)


def unit_loads(c: Ctx) -> list[UnitLoad] | None:
    """Each unit's load: its GPUs' board power, and for unit 1 everything else. None when power is unknown."""
    p = c.power
    n = psu_count(c)
    if c.psu is None or p.unknown or not p.load_w:
        return None
    split = split_gpus(c.gpus, n)
    out = []
    rest = p.load_w - p.gpu_w
    atx3 = bool(is_atx3(c.psu))
    for k, nums in enumerate(split, 1):
        gw = float(sum(c.gpus[m - 1].tdp_w or 0 for m in nums))
        load = gw + (rest if k == 1 else 0.0)
        u = UnitLoad(k, nums, load, gw, float(sizing_watts(load, gw, atx3)))
        size = c.psu.wattage or load or 1.0
        u.wall_w = load / float(efficiency(load / size, c.psu.efficiency)) if load else 0.0
        out.append(u)
    return out


def psu_quantity(c: Ctx) -> None:
    if c.psu is None or (n := psu_count(c)) < 2:
        return
    w = c.psu.wattage
    units = unit_loads(c)
    if w is None or units is None:
        why = "the PSU's wattage is unknown" if w is None else "a GPU's or the CPU's power figure is unknown"
        c.unchecked("psu-quantity", f"{n} PSUs: each unit's load is not checked: {why}", (K.PSU, K.GPU))
        return
    gpus = c.gpus
    plan = "; ".join(
        f"PSU {u.number}: {('the board, CPU and drives + ' if u.number == 1 else '')}{_names(u.gpus, gpus)}, "
        f"{u.sizing_w:,.0f} W of {w} W"
        for u in units
    )
    over = [u for u in units if u.sizing_w > w]
    if over:
        worst = max(over, key=lambda u: u.sizing_w)
        c.error(
            "psu-quantity",
            f"{n}x {w} W PSUs: split as below, PSU {worst.number} carries {worst.sizing_w:,.0f} W against its "
            f"{w} W (each unit feeds only its own cards: the ratings do not pool). Split: {plan}.",
            f"Choose units of at least {round_up_psu(worst.sizing_w * (1 + RECOMMEND_MARGIN))} W each, a third "
            "PSU, or GPUs of lower board power.",
            [c.psu, *(i.part for i in c.gpu_items)],
            (K.PSU, K.GPU),
        )
    else:
        c.note(
            "psu-quantity",
            f"{n}x {w} W PSUs ({n * w:,} W together): connect the GPUs as follows. {plan}.",
            "Join the units with an add2psu relay or the case's dual-PSU bracket, and never feed one card from "
            "two units.",
            [c.psu],
            (K.PSU,),
        )


def gpu_eps_power(c: Ctx, spare8: dict[int, int]) -> None:
    """GPUs with an 8-pin EPS socket (RTX A6000, A40): a PSU EPS cable left after the board's sockets, else two
    6+2-pin cables through the card's adapter; never one PCIe cable. `spare8`: each unit's 6+2-pin cables left
    after the PCIe-fed cards (electrical.psu_pcie)."""
    eps_cards = [(n, g) for n, g in enumerate(c.gpus, 1) if g.power_connectors and g.power_connectors.eps8]
    if not (c.psu and eps_cards):
        return
    conn = c.psu.connectors
    if conn is None or conn.eps8 is None or conn.pcie8 is None:
        c.unchecked("gpu-eps-power", "the PSU's EPS or PCIe cable counts are unknown", (K.GPU, K.PSU))
        return
    board_sockets = len(c.board.eps_connectors) if c.board and c.board.eps_connectors else 1
    assumed = "" if c.board and c.board.eps_connectors else ", assumed: the board's sockets are unknown"
    split = split_gpus(c.gpus, psu_count(c))
    lines, unfed = [], 0
    for k, nums in enumerate(split, 1):
        eps_left = conn.eps8 - (board_sockets if k == 1 else 0)
        pcie_left = spare8.get(k, conn.pcie8)
        for n, g in eps_cards:
            if n not in nums:
                continue
            sockets = g.power_connectors.eps8 if g.power_connectors else 0
            for _ in range(sockets):
                if eps_left > 0:
                    eps_left -= 1
                    lines.append(f"GPU {n} ({g.name}): PSU {k}'s spare EPS cable")
                elif pcie_left >= EPS_ADAPTER_8PIN:
                    pcie_left -= EPS_ADAPTER_8PIN
                    lines.append(f"GPU {n} ({g.name}): 2x 6+2-pin through its EPS adapter from PSU {k}")
                else:
                    unfed += 1
                    lines.append(f"GPU {n} ({g.name}): no cable left on PSU {k}")
    sockets = sum(g.power_connectors.eps8 for _, g in eps_cards if g.power_connectors)
    have = f"{conn.eps8} EPS cables ({board_sockets} for the board{assumed}) and {conn.pcie8}x 6+2-pin per unit"
    parts = [c.psu, *(g for _, g in eps_cards)]
    where = "; ".join(lines)
    if unfed:
        c.error(
            "gpu-eps-power",
            f"The GPUs have {sockets} 8-pin EPS power socket{'s' if sockets != 1 else ''}, each fed by a spare EPS "
            f"cable or two 6+2-pin cables through an adapter (never one PCIe cable); the PSU has {have}: {unfed} "
            f"left unfed. Cables: {where}.",
            "Choose a PSU with more EPS or 6+2-pin cables, or a second PSU.",
            parts,
            (K.GPU, K.PSU),
        )
    else:
        c.note(
            "gpu-eps-power",
            f"{sockets} GPU EPS power socket{'s' if sockets != 1 else ''} (8-pin CPU-style, not PCIe): {where}.",
            "Use the EPS cables or the 2x PCIe-to-EPS adapter that comes with the card; a PCIe 8-pin plug does "
            "not fit the EPS socket.",
            parts,
            (K.GPU, K.PSU),
        )


def shares(units: list[UnitLoad]) -> str:
    return ", ".join(f"PSU {u.number} {u.wall_w:,.0f} W" for u in units)
