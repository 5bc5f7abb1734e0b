"""The "beat a cloud offer" goal: the build whose cost of owning is overtaken soonest by renting the same work.

A build's break-even day comes from the cost model itself (rigplan.costs.model.breakeven on the figures
rigplan.costs.analysis computes for the build), so the suggester and the Costs workspace never disagree. With
upfront U(C) = C k (1 + tax) + shipping for parts costing C (USD), the desktop's cost per day e(P) from its wall
power P, and the cloud's cost per day r(T) for the desktop's daily work at throughput T:

    day = U(C) / (r(T) - e(P))       when that is positive and within the horizon;
    the horizon                      when only resale at the horizon tips it ("at-horizon-with-resale");
    never                            otherwise.

The GPU option fixes T and most of P; the other parts add cost and a little power. `bound(option, C)` uses the
cheapest C the option can have and the least power any build with these GPUs can draw (the GPUs' training and idle
figures plus the smallest figure rigplan.rules.power gives each other part, through the best PSU efficiency 80 PLUS
defines), so it never exceeds the real day: the search can order options by it and stop at the first too late, and
`cap_usd` turns the best day found so far into the most a build can cost and still beat it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rigplan.costs.analysis import cost_build, offer_input
from rigplan.costs.commitment import term_days
from rigplan.costs.fx import electricity_price, rate_for
from rigplan.costs.model import breakeven, cloud_slope, horizon_days, own_terms
from rigplan.costs.perf import PerfTable
from rigplan.costs.resale import resale_share
from rigplan.model.assumptions import Assumptions
from rigplan.model.build import Build
from rigplan.model.offers import Offer
from rigplan.model.parts import Gpu, Kind, Memory, Psu, Storage
from rigplan.rules.power import EIGHTY_PLUS, UNKNOWN_EFFICIENCY, estimate_power, gpu_watts
from rigplan.wording import BreakEven

if TYPE_CHECKING:
    from rigplan.suggest.found import GpuOption

NEVER = math.inf
# The least each non-GPU part adds in rigplan.rules.power (training W, idle W): board and chipset 10/6, one memory
# module 3/1, an SSD 2/0.5, the case fans 4.5/2; a CPU of unknown power and a fanless cooler add nothing.
OTHER_TRAIN_MIN_W = 10.0 + 3.0 + 2.0 + 4.5
OTHER_IDLE_MIN_W = 6.0 + 1.0 + 0.5 + 2.0
BEST_EFFICIENCY = max(max(points.values()) for points in EIGHTY_PLUS.values())  # 94 %, 80 PLUS Titanium at 50 %


@dataclass(frozen=True)
class Score:
    days: float  # the break-even day, NEVER when renting stays cheaper
    status: BreakEven | None  # the cost model's verdict; None for a bound (no build was costed)
    total_usd: float

    def key(self) -> tuple[float, float]:
        return (self.days, self.total_usd)


class Breakeven:
    def __init__(self, offer: Offer, a: Assumptions, perf: PerfTable) -> None:
        if offer.hourly(a.pricing) is None:
            raise ValueError(f"{offer.id} has no {a.pricing.value} price; choose another pricing")
        if term_days(a.pricing) is not None:
            # A commitment is paid for whole terms, whatever is used (rigplan.costs.commitment): a stepped curve
            # the day formula below does not describe. Said, not approximated.
            raise ValueError(
                f"the earliest break-even is searched against on-demand or spot prices, not {a.pricing.value} "
                "commitments; compare a suggested build with a commitment in the Costs tab"
            )
        self.offer, self.a, self.perf = offer, a, perf
        self.horizon = float(horizon_days(a))
        k = rate_for(a).per_usd
        self.per_usd_upfront = k * (1 + a.tax_fraction)
        self.per_usd_at_horizon = k * (1 + a.tax_fraction - resale_share(a)[0])
        self.shipping = a.shipping
        self._cloud: dict[float, float] = {}

    # -- the real figure -----------------------------------------------------------------------------------------
    def score(self, build: Build, total_usd: float) -> Score:
        costing = cost_build(build, self.perf)
        inp = offer_input(self.offer, self.a, self.perf, costing.own.throughput)
        up, per_day, resale = own_terms(costing.own, self.a)
        if inp.speedup is None:
            return Score(NEVER, BreakEven.SPEED_UNKNOWN, total_usd)
        day, status = breakeven(up, per_day, resale, sum(cloud_slope(inp, self.a)), int(self.horizon))
        return Score(NEVER if day is None else day, status, total_usd)

    # -- bounds --------------------------------------------------------------------------------------------------
    def cloud_day(self, throughput: float) -> float:
        """What renting the desktop's daily work costs a day, at the desktop's throughput (a speed ratio the user
        set wins, as in the cost model)."""
        if throughput not in self._cloud:
            inp = offer_input(self.offer, self.a, self.perf, throughput)
            self._cloud[throughput] = NEVER if inp.speedup is None else sum(cloud_slope(inp, self.a))
        return self._cloud[throughput]

    def _own_day(self, load_dc: float, idle_dc: float, efficiency: float) -> float:
        a = self.a
        load_w = a.load_watts if a.load_watts is not None else load_dc / efficiency
        idle_w = a.idle_watts if a.idle_watts is not None else idle_dc / efficiency
        return (load_w * a.hours_per_day + idle_w * a.idle_hours_per_day) / 1000 * electricity_price(a)[0]

    def own_day_min(self, gpu: Gpu, count: int) -> float:
        """The least a day of owning can cost in electricity with these GPUs, whatever the other parts."""
        _, idle, train = gpu_watts(gpu)
        return self._own_day(train * count + OTHER_TRAIN_MIN_W, idle * count + OTHER_IDLE_MIN_W, BEST_EFFICIENCY)

    def own_day_floor(self, partial: Build) -> float:
        """The same for a partial build: what its chosen parts draw (rigplan.rules.power), the least each missing
        kind adds, through the best efficiency its PSU (or any PSU, when none is chosen yet) reaches."""
        est = estimate_power(partial)
        cooler_chosen = partial.first(Kind.COOLER) is not None
        # The boxed fan line is there while no cooler is chosen; a fanless cooler could still replace it.
        lines = [ln for ln in est.lines if cooler_chosen or ln.kind is not Kind.COOLER]
        load = sum(ln.train_w for ln in lines)
        idle = sum(ln.idle_w for ln in lines)
        if not isinstance(partial.first(Kind.MEMORY), Memory):
            load, idle = load + 3.0, idle + 1.0
        if not isinstance(partial.first(Kind.STORAGE), Storage):
            load, idle = load + 2.0, idle + 0.5
        psu = partial.first(Kind.PSU)
        best = BEST_EFFICIENCY
        if isinstance(psu, Psu):
            points = EIGHTY_PLUS.get(psu.efficiency or "")
            best = max(points.values()) if points else UNKNOWN_EFFICIENCY
        return self._own_day(load, idle, best)

    def _terms(self, gpu: Gpu, count: int, throughput: float, own: float | None = None) -> tuple[float, float, float]:
        cloud = self.cloud_day(throughput)
        own = self.own_day_min(gpu, count) if own is None else own
        return cloud, own, cloud - own

    def bound(self, gpu: Gpu, count: int, throughput: float, total_usd: float) -> float:
        """The earliest day any build with these GPUs costing at least total_usd can break even (never later than
        its real day)."""
        cloud, own, gain = self._terms(gpu, count, throughput)
        if math.isinf(cloud):
            return NEVER
        upfront = total_usd * self.per_usd_upfront + self.shipping
        if upfront <= 0 and gain >= 0:
            return 0.0
        if gain > 0 and upfront / gain <= self.horizon:
            return upfront / gain
        at_horizon = total_usd * self.per_usd_at_horizon + self.shipping + own * self.horizon
        return self.horizon if cloud * self.horizon >= at_horizon else NEVER

    def cap_usd(
        self, gpu: Gpu, count: int, throughput: float, best_days: float, own_floor: float | None = None
    ) -> float:
        """The most a build with these GPUs can cost and still have a bound at or before best_days (own_floor: a
        tighter electricity floor for the builds below a node of the search)."""
        if math.isinf(best_days):
            return math.inf
        cloud, own, gain = self._terms(gpu, count, throughput, own_floor)
        if math.isinf(cloud):
            return -math.inf
        cap = -math.inf
        if gain > 0:
            cap = (min(best_days, self.horizon) * gain - self.shipping) / self.per_usd_upfront
        if best_days >= self.horizon and self.per_usd_at_horizon > 0:
            cap = max(cap, (cloud * self.horizon - self.shipping - own * self.horizon) / self.per_usd_at_horizon)
        return cap

    # -- the search's objective ----------------------------------------------------------------------------------
    def cap_for(self, option: GpuOption, score: Score, rest_cap: float, own_floor: float | None = None) -> float:
        """The most the non-GPU parts may cost for a build with this option to beat `score` (an equal day at a lower
        price included), within rest_cap; own_floor: the electricity floor below a node of the search."""
        if math.isinf(score.days):  # renting always wins so far: a build that breaks even at all, or a cheaper one
            cap = max(
                self.cap_usd(option.part, option.count, option.throughput, self.horizon, own_floor), score.total_usd
            )
        else:
            cap = self.cap_usd(option.part, option.count, option.throughput, score.days, own_floor)
        return min(rest_cap, cap - option.cost_usd) + 1e-9

    def day_bound(self, o: GpuOption, total_usd: float) -> float:
        """The earliest day a build of this option costing at least total_usd can break even."""
        return self.bound(o.part, o.count, o.throughput, total_usd)


def better(a: Score, b: Score | None) -> bool:
    """Earlier break-even first, then the lower price."""
    if b is None:
        return True
    if a.days == b.days or abs(a.days - b.days) <= 1e-9:
        return a.total_usd < b.total_usd - 1e-9
    return a.days < b.days
