"""Reserved instances (and savings plans, should a source list them) as commitments, not as cheaper hours.

A 1- or 3-year commitment buys an instance for every hour of its term, used or not, plus any upfront payment at the
start of each term (AWS EC2 User Guide, Reserved Instance billing: billed for every clock-hour of the term, whether
or not an instance is running; paraphrased, see docs/cost-model.md). To rent the desktop's daily work the user commits
enough instances to run it around the clock: n = ceil(hours of work a day x speed ratio / 24). When the horizon ends
inside a term, the rest of that term is still owed and is added on the last day (as resale is subtracted there).
"""

from __future__ import annotations

import math

import numpy as np

from rigplan.model.assumptions import Pricing
from rigplan.wording import BreakEven

TERM_DAYS = {Pricing.RESERVED_1Y: 365, Pricing.RESERVED_3Y: 3 * 365}


def term_days(pricing: Pricing) -> int | None:
    return TERM_DAYS.get(pricing)


def instances_needed(hours_per_day: float, speedup: float) -> int:
    """Committed instances that run the desktop's daily work: instance-hours a day over 24, rounded up, at least 1."""
    return max(1, math.ceil(hours_per_day * speedup / 24 - 1e-9))


def commitment_curve(days: np.ndarray, per_day: float, upfront: float, term: int) -> tuple[np.ndarray, float, int]:
    """(cumulative cost by day, the rest of the running term owed at the horizon, terms begun by the horizon)."""
    terms = np.maximum(1.0, np.ceil(days / term))  # day 0 opens the first term; day term+1 the second
    curve = per_day * days + upfront * terms
    horizon = float(days[-1])
    end = math.ceil(horizon / term) * term if horizon > 0 else term
    rest = (end - horizon) * per_day
    curve[-1] += rest
    return curve, rest, int(terms[-1])


def first_crossing(own: np.ndarray, cloud: np.ndarray) -> tuple[float | None, BreakEven]:
    """Break-even of a curve with steps (a commitment): the first day cloud >= own, interpolated within the day."""
    last = len(own) - 1
    hit = np.nonzero(cloud >= own)[0]
    if not len(hit):
        return None, BreakEven.NEVER
    i = int(hit[0])
    if i == 0:
        return 0.0, BreakEven.FROM_DAY_ONE
    if i == last:
        return float(last), BreakEven.AT_HORIZON_WITH_RESALE
    gap0, gap1 = own[i - 1] - cloud[i - 1], own[i] - cloud[i]
    frac = gap0 / (gap0 - gap1) if gap0 != gap1 else 1.0
    return i - 1 + float(frac), BreakEven.BREAKS_EVEN
