"""A lower bound on the parts around n GPUs, whichever GPUs: the cheapest completion of the loosest card.

Why it is needed: the options are tried best first, and an option is skipped only when its GPUs plus a lower bound on
the other parts exceed the budget. Each kind's cheapest part is a weak bound for 2+ GPUs: the expert's minimums and
the slot rules ask far more of the board, CPU, memory and PSU than one GPU does (x8 per GPU from the CPU, 2 TB NVMe,
RAM >= 32 GB in a kit that fills the channels, a PSU of RigPlan's recommended size). "$1,500, most throughput" tried
143 two-GPU options, each proving by branch and bound that nothing fits (2.4 s).

The loosest card of a count asks the least any option of that count asks of every rule that reads a GPU
(rigplan.rules.engine.RULES and the strict extras in suggest.expert): the shortest length (gpu-length,
case-radiator-gpu), the narrowest slot width (gpu-expansion-slots, board-slot-positions, gpu-slot-lanes), the lowest
board power (psu-wattage, wall-circuit, psu-quantity and the recommended PSU size all grow with it), no power
connector (psu-pcie-connectors, gpu-eps-power: nothing to feed), an air cooler of its own (gpu-radiator) and the
least memory (the RAM minimum). Every rule only gets harder as a GPU fact grows from those values, so any build that
passes around a real option also passes around the loosest card: its cheapest completion costs no more than the real
option's. tests/test_suggest_relaxed.py checks it against brute force on reduced catalogs and against the real
options of most different facts on the full catalog, and holds answers equal with and without it.

Sound only while a GPU of unknown length, width, power or connectors fails its rules (those rules' "not checked"
counts as failing, suggest.expert.UNKNOWN; the rules that declare Rule.loosest_card): with parts of missing data
allowed, an unknown length passes a case a known short one would not, so no bound is used then.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from rigplan.model.parts import GpuPower
from rigplan.rules.engine import RULES
from rigplan.suggest.bounds import INF
from rigplan.suggest.found import Found, GpuOption

# The rules whose "not checked" must fail an option for the loosest card to bound it (module docstring): those
# that declare Rule.loosest_card.
NEEDS_UNKNOWN = frozenset(i for r in RULES if r.loosest_card for i in r.ids)
LOOSEST = "loosest card"


def loosest(options: Iterable[GpuOption], count: int) -> GpuOption | None:
    """The loosest card of the options with `count` GPUs, as an option of cost 0; None when no option of that count
    has all four facts known (every one of them then fails a strict rule, so none can complete)."""
    mine = [o.part for o in options if o.count == count]
    known = [g for g in mine if g.length_mm and g.slot_width and g.tdp_w and g.power_connectors is not None]
    if not known:
        return None
    card = known[0].model_copy(
        update={
            "id": "suggest-loosest",
            "name": LOOSEST,
            "manufacturer": None,
            "chipset": LOOSEST,
            "length_mm": min(g.length_mm or 0.0 for g in known),
            "slot_width": min(g.slot_width or 0.0 for g in known),
            "tdp_w": min(g.tdp_w or 0 for g in known),
            "power_connectors": GpuPower(),
            "cooling": "Blower",
            "vram_gb": min(g.vram_gb or 0.0 for g in known),
        }
    )
    return GpuOption(-1, card, count, 0.0, 0.0, 0.0, f"{LOOSEST} x{count}")


class RestFloor:
    """The bound per GPU count, searched once per count (the search's completion memo keeps what each cap proved).

    Patience is counted in search nodes, not time, so which path runs does not depend on the machine's load: the
    count's bound is searched once that count's completions that found nothing have visited `patience_nodes` nodes
    (ski rental: the loosest card's own completion costs about as much as a few dozen)."""

    # About 0.15 s of work on the machine of docs/performance.md (a completion counts one plus its nodes). The tests
    # set 0 (always) or a huge number (never).
    patience_nodes = 30

    def __init__(
        self,
        options: list[GpuOption],
        strict_unknown: frozenset[str],
        complete: Callable[[GpuOption, float], Found | None],
    ) -> None:
        """complete(option, cap_usd): the cheapest valid build around the option within cap_usd in all (always the
        cost-ordered completion, whatever the question's goal: a break-even search ranks its own by day)."""
        self.options = options
        self.sound = strict_unknown >= NEEDS_UNKNOWN
        self.complete = complete
        self.failed_nodes: dict[int, int] = {}  # per GPU count: nodes spent in completions that found nothing
        self._cards: dict[int, tuple[GpuOption | None, float]] = {}

    def spent(self, count: int, nodes: int, found: Found | None) -> None:
        """Record one completion of an option of `count` GPUs: its nodes count toward patience when it found
        nothing."""
        if found is None:
            self.failed_nodes[count] = self.failed_nodes.get(count, 0) + nodes

    def __call__(self, count: int, cap_usd: float, eager: bool = False) -> float:
        """A lower bound on what the parts other than the GPUs cost in any build of `count` GPUs within cap_usd in
        all (INF: no such build exists); 0 when no bound is sound (parts with missing data allowed) or none was
        searched yet (eager: search it now)."""
        if not self.sound:
            return 0.0
        if count not in self._cards:
            if not eager and self.failed_nodes.get(count, 0) < self.patience_nodes:
                return 0.0
            gpus = [o.cost_usd for o in self.options if o.count == count]
            self._cards[count] = (loosest(self.options, count), min(gpus, default=INF))
        card, cheapest_gpus = self._cards[count]
        if card is None or cheapest_gpus == INF:
            return INF
        # Under what the count's cheapest GPUs leave, so that one search serves every option of the count (the
        # completion memo keeps it: a completion found holds for every larger cap).
        found = self.complete(card, cap_usd - cheapest_gpus)
        return INF if found is None else found.total_usd
