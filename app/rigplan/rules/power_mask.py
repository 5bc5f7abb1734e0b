"""The power rules (psu-wattage, wall-circuit: one vector each) over a whole kind of the catalog, with numpy.

Power adds up, so it is faster to add each candidate's own lines (power.part_lines) and the fixed lines it changes
(power.fixed_lines) to the build's estimate than to estimate every candidate's build: the same line functions that
estimate_power sums, the same sizing_watts / wall_draw / circuit_limit_w, and the same decisions as the messages
in electrical.py (psu_overloaded, circuit_overloaded). Per distinct power facts of the candidates (engine.POWER_FACTS),
then spread over the rows.
"""

from __future__ import annotations

import numpy as np

from rigplan.catalog.loader import KindTable
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


class _Reps:
    """A table's representatives (one per distinct power facts) with what each adds by itself: its own lines' load
    and GPU load, whether its power is unknown, and (PSUs) its rating facts. Cached on the table per `first` list
    (rule.keys_of keeps one per rule), since none of it depends on the build."""

    def __init__(self, table: KindTable, first: list[int]) -> None:
        self.first = first  # kept: the cache is keyed by its id
        self.parts = [table.part(i) for i in first]
        own = [part_lines(p, 1) for p in self.parts]
        self.load = np.array([sum(line.load_w for line in lines) for lines in own], dtype=float)
        self.gpu = np.array([sum(ln.load_w for ln in lines if ln.kind is Kind.GPU) for lines in own], dtype=float)
        self.unknown = np.array([power_unknown(p) for p in self.parts], dtype=bool)
        self.fixed: dict[tuple[object, ...], np.ndarray] = {}
        if table.kind is Kind.PSU:
            facts = [_psu_facts(p) for p in self.parts]  # type: ignore[arg-type]
            self.psu_w = np.array([f[0] for f in facts], dtype=float)
            self.rating = np.array([f[1] for f in facts], dtype=object)
            self.atx3 = np.array([f[2] for f in facts], dtype=bool)


def _reps(table: KindTable, first: list[int]) -> _Reps:
    """The table's representatives for `first` (the power rules share one facts function, engine.POWER_FACTS, so
    rule.keys_of gives them one `first` list per table)."""
    hit: _Reps | None = table.caches.get("power_reps")
    if hit is None or hit.first is not first:
        hit = table.caches["power_reps"] = _Reps(table, first)
    return hit


def _fixed(reps: _Reps, kind: Kind, c: Ctx) -> np.ndarray:
    """The fixed lines' load (board and chipset, a boxed fan, case fans) with each representative in the build, for
    the kinds that change them (board, CPU, cooler). fixed_lines reads the board's socket, the CPU's socket and
    boxed cooler, and whether a cooler is chosen: the cache key."""
    board, cpu = c.board, c.cpu
    key = (
        board.socket if board and kind is not Kind.MOTHERBOARD else None,
        (cpu.socket, cpu.includes_cooler) if cpu and kind is not Kind.CPU else None,
        c.cooler is not None or kind is Kind.COOLER,
    )
    hit = reps.fixed.get(key)
    if hit is None:
        hit = reps.fixed[key] = np.array(
            [
                sum(
                    line.load_w
                    for line in fixed_lines(
                        p if kind is Kind.MOTHERBOARD else board, p if kind is Kind.CPU else cpu, bool(key[2]), True
                    )
                )
                for p in reps.parts
            ],
            dtype=float,
        )
    return hit


def psu_wattage_errors(
    c: Ctx, table: KindTable, codes: np.ndarray, first: list[int], already: frozenset[str]
) -> np.ndarray | None:
    """Rows whose part, added to the build of `c`, makes it fail psu-wattage where it did not (`already`: the rule
    ids with an error in the build, from Rule.errors). None for a build with two or more PSUs (units.py), which the
    rule's `run` judges."""
    if "psu-wattage" in already:  # an error there already: no candidate adds it
        return np.ones(len(codes), dtype=bool)
    over = _over(c, table, first)
    return None if over is None else ~over[0][codes]


def wall_circuit_errors(
    c: Ctx, table: KindTable, codes: np.ndarray, first: list[int], already: frozenset[str]
) -> np.ndarray | None:
    """The same for wall-circuit."""
    if "wall-circuit" in already:
        return np.ones(len(codes), dtype=bool)
    over = _over(c, table, first)
    return None if over is None else ~over[1][codes]


def _over(c: Ctx, table: KindTable, first: list[int]) -> tuple[np.ndarray, np.ndarray] | None:
    """Per representative: (over the PSU's rating, over the wall circuit) with it in the build. The filter asks
    both rules of the same build in turn (compat.compatible_mask passes one Ctx): the second answer is the first's."""
    last = table.caches.get("power_last")
    if last is not None and last[0] is c and last[1] is first:
        return last[2]  # type: ignore[no-any-return]
    over = _compute(c, table, first)
    table.caches["power_last"] = (c, first, over)
    return over


def _compute(c: Ctx, table: KindTable, first: list[int]) -> tuple[np.ndarray, np.ndarray] | None:
    base = c.build
    if psu_units(base) > 1:
        return None
    est = c.power
    kind = table.kind
    reps = _reps(table, first)
    n = len(reps.parts)
    fixed_now = sum(line.load_w for line in fixed_lines(c.board, c.cpu, c.cooler is not None, bool(base.items)))
    if kind in (Kind.MOTHERBOARD, Kind.CPU, Kind.COOLER):  # board line, boxed fan: the rest leave them
        fixed: np.ndarray | float = _fixed(reps, kind, c)
    else:
        fixed = sum(line.load_w for line in fixed_lines(c.board, c.cpu, c.cooler is not None, True))
    load = est.load_w - fixed_now + fixed + reps.load
    gpu = est.gpu_w + reps.gpu
    unknown = reps.unknown | bool(est.unknown)
    if kind is Kind.PSU:
        psu_w, rating, atx3 = reps.psu_w, reps.rating, reps.atx3
        has_psu = np.ones(n, dtype=bool)
    else:
        w, r, spikes = _psu_facts(c.psu)
        psu_w, rating, atx3 = np.full(n, w), np.full(n, r, dtype=object), np.full(n, spikes, dtype=bool)
        has_psu = np.full(n, c.psu is not None, dtype=bool)
    known = (load > 0) & ~unknown
    with np.errstate(invalid="ignore"):
        over_psu = has_psu & known & psu_overloaded(sizing_watts(load, gpu, atx3), psu_w)
    a = base.assumptions
    over_wall = known & circuit_overloaded(
        wall_draw(load, gpu, psu_w, rating, atx3), circuit_limit_w(a.wall_voltage, a.wall_amps)
    )
    return over_psu, over_wall
