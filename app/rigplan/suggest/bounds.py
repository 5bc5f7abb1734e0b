"""Lower bounds for the branch and bound, and the candidates-only catalog it searches.

Each bound relaxes a rule of rigplan.rules to the one condition that rule errors on, so it never exceeds the true
cheapest part: a CPU whose socket differs from the board's (fit.cpu_socket: an error when both are known and differ
after norm_socket), memory of another type (fit.memory_rules: mem.ram_type != board.ram_type), a case that does not
list the board's form factor (fit.board_form_factor: board_fits_case). A part whose value is unknown is "not
checked" by those rules, so it counts as fitting every board.
"""

from __future__ import annotations

import numpy as np

from rigplan.catalog.loader import Catalog, KindTable
from rigplan.model.build import Build
from rigplan.model.parts import Kind, Psu
from rigplan.rules.context import board_fits_case, norm_socket
from rigplan.rules.electrical import circuit_limit_w
from rigplan.rules.filters import wall_draw
from rigplan.rules.power import estimate_power, is_atx3

INF = float("inf")


def _min_by(lst: list[tuple[float, int]], keys: list[object]) -> tuple[dict[object, float], float]:
    """Cheapest price per key value, and the cheapest among parts whose key is unknown (they fit any)."""
    out: dict[object, float] = {}
    unknown = INF
    for price, row in lst:
        k = keys[row]
        if k is None:
            unknown = min(unknown, price)
        elif price < out.get(k, INF):
            out[k] = price
    return out, unknown


class Bounds:
    """Per-board lower bounds on the rest of a build (lists: candidates per kind in search.ORDER, cheapest first)."""

    def __init__(self, sub: Catalog, lists: list[list[tuple[float, int]]]) -> None:
        from rigplan.suggest.search import ORDER  # the order of `lists`

        self.order = ORDER
        self.global_min = [
            lst[0][0] if lst and k is not Kind.COOLER else 0.0 for k, lst in zip(ORDER, lists, strict=True)
        ]
        cpus = sub.table(Kind.CPU)
        sockets = [norm_socket(s) if s else None for s in cpus.column("socket")]
        self.cpu_by_socket, self.cpu_unknown = _min_by(lists[ORDER.index(Kind.CPU)], sockets)  # type: ignore[arg-type]
        mem = sub.table(Kind.MEMORY)
        self.mem_by_type, self.mem_unknown = _min_by(lists[ORDER.index(Kind.MEMORY)], mem.column("ram_type"))
        self.cases = lists[ORDER.index(Kind.CASE)]
        self.case_ffs = sub.table(Kind.CASE).column("motherboard_form_factors")
        self.case_by_ff: dict[str, float] = {}
        boards = sub.table(Kind.MOTHERBOARD)
        self.b_socket = boards.column("socket")
        self.b_ram = boards.column("ram_type")
        self.b_ff = boards.column("form_factor")

    def _case(self, ff: str | None) -> float:
        if not ff:
            return self.global_min[self.order.index(Kind.CASE)]
        if ff not in self.case_by_ff:
            self.case_by_ff[ff] = next(
                (p for p, r in self.cases if not self.case_ffs[r] or board_fits_case(ff, self.case_ffs[r])), INF
            )
        return self.case_by_ff[ff]

    def with_board(self, row: int, price: float) -> list[float]:
        """rest[d]: a lower bound on the cost of the kinds at depth d and after, this board chosen (rest[0] is the
        whole build's bound but the GPUs)."""
        lb = list(self.global_min)
        lb[0] = price
        sock = self.b_socket[row]
        cpu_d, mem_d, case_d = (self.order.index(k) for k in (Kind.CPU, Kind.MEMORY, Kind.CASE))
        if sock:
            lb[cpu_d] = min(self.cpu_by_socket.get(norm_socket(sock), INF), self.cpu_unknown)
        ram = self.b_ram[row]
        if ram:
            lb[mem_d] = min(self.mem_by_type.get(ram, INF), self.mem_unknown)
        lb[case_d] = self._case(self.b_ff[row])
        rest = [0.0] * (len(lb) + 1)
        for d in range(len(lb) - 1, -1, -1):
            rest[d] = rest[d + 1] + lb[d]
        return rest


def wall_feasible(partial: Build, candidates: list[tuple[float, int]], psus: KindTable) -> list[tuple[float, int]]:
    """The PSU candidates through which `partial` (GPUs and board, no CPU yet) stays within the wall circuit.

    Needed because the vectorised filter reports only errors a candidate *adds*: once the GPUs alone exceed the
    circuit under the default Gold-unit assumption, every PSU "adds" nothing and the branch and bound would try them
    all. Sound: with a PSU of known wattage the wall draw (load / efficiency at that load) only grows as parts are
    added (80 PLUS curves rise more slowly than the load, rigplan.rules.power.efficiency), so a PSU that fails here
    fails in every completion. The caller uses it only when no CPU candidate has an unknown power figure (that would
    make the wall-circuit rule "not checked"). PSUs of unknown wattage are kept (their efficiency is taken at a
    recommended size that steps with the load).
    """
    est = estimate_power(partial)
    if est.unknown or not candidates:
        return candidates
    rows = [r for _, r in candidates]
    parts = [psus.part(r) for r in rows]
    watts = np.array([float(p.wattage) if isinstance(p, Psu) and p.wattage else np.nan for p in parts])
    rating = np.array([(p.efficiency if isinstance(p, Psu) else None) or "?" for p in parts], dtype=object)
    atx3 = np.array([is_atx3(p) if isinstance(p, Psu) else False for p in parts])
    n = len(rows)
    draw = wall_draw(np.full(n, est.load_w), np.full(n, est.gpu_w), watts, rating, atx3)
    a = partial.assumptions
    ok = np.isnan(watts) | (draw <= circuit_limit_w(a.wall_voltage, a.wall_amps))
    return [c for c, keep in zip(candidates, ok.tolist(), strict=True) if keep]
