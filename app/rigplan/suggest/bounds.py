"""Lower bounds for the branch and bound, and the candidates-only catalog it searches.

Each bound relaxes a rule of rigplan.rules to the one condition that rule errors on, so it never exceeds the true
cheapest part: a CPU whose socket differs from the board's (fit.cpu_socket: an error when both are known and differ
after norm_socket), memory of another type (memory.memory_type: mem.ram_type != board.ram_type), a case that does not
list the board's form factor (fit.board_form_factor: board_fits_case). A part whose value is unknown is "not
checked" by those rules, so it counts as fitting every board.
"""

from __future__ import annotations

import numpy as np

from rigplan.catalog.loader import Catalog, KindTable
from rigplan.model.build import Build
from rigplan.model.parts import Cooler, Cpu, Kind, Memory, Part, Psu, Storage
from rigplan.rules.context import board_fits_case, norm_socket
from rigplan.rules.electrical import circuit_overloaded, psu_overloaded
from rigplan.rules.power import (
    TRANSIENT_SHARE,
    VRM_LOSS,
    circuit_limit_w,
    cooler_watts,
    cpu_watts,
    estimate_power,
    memory_watts,
    recommended_psu,
    spike_rated,
    storage_watts,
    wall_draw,
    wall_watts,
)
from rigplan.suggest.found import ORDER  # the order of `lists`

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
    """Per-board lower bounds on the rest of a build (lists: candidates per kind in found.ORDER, cheapest first)."""

    def __init__(self, sub: Catalog, lists: list[list[tuple[float, int]]]) -> None:
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
    atx3 = np.array([spike_rated(p) if isinstance(p, Psu) else False for p in parts])
    n = len(rows)
    draw = wall_draw(np.full(n, est.load_w), np.full(n, est.gpu_w), watts, rating, atx3)
    a = partial.assumptions
    ok = np.isnan(watts) | ~circuit_overloaded(draw, circuit_limit_w(a.wall_voltage, a.wall_amps))
    return [c for c, keep in zip(candidates, ok.tolist(), strict=True) if keep]


def peak_w(part: Part) -> float:
    """The peak load (W) a part adds in rigplan.rules.power.estimate_power (CPU with its regulator losses)."""
    if isinstance(part, Memory):
        return memory_watts(part)[0]
    if isinstance(part, Storage):
        return storage_watts(part)[0]
    if isinstance(part, Cooler):
        return cooler_watts(part)[0]
    if isinstance(part, Cpu):
        return cpu_watts(part)[0] * (1 + VRM_LOSS)
    return 0.0


BOXED_FAN_W = cooler_watts(None)[0]


class PowerRoom:
    """What the chosen PSU has left, for pruning parts that cannot all fit under its rating or the wall circuit.

    The vectorised filter asks whether one candidate adds an error next to the parts chosen so far; near the PSU's
    limit each of the remaining parts may fit alone while no set of them fits together (a drive and then any
    cooler with a fan). This bound adds to the chosen parts' peak load the least peak load each kind still to
    choose can add (its lightest compatible candidate), and drops a candidate when even that exceeds what the
    psu-wattage rule (sizing load > rating) or the wall-circuit rule allows: those errors then appear in every
    completion. Used only when every power figure is known (an unknown one makes both rules "not checked").
    """

    def __init__(self, partial: Build, recommend: bool = False) -> None:
        """recommend: a PSU below RigPlan's recommended size for the load counts as over (the expert's minimums
        treat psu-wattage's warning as failing; the recommendation, too, only grows with the load)."""
        self.ok = False
        self.recommend = recommend
        psu = partial.first(Kind.PSU)
        if not isinstance(psu, Psu) or not psu.wattage:
            return
        est = estimate_power(partial)
        if est.unknown:
            return
        self.cooler_chosen = partial.first(Kind.COOLER) is not None
        # The boxed-fan line stands in for a cooler not chosen yet; a chosen cooler may draw less.
        self.load = sum(ln.load_w for ln in est.lines if self.cooler_chosen or ln.kind is not Kind.COOLER)
        self.spikes = 0.0 if spike_rated(psu) else TRANSIENT_SHARE * est.gpu_w
        self.gpu_w, self.atx3 = est.gpu_w, spike_rated(psu)
        self.psu = psu
        a = partial.assumptions
        self.limit = circuit_limit_w(a.wall_voltage, a.wall_amps)
        cpu = partial.first(Kind.CPU)
        self.boxed_possible = cpu is None or (isinstance(cpu, Cpu) and bool(cpu.includes_cooler))
        self.need: dict[int, float] = {}  # per level still to choose: the least peak load it can add
        self.rest_cache: dict[tuple[int, float], float] = {}
        self._head: float | None = None
        self.ok = True

    def _over(self, extra_w: float) -> bool:
        load = self.load + extra_w
        rated = float(self.psu.wattage or 0)
        if self.recommend and recommended_psu(load, self.gpu_w, self.atx3) > rated:
            return True
        # psu-wattage's and wall-circuit's own decisions (rules.electrical), on the load these parts add up to.
        return bool(
            psu_overloaded(load, rated, self.gpu_w, self.atx3)
            or circuit_overloaded(wall_watts(load, self.psu), self.limit)
        )

    def headroom(self) -> float:
        """The most watts that still fit (-inf: none). Both limits only tighten as the load grows (the wall draw
        rises with the load: bounds.wall_feasible), so over() is a threshold and one bisection finds it."""
        if self._head is None:
            hi = float(self.psu.wattage or 0) - self.load  # psu-wattage errs on the sustained load past the rating
            if hi < 0 or self._over(0.0):
                self._head = -INF
            elif not self._over(hi):
                self._head = hi
            else:
                lo = 0.0
                while hi - lo > 1e-6:
                    mid = (lo + hi) / 2
                    lo, hi = (lo, mid) if self._over(mid) else (mid, hi)
                self._head = lo
        return self._head

    def over(self, extra_w: float) -> bool:
        """True when the chosen parts plus extra_w more exceed the PSU's rating or the wall circuit."""
        head = self.headroom()
        if extra_w <= head:
            return False
        return extra_w > head + 1e-5 or self._over(extra_w)  # at the threshold itself, the exact test
