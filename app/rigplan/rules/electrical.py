"""Rules about power: PSU rating, PCIe and EPS cables, and the wall circuit."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from rigplan.model.parts import Gpu, Kind
from rigplan.rules.context import Ctx, eps_fed, gpu_cables
from rigplan.rules.power import DEFAULT_RATING, PSU_SIZES, PowerEstimate, circuit_limit_w, is_atx3, round_up_psu
from rigplan.rules.units import gpu_eps_power, psu_count, shares, split_gpus, unit_loads

K = Kind
# A 6+2-pin PCIe cable carries 150 W (PCI-SIG CEM 5.0); the 16-pin (12VHPWR / 12V-2x6) adapter shipped with a card
# takes one 8-pin per 150 W of its power: 2 up to 300 W, 3 for 450 W, 4 for 600 W (NVIDIA's adapters for the RTX
# 4070 Ti, 4080 and 4090; the sense pins tell the card how many are connected).
WATTS_PER_8PIN = 150
MAX_ADAPTER_8PIN = 4


def adapter_cables(board_w: float | None, plugs16: int) -> tuple[int, int] | None:
    """(8-pin cables needed to run at stock power, cables on the adapter the card ships with), per 16-pin plug."""
    if not board_w or not plugs16:
        return None
    per_plug = board_w / plugs16
    need = min(MAX_ADAPTER_8PIN, max(2, math.ceil(per_plug / WATTS_PER_8PIN - 1e-9)))
    # Cards at 450 W or more ship a 4-cable adapter, so the power limit can be raised to 600 W (RTX 4090, 5090).
    shipped = MAX_ADAPTER_8PIN if per_plug >= 450 else need
    return need, shipped


# ATX 3.x units hold 200 % of their rated power for 100 us (Intel ATX 3.0 design guide, 3.2.11); a GPU's
# millisecond spikes reach about 2x its board power (Igor's Lab), so a spike adds up to one more board power.
ATX3_SPIKE_HOLD = 2.0


def psu_overloaded(load_w: Any, psu_w: Any, gpu_w: Any = 0.0, atx3: Any = False) -> Any:
    """The psu-wattage error: the sustained load above the rating, or (an ATX 3.x unit) the spike, sustained load
    plus one more GPU board power, above the 200 % the class is specified to hold. Floats or arrays."""
    return (load_w > psu_w) | ((load_w + gpu_w > ATX3_SPIKE_HOLD * psu_w) & atx3)


def circuit_overloaded(wall_peak_w: Any, limit_w: float) -> Any:
    """The wall-circuit error: the wall draw at the sizing load above the circuit's continuous limit."""
    return wall_peak_w > limit_w


def _unknown_power(c: Ctx, p: PowerEstimate, rule: str, kinds: tuple[Kind, ...]) -> bool:
    if not p.unknown:
        return False
    c.unchecked(
        rule,
        f"no power figure for {', '.join(p.unknown)}: the rest draws at least {p.load_w:.0f} W",
        kinds,
    )
    return True


def psu_wattage(c: Ctx) -> None:
    p = c.power
    if not c.psu or not p.load_w:
        return
    if c.psu.wattage is None:
        c.unchecked("psu-wattage", "the PSU's wattage is unknown", (K.PSU,))
        return
    if _unknown_power(c, p, "psu-wattage", (K.PSU, K.GPU, K.CPU)):
        return
    n = psu_count(c)
    w = c.psu.wattage * n
    theirs = f"the PSU's {w} W" if n == 1 else f"the {n} PSUs' {w} W together ({n}x {c.psu.wattage} W)"
    choose = (
        f"Choose a PSU of at least {p.recommended_psu_w} W"
        if n == 1
        else f"Choose units of at least {round_up_psu(p.recommended_psu_w / n)} W each"
    )
    rated = is_atx3(c.psu)
    spikes = (
        "an ATX 3.x unit is rated for GPU power spikes"
        if rated
        else f"+{p.sizing_w - p.load_w:.0f} W for GPU power spikes, as the PSU "
        + ("is not an ATX 3.x unit" if rated is False else "is not known to be an ATX 3.x unit")
    )
    circuit = circuit_conflict(c, p) or (too_big(p) if n == 1 else None)
    big = p.recommended_psu_w > PSU_SIZES[-1]
    rec = f"more than any single PSU ({PSU_SIZES[-1]} W)" if big else f"{p.recommended_psu_w} W"
    if psu_overloaded(p.load_w, w, p.gpu_w, bool(rated)):
        c.error(
            "psu-wattage",
            f"The parts draw about {p.load_w:.0f} W at full load (GPUs at board power, CPU at sustained boost), "
            f"more than {theirs}" + (f" ({spikes}: {p.sizing_w:.0f} W)." if p.sizing_w > p.load_w else "."),
            circuit or f"{choose}, or fewer or lower-power GPUs.",
            [c.psu],
            (K.PSU,),
        )
    elif p.sizing_w > w:
        # The sustained load fits; only the spike margin does not. A unit's over-current protection trips on
        # spikes only beyond what its class holds (ATX 3.x: 200 % of rated power for 100 us, Intel ATX 3.0 design
        # guide 3.2.11); older units state no spike rating, so the margin is advice: tight, a warning.
        c.warn(
            "psu-wattage",
            f"Tight: the parts draw about {p.load_w:.0f} W sustained at full load, within {theirs}, but with "
            f"{spikes} the sizing load is {p.sizing_w:.0f} W. GPU spikes of under 1 ms can trip the over-current "
            "protection of a unit without a spike rating (Igor's Lab measurements of RTX 30/40 cards).",
            circuit or f"{choose} for the margin, an ATX 3.x unit, or lower GPU power limits.",
            [c.psu],
            (K.PSU,),
        )
    elif w < p.recommended_psu_w:
        c.warn(
            "psu-wattage",
            f"{'The PSU is' if n == 1 else f'The {n} PSUs are'} rated {w} W"
            f"{'' if n == 1 else ' together'}; for {p.load_w:.0f} W at full load ({spikes}) RigPlan recommends "
            f"{rec} (+10 %).",
            circuit or f"{choose}.",
            [c.psu],
            (K.PSU,),
        )


def too_big(p: PowerEstimate) -> str | None:
    if p.recommended_psu_w <= PSU_SIZES[-1]:
        return None
    return (
        f"No single PSU that large is sold (the largest in the catalog is {PSU_SIZES[-1]} W): split the GPUs over two "
        "PSUs (with an add2psu relay or a dual-PSU case) or lower their power limits."
    )


def circuit_conflict(c: Ctx, p: PowerEstimate) -> str | None:
    """When the wall circuit cannot feed the build at all, no PSU fixes it: say so instead of recommending one."""
    a = c.assumptions
    limit = circuit_limit_w(a.wall_voltage, a.wall_amps)
    if p.wall_peak_w <= limit:
        return None
    return (
        f"A bigger PSU would not help: at {p.wall_peak_w:,.0f} W from the wall the build exceeds the {limit:,.0f} W "
        f"a {a.wall_voltage:g} V / {a.wall_amps:g} A circuit carries. Use a 20 A or 230 V circuit, "
        + ("each PSU on its own circuit" if psu_count(c) > 1 else "two circuits with two PSUs")
        + ", or lower GPU power limits."
    )


def _gpu_label(n: int, name: str) -> str:
    return f"GPU {n} ({name})"


Card = tuple[int, Gpu, tuple[int, int]]


def unit_plans(c: Ctx, cards: list[Card], have16: int, have8: int) -> list[tuple[int, CablePlan]]:
    """One cable plan per PSU unit, for the cards that unit feeds (units.split_gpus): a card takes every cable from
    one unit."""
    split = split_gpus(c.gpus, psu_count(c))
    out = []
    for k, nums in enumerate(split, 1):
        mine = [x for x in cards if x[0] in nums]
        out.append((k, plan_cables(mine, have16, have8)))
    return out


def psu_pcie(c: Ctx) -> None:
    """Cables per card: 8-pin cards take their own; 16-pin cards take a native 16-pin cable, the strongest cards
    first, and the rest the adapter shipped with the card, fed by as many 6+2-pin cables as the card's power needs.
    With two or more PSUs, each unit feeds its own cards (units.py)."""
    if not (c.psu and c.gpus):
        return
    unknown = sorted({g.name for g in c.gpus if gpu_cables(g) is None})
    if unknown:
        c.unchecked("psu-pcie-connectors", f"power connectors unknown for {', '.join(unknown)}", (K.GPU, K.PSU))
    conn = c.psu.connectors
    if conn is None or conn.pcie8 is None or conn.pcie16 is None:
        c.unchecked("psu-pcie-connectors", "the PSU's PCIe cable counts are unknown", (K.PSU, K.GPU))
        return
    cards = [(n, g, cables) for n, g in enumerate(c.gpus, 1) if (cables := gpu_cables(g)) is not None]
    if not any(x[2][0] or x[2][1] for x in cards):
        return
    plans = unit_plans(c, cards, conn.pcie16, conn.pcie8)
    many = len(plans) > 1
    plan = CablePlan()
    for k, one in plans:
        plan.need8 += one.need8
        plan.short += one.short
        plan.lines += [f"PSU {k}: {line}" if many else line for line in one.lines]
        plan.no_headroom += one.no_headroom
        plan.unknown_adapters += one.unknown_adapters
    parts = [c.psu, *(i.part for i in c.gpu_items)]
    have = f"{conn.pcie16}x 16-pin and {conn.pcie8}x 6+2-pin" + (f" on each of its {len(plans)} units" if many else "")
    if plan.unknown_adapters:
        c.unchecked(
            "psu-pcie-connectors",
            f"board power unknown for {', '.join(plan.unknown_adapters)}: how many 8-pin cables its 16-pin adapter "
            "needs is not known",
            (K.GPU, K.PSU),
        )
        return
    where = "; ".join(plan.lines)
    n16 = sum(x[2][0] for x in cards)
    n8 = sum(x[2][1] for x in cards)
    take = " + ".join(b for b in (f"{n16}x 16-pin" if n16 else "", f"{n8}x 6+2-pin" if n8 else "") if b)
    if plan.short > 0:
        c.error(
            "psu-pcie-connectors",
            f"The GPUs take {take}; the PSU has {have}. Fed as below they need {plan.need8} 6+2-pin cables, "
            f"{plan.short} more than it has. Cables: {where}.",
            "Choose a PSU with more PCIe cables (no splitters or pigtails are assumed), or with native 16-pin cables.",
            parts,
            (K.PSU, K.GPU),
        )
    elif plan.no_headroom:
        c.warn(
            "psu-pcie-connectors",
            f"The PSU ({have}) feeds every card at its stock power limit, but {', '.join(plan.no_headroom)} "
            f"cannot raise it: its adapter is fed fewer cables than it has. Cables: {where}.",
            "Fine at stock settings; for power-limit headroom choose a PSU with native 16-pin cables or more 6+2-pin.",
            parts,
            (K.PSU, K.GPU),
        )


def gpu_eps(c: Ctx) -> None:
    """GPU EPS sockets, fed from what each unit has left after the PCIe-fed cards (units.gpu_eps_power)."""
    if not (c.psu and c.gpus) or not any(eps_fed(g) for g in c.gpus):
        return
    conn = c.psu.connectors
    spare: dict[int, int] = {}
    if conn is not None and conn.pcie8 is not None and conn.pcie16 is not None:
        cards = [(n, g, cables) for n, g in enumerate(c.gpus, 1) if (cables := gpu_cables(g)) is not None]
        spare = {k: max(0, conn.pcie8 - plan.need8) for k, plan in unit_plans(c, cards, conn.pcie16, conn.pcie8)}
    gpu_eps_power(c, spare)


@dataclass
class CablePlan:
    need8: int = 0
    short: int = 0
    lines: list[str] = field(default_factory=list)
    no_headroom: list[str] = field(default_factory=list)
    unknown_adapters: list[str] = field(default_factory=list)


def plan_cables(cards: list[tuple[int, Gpu, tuple[int, int]]], have16: int, have8: int) -> CablePlan:
    plan = CablePlan()
    natives = have16
    sixteen = []
    for n, g, (p16, p8) in cards:
        if p8:
            plan.need8 += p8
            plan.lines.append(f"{_gpu_label(n, g.name)}: {p8}x 6+2-pin")
        if p16:
            ad = adapter_cables(g.tdp_w, p16)
            sixteen.append((ad[0] * p16 if ad else 0, n, g, p16, ad))
    short_of_full: list[tuple[str, int]] = []  # cards fed fewer cables than their adapter has
    # Native cables go to the cards whose adapters would need the most 8-pin cables.
    for need, n, g, p16, ad in sorted(sixteen, key=lambda x: -x[0]):
        label = _gpu_label(n, g.name)
        if natives >= p16:
            natives -= p16
            plan.lines.append(f"{label}: native 16-pin cable{'s' if p16 > 1 else ''}")
        elif ad is None:
            plan.unknown_adapters.append(g.name)
        else:
            plan.need8 += need
            plan.lines.append(f"{label}: its 16-pin adapter with {need}x 6+2-pin")
            if ad[1] > ad[0]:
                short_of_full.append((label, (ad[1] - ad[0]) * p16))
    spare = have8 - plan.need8
    plan.short = max(0, -spare)
    # Spare 6+2-pin cables complete the adapters of the cards that need them, in order.
    for label, extra in short_of_full:
        if spare >= extra:
            spare -= extra
        else:
            plan.no_headroom.append(label)
    return plan


def _eps_count_unknown(c: Ctx) -> bool:
    """psu-eps-count's case: the PSU's EPS cable count unknown, or none listed while the board's sockets are."""
    assert c.psu and c.board
    have = c.psu.connectors.eps8 if c.psu.connectors else None
    return have is None or (have == 0 and not c.board.eps_connectors)


def psu_eps_count(c: Ctx) -> None:
    """Does the PSU have the one EPS cable every board needs? Known and at least one: passed (psu-eps then asks
    for one per board socket). A PSU of unknown EPS count may have none: "not checked", a hole the suggester must
    not take. None listed beside a board whose CPU power sockets are known: an error (EPS12V, SSI EPS 2.92: the
    CPU's VRM is fed only from the 8-pin 12 V input)."""
    if not (c.psu and c.board):
        return
    have = c.psu.connectors.eps8 if c.psu.connectors else None
    sockets = c.board.eps_connectors
    if have is None:
        c.unchecked("psu-eps-count", "the PSU's EPS (CPU power) cable count is unknown", (K.PSU,))
    elif have == 0 and not sockets:  # an old board may take a 4-pin ATX12V plug; one that wants an 8-pin gets none
        c.unchecked(
            "psu-eps-count",
            "the PSU lists no EPS 8-pin (CPU power) cable and the board's CPU power sockets are unknown",
            (K.PSU,),
        )
    elif have == 0:
        c.error(
            "psu-eps-count",
            f"The PSU has no EPS (CPU power) cable; the board has {len(sockets or ())} CPU power socket"
            f"{'s' if len(sockets or ()) != 1 else ''} ({' + '.join(sockets or ())}) and needs at least one.",
            "Choose a PSU with EPS 8-pin cables.",
            [c.psu, c.board],
            (K.PSU, K.MOTHERBOARD),
        )


def psu_eps(c: Ctx) -> None:
    """One EPS cable per CPU power socket of a single-socket board (the count's own check, psu-eps-count, says
    whether there is any; dual-socket boards: psu-eps-sockets)."""
    if not (c.psu and c.board) or _eps_count_unknown(c):
        return
    sockets = c.board.eps_connectors
    have = c.psu.connectors.eps8 if c.psu.connectors else None
    assert have is not None
    if not sockets:
        fed = (
            "its one EPS cable feeds the first, not a second if the board has one"
            if have == 1
            else f"the PSU has {have} EPS cables (boards have one to three)"
        )
        c.unchecked("psu-eps", f"the board's CPU power sockets are unknown: {fed}", (K.PSU,))
        return
    if have == 0:
        return  # psu-eps-count's error
    if have < len(sockets) and (c.board.cpu_sockets or 1) < 2:  # dual-socket boards: psu-eps-sockets
        c.warn(
            "psu-eps",
            f"The board has {len(sockets)} CPU power sockets ({' + '.join(sockets)}); the PSU has {have} EPS cable"
            f"{'s' if have != 1 else ''}.",
            "Boards start with one, but a high-power CPU wants all of them: choose a PSU with enough EPS cables.",
            [c.psu, c.board],
            (K.PSU, K.MOTHERBOARD),
        )


def wall_circuit(c: Ctx) -> None:
    p = c.power
    if not p.load_w:
        return
    if _unknown_power(c, p, "wall-circuit", (K.PSU, K.GPU, K.CPU)):
        return
    a = c.assumptions
    limit = circuit_limit_w(a.wall_voltage, a.wall_amps)
    circuit = (
        f"a {a.wall_voltage:g} V / {a.wall_amps:g} A circuit carries {limit:.0f} W continuously (80 % of the breaker)"
    )
    # Without a PSU the wall draw rests on an assumed unit (rules/power.py: an 80 PLUS Gold unit of the recommended
    # size): a pass would be a claim about a part not chosen, so the finding states the assumption instead.
    assumed = "" if c.psu else f" (no PSU chosen: an {DEFAULT_RATING} unit of {p.recommended_psu_w} W assumed)"
    if not circuit_overloaded(p.wall_peak_w, limit):
        if not c.psu:
            c.note(
                "wall-circuit",
                f"At full load the build would draw about {p.wall_peak_w:,.0f} W from the wall{assumed}; {circuit}.",
                "Choose a PSU: the wall draw is then taken at its own efficiency rating.",
                [],
                (K.PSU,),
            )
        return
    units = unit_loads(c) if psu_count(c) > 1 else None
    if units and not any(circuit_overloaded(u.wall_w, limit) for u in units):
        c.warn(
            "wall-circuit",
            f"At full load the build draws about {p.wall_peak_w:.0f} W from the wall, more than one circuit: "
            f"{circuit}. Split over its {len(units)} PSUs ({shares(units)}), each unit stays within one circuit.",
            "Plug each PSU into its own circuit (two outlets of one circuit share its breaker).",
            [c.psu],
            (K.PSU,),
        )
        return
    per_unit = f" Per PSU: {shares(units)}." if units else ""
    c.error(
        "wall-circuit",
        f"At full load the build draws about {p.wall_peak_w:.0f} W from the wall{assumed}; {circuit}.{per_unit}",
        "Use a dedicated higher-rated circuit (e.g. 230 V, or 120 V / 20 A), fewer GPUs, or lower power limits.",
        [c.psu] if c.psu else [],
        (K.PSU,),
    )
