"""The assumptions behind the cost model: currencies, resale curve, job mode, unknown speeds, old files, the CLI."""

from __future__ import annotations

import json
import math
import subprocess
from pathlib import Path

import pytest

from cli_in_process import rigplan_in_process
from rigplan.cloud.offers import load_offers
from rigplan.costs.analysis import analyse, cost_build
from rigplan.costs.fx import load_fx, rate_for
from rigplan.costs.jobs import jobs
from rigplan.costs.model import OfferInput, OwnInputs, compute
from rigplan.costs.perf import load_perf, offer_speed
from rigplan.costs.resale import default_curve, resale_share, retained
from rigplan.files import load
from rigplan.model import Assumptions

ROOT = Path(__file__).resolve().parents[1]


def rigplan(*args: str) -> subprocess.CompletedProcess[str]:
    return rigplan_in_process(*args, cwd=ROOT)  # the command's answer, not the process (tests/cli_in_process.py)


def test_old_file_loads_and_old_defaults_mean_the_new_model(examples_dir: Path) -> None:
    b = load(ROOT / "tests" / "data" / "v1" / "budget-1-gpu-v1.rigplan.yaml")
    a = b.assumptions
    # usd_rate 1.0 / resale 0.4 / scaling 0.8 were written into every format-1 file as defaults
    assert a.fx_rate is None and a.resale_fraction is None and a.scaling_desktop is None and a.scaling_cloud is None
    assert a.electricity_per_kwh == 0.17 and a.precision.value == "mixed"
    # a value the user chose survives: EUR at 0.92, resale 0.3, scaling 0.5 for both sides
    mine = Assumptions.model_validate(
        {"currency": "EUR", "usd_rate": 0.92, "resale_fraction": 0.3, "scaling_efficiency": 0.5}
    )
    assert (mine.fx_rate, mine.resale_fraction, mine.scaling_desktop, mine.scaling_cloud) == (0.92, 0.3, 0.5, 0.5)
    # the relabelling bug: a ZAR file at 1.0 ZAR per USD takes the ECB rate instead
    zar = Assumptions.model_validate({"currency": "ZAR", "usd_rate": 1.0})
    assert zar.fx_rate is None and rate_for(zar).per_usd > 10


def test_currencies_convert_at_dated_ecb_rates() -> None:
    fx = load_fx()
    assert fx.date >= "2026-01-01" and "European Central Bank" in fx.source
    eur = rate_for(Assumptions(currency="EUR"))
    assert 0.7 < eur.per_usd < 1.1 and fx.date in eur.basis
    own = OwnInputs(1000, 0, 0)
    usd_report = compute(own, [], Assumptions())
    zar_report = compute(own, [], Assumptions(currency="ZAR"))
    assert zar_report.upfront == pytest.approx(1000 * fx.rates["ZAR"])  # converted, not relabelled
    assert usd_report.upfront == 1000
    mine = compute(own, [], Assumptions(currency="ZAR", fx_rate=20.0))
    assert mine.upfront == 20000 and "set by the user" in mine.fx_basis


def test_resale_curve_by_age() -> None:
    curve, basis = default_curve()
    assert 0 < curve[3] < curve[2] < curve[1] < curve[0] < 1 and "used-market" in basis
    assert retained(curve, 0) == 1.0 and retained(curve, 3) == curve[2]
    assert retained(curve, 4) == pytest.approx((curve[2] + curve[3]) / 2)
    assert 0.1 <= retained(curve, 10) < curve[3]
    assert resale_share(Assumptions(horizon_years=1))[0] == curve[0]
    assert resale_share(Assumptions(resale_fraction=0.25))[0] == 0.25
    assert resale_share(Assumptions(resale_curve=(0.9, 0.8, 0.7, 0.5), horizon_years=2))[0] == 0.8
    with pytest.raises(ValueError):
        Assumptions(resale_curve=(0.9, 0.8, 1.7, 0.5))


def test_unknown_speed_is_unknown() -> None:
    a = Assumptions(electricity_per_kwh=0, idle_hours_per_day=0)
    report = compute(OwnInputs(1000, 0, 0), [OfferInput("x", "x", 2.0, None)], a)
    assert report.offers == [] and len(report.speed_unknown) == 1
    u = report.speed_unknown[0]
    assert u.breakeven_instance_hours == 500 and u.status == "speed-unknown"


def test_a_build_without_gpu_speed_gets_no_day(examples_dir: Path) -> None:
    b = load(examples_dir / "2x-rtx-4090.rigplan")
    dl1 = load_offers().find(instance="dl1.24xlarge")[0]  # Gaudi: no GPU speed applies
    report = analyse(b, [dl1])
    assert report.offers == [] and report.speed_unknown[0].id == dl1.id


def test_job_mode() -> None:
    own = OwnInputs(2000, 500, 50, throughput=2.0)
    offer = OfferInput("x", "x", 3.0, 2.0, throughput=1.0)
    # a 400 V100-hour run: 200 desktop hours (throughput 2), 400 instance hours (throughput 1)
    a = Assumptions(job_hours=400, electricity_per_kwh=0.2, resale_fraction=0.5, jobs_per_year=4)
    (j,) = jobs(own, [offer], a)
    assert j.own_hours == 200 and j.instance_hours == 400
    assert j.own_cost == pytest.approx(200 * 0.5 * 0.2) and j.cloud_cost == pytest.approx(1200)
    assert j.jobs_to_win == math.ceil(2000 / (1200 - 20)) == 2 and j.jobs_to_win_with_resale == 1
    assert j.years_to_win == 0.5 and j.status == "owning-wins-after"
    # "10 projects of 12 days a year": 12 days x 8 h on the desktop = 96 h, 192 instance hours at ratio 2
    (p,) = jobs(own, [offer], Assumptions(job_days=12, jobs_per_year=10))
    assert p.own_hours == 96 and p.instance_hours == 192 and p.cloud_cost == pytest.approx(576)
    # cheaper to rent than to power: never
    (n,) = jobs(own, [OfferInput("y", "y", 0.01, 2.0, throughput=1.0)], a)
    assert n.status == "never" and n.jobs_to_win is None
    with pytest.raises(ValueError):
        Assumptions(job_hours=1, job_days=1)


def test_scaling_per_side(examples_dir: Path) -> None:
    b = load(examples_dir / "2x-rtx-4090.rigplan")
    base = cost_build(b).own.throughput
    loader = b.model_copy(update={"assumptions": b.assumptions.model_copy(update={"scaling_desktop": 0.18})})
    assert cost_build(loader).own.throughput == pytest.approx(base / two_4090s() * 1.18, rel=1e-3)


def two_4090s() -> float:
    """Two RTX 4090s by default: the 4090's own measured multi-GPU runs (Lambda 2025: 2x = 1.71x one)."""
    from rigplan.costs.perf import key, load_perf

    return 2 ** load_perf().models[key("RTX 4090")].own_scaling


def test_cost_help_lists_every_assumption() -> None:
    out = rigplan("cost", "--help")
    assert out.returncode == 0
    text = " ".join(out.stdout.split())
    for name, field in Assumptions.model_fields.items():
        assert "--" + name.replace("_", "-") in text, name
        assert " ".join(field.description.split())[:40] in text, name


@pytest.mark.slow
def test_cost_cli_load_watts_keeps_idle_and_reports_statuses(examples_dir: Path) -> None:
    build = str(examples_dir / "2x-rtx-4090.rigplan")
    base = json.loads(rigplan("cost", build, "--instance", "p3.2xlarge", "--json").stdout)["assumptions"]
    out = json.loads(rigplan("cost", build, "--instance", "p3.2xlarge", "--load-watts", "900", "--json").stdout)
    assert (
        out["assumptions"]["load_wall_watts"] == 900
        and out["assumptions"]["idle_wall_watts"] == base["idle_wall_watts"] > 0
    )
    # owning wins only through the resale at the horizon: said so, not given as a crossing day
    args = (
        "cost",
        "--build-cost",
        "5000",
        "--instance",
        "p3.2xlarge",
        "--hourly",
        "1",
        "--hours-per-day",
        "8",
        "--speedup",
        "1",
        "--horizon",
        "1",
        "--resale",
        "0.5",
        "--load-watts",
        "1",
        "--electricity",
        "0",
    )
    data = json.loads(rigplan(*args, "--json").stdout)
    assert data["results"][0]["breakeven_status"] == "at-horizon-with-resale"
    text = rigplan(*args).stdout
    assert "only through resale at the horizon" in text


@pytest.mark.slow
def test_cost_json_is_always_finite(examples_dir: Path) -> None:
    runs = [
        ("--build-cost", "0", "--instance", "p2.xlarge", "--instance", "dl1.24xlarge", "--hourly", "0.01"),
        ("--build-cost", "1e9", "--instance", "p5.48xlarge", "--pricing", "spot", "--spot-overhead", "0.999"),
        (
            str(examples_dir / "4-gpu-threadripper.rigplan"),
            "--instance",
            "p3.16xlarge",
            "--job-hours",
            "400",
            "--jobs-per-year",
            "3",
            "--currency",
            "JPY",
            "--precision",
            "fp32",
            "--hours-per-day",
            "24",
        ),
    ]
    for args in runs:
        out = rigplan("cost", *args, "--json")
        assert out.returncode == 0, out.stderr
        json.loads(out.stdout, parse_constant=lambda c, a=args: pytest.fail(f"{c} in JSON for {a}"))


def test_a_custom_gpu_is_estimated_by_the_same_rules_as_the_table() -> None:
    from rigplan.costs.perf import gpu_speed, key, load_perf
    from rigplan.model import Gpu

    for precision in ("mixed", "fp32"):
        perf = load_perf(precision=precision)
        for chipset, tflops, bw in (("GeForce GTX 1070 Ti", 8.186, 256.3), ("GeForce RTX 4060 Ti", 22.06, 288.0)):
            mine = Gpu(id="x", name="custom", chipset=f"My {chipset}", fp32_tflops=tflops, memory_bandwidth_gbs=bw)
            s = gpu_speed(perf, mine)
            assert s is not None and s.kind == "estimate"
            assert s.value == pytest.approx(perf.chipsets[key(chipset)].value, rel=0.01), (precision, chipset)


def test_snapshot_quirks_are_flagged() -> None:
    cat = load_offers()
    p2 = cat.get("aws:p2.xlarge:us-east-1@quoted-2022-02-08")
    assert p2 is not None and p2.spot_usd_h == 0.27 and any("exactly 30 %" in q for q in p2.quirks)
    same = [o for o in cat.offers if o.spot_usd_h and o.spot_usd_h == o.ondemand_usd_h]
    assert same and all(any("equals on-demand" in q for q in o.quirks) for o in same)
    odd = [o for o in cat.find(provider="gcp") if o.instance_type == "a2-ultragpu-1g"]
    assert any(any("cheaper than a2-highgpu-1g" in q for q in o.quirks) for o in odd)
    # fractional-GPU types are listed (issue 17) as a slice, flagged, and get no speed (a slice of an L4 is not a GPU)
    g6f = cat.get("aws:g6f.xlarge:us-east-1")
    assert g6f is not None and g6f.gpu_fraction == 0.125 and any("fractional GPU" in q for q in g6f.quirks)
    assert offer_speed(load_perf(), g6f) is None
    assert cat.get("aws:g4dn.xlarge:us-east-1").ondemand_usd_h == 0.526


def test_a_desktop_gpu_without_figures_makes_the_ratio_unknown(examples_dir: Path) -> None:
    from rigplan.model import BuildItem, Gpu, Kind, Price

    b = load(examples_dir / "2x-rtx-4090.rigplan")
    mystery = Gpu(id="m", name="Mystery GPU", custom=True, price=Price(amount=1000))
    items = tuple(i for i in b.items if i.part.kind is not Kind.GPU) + (BuildItem(part=mystery, quantity=4),)
    report = analyse(b.model_copy(update={"items": items}), [load_offers().get("aws:p3.8xlarge:us-east-1")])
    # was: ratio 1.0 against a whole 4x V100 instance, break-even in days; now unknown, instance hours only
    assert report.offers == [] and report.speed_unknown[0].breakeven_instance_hours > 0
    assert "unknown" in report.speed_unknown[0].speedup_basis


def test_azure_gpu_slices_are_fractions() -> None:
    """Azure NVv4 sizes rent 1/8, 1/4 or 1/2 of one Radeon Instinct MI25 (Microsoft Learn, NVv4-series); the SkyPilot
    catalog says "1 GPU, 16 GB" for each, which priced a slice as a whole card."""
    from rigplan.cloud.offers import load_offers

    offers = load_offers()
    nv4 = offers.get("azure:Standard_NV4as_v4:eastus")
    nv32 = offers.get("azure:Standard_NV32as_v4:eastus")
    assert nv4 is not None and nv32 is not None
    assert nv4.gpu_fraction == 0.125 and nv4.vram_gb_each == 2.0 and "0.125 of 1 Radeon MI25" in nv4.label
    assert any("slice of one Radeon MI25" in q for q in nv4.quirks)
    assert nv32.gpu_fraction is None and nv32.vram_gb_each == 16.0
