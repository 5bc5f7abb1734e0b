"""cooler-capacity (issue 37): the CPU cooler's rated capacity against the heat the CPU sustains.

The CPU's figure is its sustained power, not its TDP: rules.part_power.cpu_boost_w, i.e. the maker's PPT / PL2
where the catalog has it, else the family rule (AMD AM4/AM5: PPT = 1.35 x TDP, AMD's default socket power limit;
Threadripper: PPT = TDP; Intel 10th-14th gen and Core Ultra: PL2 / Maximum Turbo Power, 253 W for a 125 W K part).
A cooler's rating is the maker's figure or a published measurement of the model (parts/cooler-ratings.yaml, each
with its source; a measured one is marked inferred). Noctua's own guidance explains why the CPU's TDP is the wrong
figure to hold a cooler to: "95W" or "105W" CPUs emit 150 W or more in their turbo modes (noctua.at, "Noctua's
Standardised Performance Rating (NSPR)").

Unknown rating: "not checked", which the suggester accepts (not strict: no cooler for sTRX4 or sTR5 has a sourced
rating yet, so strict would leave every 3-4 GPU question without an answer; docs/checks.md). A
rating below the CPU's sustained power: a warning (the CPU throttles under an all-core load; the expert's minimums
refuse it)."""

from __future__ import annotations

from rigplan.model.parts import Kind
from rigplan.rules.context import Ctx
from rigplan.rules.part_power import cpu_boost_w

K = Kind


def cooler_capacity(c: Ctx) -> None:
    if not (c.cooler and c.cpu):
        return
    need = cpu_boost_w(c.cpu)
    if need is None:
        c.unchecked("cooler-capacity", "the CPU's power is unknown", (K.CPU,))
        return
    rated = c.cooler.rated_tdp_w
    if rated is None:
        c.unchecked(
            "cooler-capacity",
            f"the {c.cooler.name}'s rating is not in the data (no maker's figure or published"
            f" measurement): check it is rated for the CPU's {need[0]:,.0f} W sustained boost ({need[1]})",
            (K.COOLER,),
        )
    elif rated < need[0]:
        c.warn(
            "cooler-capacity",
            f"The cooler is rated for {rated:,.0f} W; the CPU sustains {need[0]:,.0f} W ({need[1]}): it will"
            " throttle under an all-core load.",
            f"Choose a cooler rated for at least {need[0]:,.0f} W.",
            [c.cooler, c.cpu],
            (K.COOLER, K.CPU),
        )
