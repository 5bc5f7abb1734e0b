"""The question a buyer asks: a budget, a goal and constraints. Plain data, no Qt."""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rigplan.model.common import Price
    from rigplan.model.offers import Offer


class Goal(StrEnum):
    THROUGHPUT = "throughput"  # the most training throughput (V100-equivalents, rigplan.costs.perf)
    VRAM = "vram"  # the most GPU memory in total (then the most throughput)
    CHEAPEST_THROUGHPUT = "cheapest-throughput"  # the cheapest build reaching `target` V100-equivalents
    CHEAPEST_VRAM = "cheapest-vram"  # the cheapest build reaching `target` GB of GPU memory in total
    BREAKEVEN = "breakeven"  # the earliest break-even against the cloud offer `beat` (rigplan.suggest.breakeven)


class SuggestError(ValueError):
    """A question with no answer (impossible constraints, unknown part): one line for the user."""


@dataclass(frozen=True)
class FitNeed:
    """ "Must fit this workload", as data (issue 28): the GB of memory per GPU the workload needs as set on each
    number of GPUs, and the strategy that needs it. The CLI and the GUI compute it with rigplan.workload (a sibling
    package the suggester does not import) and pass it in."""

    label: str  # "Llama 3.1 70B, qlora, sequence 2048, micro-batch 1"
    per_gpu_gb: tuple[tuple[int, float, str], ...]  # (GPU count, GB per GPU, strategy)

    def need(self, gpus: int) -> tuple[float, str] | None:
        """(GB per GPU, strategy) on this many GPUs; None: not sized for that count (then it does not qualify)."""
        return next(((gb, how) for n, gb, how in self.per_gpu_gb if n == gpus), None)


@dataclass(frozen=True)
class Question:
    budget: float | None = None  # in `currency`; None: no limit (only for the cheapest-... goals)
    currency: str = "USD"
    goal: Goal = Goal.THROUGHPUT
    target: float | None = None  # throughput or total VRAM for the cheapest-... goals
    gpus: int | None = None  # exactly this many GPUs; None: any count from 1 to max_gpus
    max_gpus: int = 4
    min_vram_gb: float = 0.0  # per GPU
    # None: the expert's minimum (suggest/expert.py) when `expert` is on, else none; a number overrides it.
    min_ram_gb: float | None = None
    min_storage_gb: float | None = None
    min_cores: int | None = None
    case_form: str | None = None  # case size class as the catalog names it ("ATX Mid Tower", "MicroATX Mini Tower")
    include: tuple[str, ...] = ()  # catalog part ids that must be in the build
    beat: Offer | None = None  # the cloud offer to beat (goal BREAKEVEN)
    # "My own prices too": part id -> the user's price (a build's own prices, the user's price layer). They take
    # the catalog price's place and make unpriced parts searchable; the answer carries them as its own prices.
    own_prices: tuple[tuple[str, Price], ...] = ()
    # Leave out boards of this CPU maker ("AMD", "Intel"): the other-platform runner-up.
    platform_not: str | None = None
    # Boards and CPUs of older platforms (AM4, TRX40, X99, X299 and before: suggest.found.CURRENT_SOCKETS): None lets
    # them in below $5,000 and names them only as the cheaper alternative from there; True or False decides.
    older_platforms: bool | None = None
    # An expert's minimums (docs/suggest.md, "An expert's minimums"): RAM >= GPU memory in a kit that fills the
    # channels, cores and lanes per GPU, an NVMe SSD, a PSU and connectors without a warning, a roomy case for 3+.
    expert: bool = True
    # Unknown is not a pass: a part that leaves a rule that matters "not checked" is not chosen unless this is set
    # (then the answer lists every such rule).
    allow_missing_data: bool = False
    # Must fit this workload: each GPU holds at least the workload's memory per GPU for that many GPUs.
    fit: FitNeed | None = None
    # With `expert` on, the workload may fill at most suggest.expert.FULL_SHARE (90 %) of each card's memory; False
    # asks for the tight fits alone (the no-answer's named alternative, suggest.tight).
    fit_room: bool = True
    # The balance stage's essentials as minimums of the search itself (system RAM twice the GPUs' memory, a cooler
    # rated for the CPU): set by the answer when the best GPUs leave an essential over the budget and it trades
    # them for a set that has every essential (suggest.answer: _trade, docs/suggest.md).
    essentials: bool = False

    def __post_init__(self) -> None:
        # A goal given as its text ("vram", as Qt item data comes back) is the Goal itself: `is` comparisons hold.
        object.__setattr__(self, "goal", Goal(self.goal))

    def counts(self) -> list[int]:
        return [self.gpus] if self.gpus else list(range(1, self.max_gpus + 1))

    def validate(self) -> None:
        for name in ("budget", "target", "min_vram_gb", "min_ram_gb", "min_storage_gb"):
            value = getattr(self, name)
            if value is not None and not math.isfinite(value):  # nan passes every comparison: the search never ends
                raise SuggestError(f"{name.replace('_', ' ')} must be a finite number, not {value}")
        if self.budget is not None and self.budget <= 0:
            raise SuggestError(f"the budget must be positive, not {self.budget:g}")
        if self.budget is None and self.goal in (Goal.THROUGHPUT, Goal.VRAM):
            raise SuggestError(f"the goal '{self.goal.value}' needs a budget")
        if self.goal in (Goal.CHEAPEST_THROUGHPUT, Goal.CHEAPEST_VRAM) and (self.target is None or self.target <= 0):
            raise SuggestError(f"the goal '{self.goal.value}' needs a positive target")
        if self.goal is Goal.BREAKEVEN and self.beat is None:
            raise SuggestError("the goal 'breakeven' needs a cloud offer to beat (e.g. --beat aws:p3.2xlarge)")
        if self.gpus is not None and not 1 <= self.gpus <= 8:
            raise SuggestError(f"the number of GPUs must be 1 to 8, not {self.gpus}")
        if not 1 <= self.max_gpus <= 8:
            raise SuggestError(f"the most GPUs must be 1 to 8, not {self.max_gpus}")
        if self.fit is not None and any(not math.isfinite(gb) or gb <= 0 for _, gb, _ in self.fit.per_gpu_gb):
            raise SuggestError(f"the workload's memory per GPU must be a positive number ({self.fit.label})")
        for name in ("min_vram_gb", "min_ram_gb", "min_storage_gb", "min_cores"):
            if (getattr(self, name) or 0) < 0:
                raise SuggestError(f"{name.replace('_', ' ')} cannot be negative")
