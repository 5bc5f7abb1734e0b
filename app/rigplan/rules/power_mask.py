"""The power rules (psu-wattage, wall-circuit) over a whole kind of the catalog, with numpy.

Power adds up, so it is faster to add each candidate's own lines (power.part_lines) and the fixed lines it changes
(power.fixed_lines) to the build's estimate than to estimate every candidate's build: the same line functions that
estimate_power sums, the same sizing_watts / wall_draw / circuit_limit_w, and the same decisions as the messages
in electrical.py (psu_overloaded, circuit_overloaded). Per distinct power facts of the candidates (engine.POWER_FACTS),
then spread over the rows.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rigplan.catalog.loader import KindTable
from rigplan.model.build import Build
from rigplan.model.parts import Kind, Psu
from rigplan.rules.context import Ctx
from rigplan.rules.electrical import circuit_overloaded, psu_overloaded
from rigplan.rules.power import (
    DEFAULT_RATING,
    circuit_limit_w,
    fixed_lines,
    part_lines,
    power_unknown,
    psu_units,
    sizing_watts,
    spike_rated,
    wall_draw,
)


def _psu_facts(psu: Psu | None) -> tuple[float, str, bool]:
    """(rating in W or NaN, efficiency label, rated for spikes) as estimate_power reads them."""
    if psu is None:
        return np.nan, DEFAULT_RATING, True
    return (float(psu.wattage) if psu.wattage else np.nan), psu.efficiency or "?", spike_rated(psu)


def power_errors(
    base: Build, table: KindTable, codes: np.ndarray, first: list[int], already: frozenset[str]
) -> np.ndarray | None:
    """Rows whose part, added to `base`, makes the build fail psu-wattage or wall-circuit where `base` did not
    (`already`: the rule ids with an error in `base`, from Rule.errors). None for a build with two or more PSUs
    (each unit's share: units.py), which the rule's `run` judges."""
    if psu_units(base) > 1:
        return None
    c = Ctx(base)
    est = c.power
    kind = table.kind
    fixed_now = sum(line.load_w for line in fixed_lines(c.board, c.cpu, c.cooler is not None, bool(base.items)))
    reps = [table.part(i) for i in first]
    load, gpu, unknown = (np.empty(len(reps)) for _ in range(3))
    moves_fixed = kind in (Kind.MOTHERBOARD, Kind.CPU, Kind.COOLER)  # board line, boxed fan: the rest leave them
    fixed = sum(line.load_w for line in fixed_lines(c.board, c.cpu, c.cooler is not None, True))
    for j, p in enumerate(reps):
        own = part_lines(p, 1)
        if moves_fixed:
            board = p if kind is Kind.MOTHERBOARD else c.board
            cpu = p if kind is Kind.CPU else c.cpu
            has_cooler = c.cooler is not None or kind is Kind.COOLER
            fixed = sum(line.load_w for line in fixed_lines(board, cpu, has_cooler, True))
        load[j] = est.load_w - fixed_now + fixed + sum(line.load_w for line in own)
        gpu[j] = est.gpu_w + sum(line.load_w for line in own if line.kind is Kind.GPU)
        unknown[j] = bool(est.unknown) or power_unknown(p)
    psus: list[Any] = [p if kind is Kind.PSU else c.psu for p in reps]
    facts = [_psu_facts(p) for p in psus]
    psu_w = np.array([f[0] for f in facts])
    rating = np.array([f[1] for f in facts], dtype=object)
    atx3 = np.array([f[2] for f in facts], dtype=bool)
    has_psu = np.array([p is not None for p in psus], dtype=bool)
    known = (load > 0) & (unknown == 0)
    with np.errstate(invalid="ignore"):
        over_psu = has_psu & known & psu_overloaded(sizing_watts(load, gpu, atx3), psu_w)
    a = base.assumptions
    over_wall = known & circuit_overloaded(
        wall_draw(load, gpu, psu_w, rating, atx3), circuit_limit_w(a.wall_voltage, a.wall_amps)
    )
    bad = (over_psu & ("psu-wattage" not in already)) | (over_wall & ("wall-circuit" not in already))
    return ~bad[codes]
