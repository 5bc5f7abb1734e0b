"""estimate_power's wall peak comes from `wall_draw_one`, a one-build copy of the suggester's array `wall_draw` (the
arrays cost more than the sum for a single check()). The two must agree to the bit, or a build's check() and the
suggester's power bound would disagree: every load, GPU share, PSU size (known, unknown, undersized), 80 Plus rating
(every one, unknown, misspelt) and ATX 3 flag of a grid."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from rigplan.rules.power import EIGHTY_PLUS, wall_draw, wall_draw_one

# 500 W with no GPU sizes to 550 W exactly, a PSU size: the two size searches must take the same side of it.
LOADS = [0.0, 1.0, 35.5, 120.0, 333.3, 500.0, 650.0, 899.9, 1000.0, 1200.0, 1750.0, 2600.0, 4100.0]
GPU_SHARES = [0.0, 0.3, 0.75, 1.0]
PSUS = [None, 100.0, 450.0, 850.0, 1000.0, 1600.0, 3200.0]
RATINGS = [*sorted(EIGHTY_PLUS), "?", "80+ Mythril"]


@pytest.mark.parametrize("atx3", [True, False])
@pytest.mark.parametrize("rating", RATINGS)
def test_one_build_equals_the_array_form(rating: str, atx3: bool) -> None:
    cases = [(load, load * share, psu) for load, share, psu in itertools.product(LOADS, GPU_SHARES, PSUS)]
    arrays = wall_draw(
        np.array([c[0] for c in cases]),
        np.array([c[1] for c in cases]),
        np.array([np.nan if c[2] is None else c[2] for c in cases]),
        np.array([rating] * len(cases), dtype=object),
        atx3,
    )
    ones = [wall_draw_one(load, gpu, psu, rating, atx3) for load, gpu, psu in cases]
    assert ones == arrays.tolist()
    assert ones[0] == 0.0 and max(ones) > max(LOADS)  # no load draws nothing; losses put the wall above the DC load
