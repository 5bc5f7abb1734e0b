"""Reserved pricing as a commitment: every hour of the term is paid whether used or not, an upfront part at the
start of each term, and the rest of a term running at the horizon still owed (rigplan.costs.commitment)."""

from __future__ import annotations

import pytest

from rigplan.cloud.offers import load_offers
from rigplan.costs.analysis import analyse, offer_input
from rigplan.costs.model import OfferInput, OwnInputs, compute
from rigplan.files import load
from rigplan.model import Assumptions, Pricing

OWN = OwnInputs(parts_usd=5000.0, load_wall_w=600.0, idle_wall_w=60.0, throughput=2.0)


def _a(**kw: object) -> Assumptions:
    base = dict(hours_per_day=8.0, idle_hours_per_day=0.0, horizon_years=2.0, tax_fraction=0.0, shipping=0.0)
    base.update(kw)
    return Assumptions(**base)


def test_three_year_commitment_is_paid_in_full_on_a_two_year_horizon() -> None:
    a = _a()
    o = OfferInput("x", "x", 0.459, 1.0, Pricing.RESERVED_3Y, 2.0)
    r = compute(OWN, [o], a).offers[0]
    # 8 h of work a day at speed ratio 1 needs one instance, paid 24 h a day: 0.459 * 24 = 11.016 a day
    assert r.slope_per_day == pytest.approx(11.016)
    horizon = 730
    # the third year is still owed at the end of the second: in compute, and named
    assert r.cost_at_horizon["compute"] == pytest.approx(11.016 * 3 * 365)
    assert r.cost_at_horizon["of_which_owed_after_horizon"] == pytest.approx(11.016 * 365)
    assert r.curve[-1] == pytest.approx(11.016 * 3 * 365)
    # the same rate on demand costs a third of that (8 of 24 hours)
    od = compute(OWN, [OfferInput("x", "x", 0.459, 1.0, Pricing.ON_DEMAND, 2.0)], a).offers[0]
    assert od.cost_at_horizon["total"] == pytest.approx(0.459 * 8 * horizon)


def test_upfront_is_paid_at_each_term_start_and_more_work_needs_more_instances() -> None:
    a = _a(hours_per_day=20.0, horizon_years=2.0)
    o = OfferInput("x", "x", 0.3, 1.5, Pricing.RESERVED_1Y, 2.0, upfront_usd=1000.0)
    r = compute(OWN, [o], a).offers[0]
    # 20 h x 1.5 = 30 instance-hours a day: two instances around the clock
    assert r.slope_per_day == pytest.approx(2 * 24 * 0.3)
    assert r.curve[0] == pytest.approx(2000.0)  # two upfront payments on day 0
    assert r.curve[366] - r.curve[365] == pytest.approx(2000.0 + 2 * 24 * 0.3)  # renewal the day after a year
    assert r.cost_at_horizon["of_which_upfront"] == pytest.approx(4000.0)
    assert r.cost_at_horizon["of_which_owed_after_horizon"] == 0.0
    assert r.cost_at_horizon["compute"] == pytest.approx(2 * 24 * 0.3 * 730 + 4000.0)
    assert r.breakeven_days is not None and r.curve[int(r.breakeven_days) + 1] >= OWN.parts_usd


def test_reserved_offer_of_the_catalog_goes_through_the_model(examples_dir) -> None:  # noqa: ANN001
    build = load(examples_dir / "2x-rtx-4090.rigplan")
    offer = load_offers().get("aws:p2.xlarge:us-east-1@2017-10")
    assert offer is not None and offer.reserved_3y_usd_h == 0.459 and offer.snapshot == "2017-10"
    inp = offer_input(offer, build.assumptions, None, 2.0, pricing=Pricing.RESERVED_3Y)
    assert (inp.hourly_usd, inp.upfront_usd) == (0.459, 0.0)
    report = analyse(build, [offer], pricing=Pricing.RESERVED_3Y)
    res = report.offers[0]
    assert res.pricing is Pricing.RESERVED_3Y and "of_which_owed_after_horizon" in res.cost_at_horizon
    assert any("committed 24 h a day for 3 year(s)" in n for n in report.notes)
