"""The cost model: hand-checked examples, properties that must always hold, the CLI, offers and GPU speeds."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cli_in_process import rigplan_in_process
from rigplan.cloud.offers import load_offers
from rigplan.costs.analysis import analyse, cost_build, offer_input, sensitivity
from rigplan.costs.model import OfferInput, OwnInputs, compute, cost_at
from rigplan.costs.perf import gpu_speed, key, load_perf, offer_speed
from rigplan.files import load
from rigplan.model import Assumptions, Gpu, Pricing

ROOT = Path(__file__).resolve().parents[1]
ZERO = {"electricity_per_kwh": 0.0, "idle_hours_per_day": 0.0, "resale_fraction": 0.0}


def one(own: OwnInputs, hourly: float, a: Assumptions, speedup: float = 1.0, pricing: Pricing = Pricing.ON_DEMAND):
    report = compute(own, [OfferInput("x", "x", hourly, speedup, pricing)], a)
    return report, report.offers[0]


def rigplan(*args: str) -> subprocess.CompletedProcess[str]:
    return rigplan_in_process(*args, cwd=ROOT)  # the command's answer, not the process (tests/cli_in_process.py)


def test_p2_xlarge_blog_example_by_hand() -> None:
    # GBP 903 build = USD 1158; p2.xlarge spot at 0.38 $/h; 24 h a day; no electricity: 1158 / 0.38 = 3047 h = 127 d.
    out = rigplan(
        "cost",
        "--build-cost",
        "1158",
        "--instance",
        "p2.xlarge",
        "--hourly",
        "0.38",
        "--electricity",
        "0",
        "--hours-per-day",
        "24",
        "--json",
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    r = data["results"][0]
    # No GPU in a quick estimate: the speed ratio is unknown, so no day, only the instance hours the box's price buys.
    assert r["speedup"] is None and r["breakeven_days"] is None and r["breakeven_status"] == "speed-unknown"
    assert r["breakeven_instance_hours"] == pytest.approx(1158 / 0.38, abs=0.01)
    assert round(r["breakeven_instance_hours"]) == 3047 and round(r["breakeven_instance_hours"] / 24) == 127
    assert data["currency"] == "USD" and data["build_cost"] == 1158
    assert "0 W" in out.stderr and out.stderr.startswith("rigplan: warning:")  # the default it used, said once
    assert data["assumptions"]["electricity_per_kwh"] == 0 and data["assumptions"]["hours_per_day"] == 24
    assert set(r) >= {
        "instance",
        "region",
        "pricing",
        "hourly",
        "speedup",
        "breakeven_instance_hours",
        "breakeven_hours",
        "breakeven_days",
        "cost_at_horizon",
        "work_per_money",
    }
    # With the author's measured 1.88x, a desktop day replaces 1.88 instance days.
    out = rigplan(
        "cost",
        "--build-cost",
        "1158",
        "--instance",
        "p2.xlarge",
        "--hourly",
        "0.38",
        "--electricity",
        "0",
        "--hours-per-day",
        "24",
        "--speedup",
        "1.88",
        "--json",
    )
    r = json.loads(out.stdout)["results"][0]
    assert r["breakeven_days"] == pytest.approx(1158 / (0.38 * 1.88 * 24), abs=0.01) and r["speedup"] == 1.88


def test_dettmers_example_near_300_days() -> None:
    # $2,200 RTX 3090 build, $0.12/kWh, 450 W, 15 % utilisation (3.6 h/day), V100 at $2.14/h, same speed.
    a = Assumptions(electricity_per_kwh=0.12, hours_per_day=3.6, idle_hours_per_day=0, resale_fraction=0)
    _, r = one(OwnInputs(2200, 450, 0), 2.14, a)
    assert r.breakeven_days == pytest.approx(2200 / (2.14 * 3.6 - 0.45 * 3.6 * 0.12), rel=1e-9)
    assert 280 < r.breakeven_days < 310


def test_never_and_day_one_and_resale() -> None:
    a = Assumptions(**ZERO, horizon_years=1)
    _, r = one(OwnInputs(100000, 0, 0), 0.5, a)
    assert r.breakeven_days is None and r.status == "never"
    _, r = one(OwnInputs(0, 0, 0), 0.5, a)
    assert r.breakeven_days == 0 and r.status == "from-day-one"
    # Without resale the crossing is after the horizon; the resale at the horizon brings it home.
    resale = Assumptions(**{**ZERO, "resale_fraction": 0.5}, horizon_years=1, hours_per_day=10)
    _, r = one(OwnInputs(5000, 0, 0), 1.0, resale)  # 3650 by the horizon vs 5000 - 2500
    assert r.status == "at-horizon-with-resale" and r.breakeven_days == 365


def test_spot_overhead_storage_and_egress() -> None:
    a = Assumptions(
        **ZERO,
        hours_per_day=10,
        spot_overhead=0.2,
        storage_gb=100,
        storage_per_gb_month=0.1,
        egress_gb_month=50,
        egress_per_gb=0.09,
        horizon_years=1,
    )
    report, r = one(OwnInputs(1000, 0, 0), 1.0, a, pricing=Pricing.SPOT)
    c = r.cost_at_horizon
    assert c["compute"] == pytest.approx(10 * 365)
    assert c["spot_overhead"] == pytest.approx(10 * 365 * (1 / 0.8 - 1))
    assert c["storage"] == pytest.approx(10 * 12 * 365 / 365.25)
    assert c["egress"] == pytest.approx(4.5 * 12 * 365 / 365.25)
    assert c["total"] == pytest.approx(c["compute"] + c["spot_overhead"] + c["storage"] + c["egress"])


def test_currency_conversion() -> None:
    a = Assumptions(**ZERO, currency="EUR", fx_rate=0.9)
    report, r = one(OwnInputs(1000, 0, 0), 2.0, a)
    assert report.upfront == pytest.approx(900) and r.hourly == pytest.approx(1.8)
    assert r.breakeven_days == pytest.approx(1000 / 2 / 8)  # the rate cancels out


money = st.floats(min_value=100, max_value=20000)
rate = st.floats(min_value=0.05, max_value=40)
hours = st.floats(min_value=0.5, max_value=20)
watts = st.floats(min_value=0, max_value=2000)
kwh = st.floats(min_value=0, max_value=0.6)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(money, rate, rate, hours, watts, kwh, st.floats(min_value=0.2, max_value=5))
def test_dearer_instance_never_breaks_even_later(cost, r1, r2, h, w, price, s) -> None:
    a = Assumptions(hours_per_day=h, idle_hours_per_day=0, electricity_per_kwh=price, resale_fraction=0.3)
    own = OwnInputs(cost, w, w / 10)
    cheap, dear = sorted((r1, r2))
    _, c = one(own, cheap, a, s)
    _, d = one(own, dear, a, s)
    if c.breakeven_days is not None:
        assert d.breakeven_days is not None and d.breakeven_days <= c.breakeven_days + 1e-9


@settings(max_examples=300, deadline=None, derandomize=True)
@given(money, rate, hours, hours, watts, kwh, st.floats(min_value=0.2, max_value=5))
def test_more_hours_never_makes_breakeven_later_in_days(cost, r, h1, h2, w, price, s) -> None:
    # Holds whenever renting an hour of the desktop's work costs more than the electricity for it; when the cloud is
    # cheaper than the power bill, working more makes owning worse and the property rightly does not apply.
    if r * s <= w / 1000 * price:
        return
    lo, hi = sorted((h1, h2))
    own = OwnInputs(cost, w, w / 10)
    base = {"idle_hours_per_day": 0, "electricity_per_kwh": price, "resale_fraction": 0.3}
    _, a = one(own, r, Assumptions(hours_per_day=lo, **base), s)
    _, b = one(own, r, Assumptions(hours_per_day=hi, **base), s)
    if a.breakeven_days is not None:
        assert b.breakeven_days is not None and b.breakeven_days <= a.breakeven_days + 1e-9


@settings(max_examples=300, deadline=None, derandomize=True)
@given(money, rate, hours, watts, kwh, st.floats(min_value=0.2, max_value=5), st.floats(min_value=0, max_value=4))
def test_costs_are_equal_at_the_breakeven(cost, r, h, w, price, s, idle) -> None:
    a = Assumptions(hours_per_day=h, idle_hours_per_day=min(idle, 24 - h), electricity_per_kwh=price, storage_gb=200)
    report, o = one(OwnInputs(cost, w, w / 10), r, a, s)
    if o.status == "breaks-even":
        own_cost, cloud_cost = cost_at(report, o, o.breakeven_days)
        assert abs(own_cost - cloud_cost) < 0.01
        # and the daily curves agree with the closed form on whole days
        d = int(o.breakeven_days)
        assert report.own_curve[d] == pytest.approx(report.upfront + report.own_slope_per_day * d)


def test_offers_catalog() -> None:
    cat = load_offers()
    assert cat.problem is None and len(cat) > 1400
    assert {"aws", "gcp", "azure", "lambda"} <= set(cat.providers())
    p3 = cat.get("aws:p3.2xlarge:us-east-1")
    assert p3 is not None and p3.ondemand_usd_h == 3.06 and p3.gpu_model == "V100" and p3.gpu_count == 1
    old = cat.get("aws:p2.xlarge:us-east-1@2017-10")
    assert old is not None and old.ondemand_usd_h == 0.9 and old.reserved_1y_usd_h is not None
    assert old.data_date is not None and old.data_date.isoformat() == "2017-10-09"
    # Quirks are flagged, not hidden.
    nd = [o for o in cat.find(provider="azure") if o.instance_type == "Standard_ND96isr_H100_v5"]
    assert nd and all(o.gpu_count == 8 and any("12" in q for q in o.quirks) for o in nd)
    assert any("above on-demand" in q for o in cat.find(provider="gcp") for q in o.quirks)


def test_gpu_speeds_measured_and_estimated(catalog) -> None:  # noqa: ANN001
    perf = load_perf()
    cat = load_offers()
    v100 = offer_speed(perf, cat.get("aws:p3.2xlarge:us-east-1"))
    assert v100 is not None and v100.value == 1.0 and v100.kind == "measured"
    a100 = offer_speed(perf, cat.get("aws:p4d.24xlarge:us-east-1"))
    assert a100 is not None and a100.kind == "measured" and a100.value > 2
    t4 = offer_speed(perf, cat.find(instance="g4dn.xlarge")[0])
    assert t4 is not None and t4.kind == "estimate" and "estimate" in t4.basis and t4.value < 1
    rtx4090 = catalog.get("d2fa0e60-8fa4-4703-a741-ced72bac4e74")
    s = gpu_speed(perf, rtx4090)
    assert s is not None and s.kind == "measured" and 1.5 < s.value < 2.5 and "Lambda" in s.basis
    odd = Gpu(id="x", name="mystery", chipset="Unknown GPU 9000", fp32_tflops=40.0, memory_bandwidth_gbs=900.0)
    est = gpu_speed(perf, odd)
    assert est is not None and est.kind == "estimate"
    assert gpu_speed(perf, Gpu(id="y", name="no specs")) is None


def test_build_analysis_and_sensitivity(examples_dir: Path) -> None:
    perf = load_perf()
    cat = load_offers()
    b = load(examples_dir / "2x-rtx-4090.rigplan")
    offers = [cat.get("aws:p3.2xlarge:us-east-1"), cat.get("lambda:gpu_1x_a100:us-east-1")]
    report = analyse(b, offers, perf)
    assert len(report.offers) == 2 and report.upfront > 5000
    p3 = report.offers[0]
    two = 2 ** perf.models[key("RTX 4090")].own_scaling  # two cards: the 4090's own measured 2-GPU run, 1.71x
    assert two == pytest.approx(1.71, abs=0.01)
    assert p3.speedup == pytest.approx(1.976 * two, rel=0.01)  # vs 1x V100
    assert p3.breakeven_days is not None and p3.breakeven_days < report.offers[1].breakeven_days
    costing = cost_build(b, perf)
    bars = sensitivity(costing.own, offer_input(offers[0], b.assumptions, perf, costing.own.throughput), b.assumptions)
    names = [x.name for x in bars]
    assert {"Parts cost", "Cloud price", "Speed ratio", "Electricity price", "Hours per day"} <= set(names)
    parts = next(x for x in bars if x.name == "Parts cost")
    assert parts.low_days < parts.base_days < parts.high_days  # dearer parts -> later break-even
    cloud = next(x for x in bars if x.name == "Cloud price")
    assert cloud.low_days > cloud.base_days > cloud.high_days


def test_cost_cli_bad_values_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    """Each bad value: exit 2 and one line on stderr. The first through a real `python -m rigplan` process (the exit
    status and stream as a shell sees them), the rest through the same entry point in this process (run_cli, what
    `python -m rigplan` calls for a subcommand): 13 interpreter starts fewer, about 8 s of the suite."""
    from rigplan.cli.main import run_cli

    real = [sys.executable, "-m", "rigplan", "cost", "--build-cost", "-1", "--instance", "p3.2xlarge"]
    out = subprocess.run(real, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "Traceback" not in out.stderr, out.stderr
    for args in (
        ("--build-cost", "-1", "--instance", "p3.2xlarge"),
        ("--build-cost", "nan", "--instance", "p3.2xlarge"),
        ("--build-cost", "inf", "--instance", "p3.2xlarge"),
        ("--build-cost", "100", "--instance", "no.such.instance"),
        ("--build-cost", "100", "--instance", "gpu_1x_a100", "--pricing", "spot"),
        ("--build-cost", "100", "--instance", "p3.2xlarge", "--currency", "XYZ", "--rate", "2"),
        ("--build-cost", "100", "--instance", "p3.2xlarge", "--hours-per-day", "30"),
        ("--build-cost", "100", "--instance", "p3.2xlarge", "--spot-overhead", "1.0"),  # would divide by zero
        ("--build-cost", "100", "--instance", "p3.2xlarge", "--horizon", "0"),  # a zero horizon
        ("--build-cost", "100", "--instance", "p3.2xlarge", "--currency", "TWD"),  # no ECB rate, none given
        ("--build-cost", "100", "--instance", "p3.2xlarge", "--resale-curve", "0.5,0.4"),
        ("--build-cost", "100", "--instance", "p3.2xlarge", "--precision", "fp8"),
        ("--build-cost", "100", "--instance", "p3.2xlarge", "--fx-rate", "2"),  # a rate for USD itself
        ("--build-cost", "100", "--instance", "p3.2xlarge", "--job-hours", "10", "--job-days", "2"),
    ):
        code = run_cli(["cost", *args])
        err = capsys.readouterr().err
        assert code == 2, args
        assert err.count("\n") == 1 and err.startswith("rigplan: "), (args, err)


def test_instances_list_filters() -> None:
    out = rigplan("instances", "list", "--provider", "aws", "--gpu", "V100", "--region", "us-east-1", "--json")
    assert out.returncode == 0
    data = json.loads(out.stdout)
    assert data["count"] >= 4
    assert all(
        o["provider"] == "aws" and "V100" in o["gpu_model"] and o["region"] == "us-east-1" for o in data["offers"]
    )


def test_offers_from_the_compiled_file_alone(tmp_path: Path) -> None:
    # The installers ship cloud/offers.json without offers.yaml; with neither, the catalog is empty and says why.
    src = Path(__file__).resolve().parents[1] / "parts" / "cloud" / "offers.json"
    (tmp_path / "offers.json").write_bytes(src.read_bytes())
    cat = load_offers(tmp_path)
    assert cat.problem is None and len(cat) == len(load_offers())
    (tmp_path / "offers.json").unlink()
    gone = load_offers(tmp_path)
    assert len(gone) == 0 and gone.problem is not None and "not found" in gone.problem
