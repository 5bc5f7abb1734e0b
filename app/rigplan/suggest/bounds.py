"""Lower bounds for the branch and bound, and the candidates-only catalog it searches.

Each bound relaxes a rule of rigplan.rules to the one condition that rule errors on, so it never exceeds the true
cheapest part: a CPU whose socket differs from the board's (fit.cpu_socket: an error when both are known and differ
after norm_socket), memory of another type (fit.memory_rules: mem.ram_type != board.ram_type), a case that does not
list the board's form factor (fit.board_form_factor: board_fits_case). A part whose value is unknown is "not
checked" by those rules, so it counts as fitting every board.
"""

from __future__ import annotations

from rigplan.catalog.loader import Catalog
from rigplan.model.parts import Kind
from rigplan.rules.context import board_fits_case, norm_socket

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
