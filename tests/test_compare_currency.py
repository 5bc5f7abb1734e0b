"""`rigplan compare` across currencies (issue 40): builds saved in GBP, EUR and USD are compared in one currency (the
first build's, or --currency) at the ECB reference rates of parts/fx_rates.yaml, the rate and its date are stated in
the text and the JSON, and only a currency without any rate is refused: one line, exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rigplan.cli.main import run_cli
from rigplan.costs.fx import electricity_price, load_fx
from rigplan.exports.plan import make_plan
from rigplan.files import load, save
from rigplan.wording import money

EX = Path(__file__).resolve().parents[1] / "examples"
USD = EX / "2x-rtx-4090.rigplan"


def saved_in(tmp: Path, source: str, currency: str, **more: object) -> Path:
    """A real build file in `currency`, as the app saves one after the currency is switched (shipping 25 in it)."""
    b = load(EX / f"{source}.rigplan")
    upd = {"currency": currency, "fx_rate": None, "electricity_per_kwh": None, "shipping": 25.0, **more}
    b = b.model_copy(update={"name": f"{b.name} {currency}", "assumptions": b.assumptions.model_copy(update=upd)})
    path = tmp / f"{source}-{currency}.rigplan"
    save(b, path)
    return path


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = run_cli(["compare", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_a_gbp_build_is_converted_to_the_first_builds_usd(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gbp = saved_in(tmp_path, "budget-1-gpu", "GBP")
    code, out, err = cli(capsys, str(USD), str(gbp), "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    fx = load_fx()
    rate = 1 / fx.rates["GBP"]  # USD per GBP, from units per USD
    assert data["currency"] == "USD"
    [conv] = data["conversions"]
    assert conv["build"] == "Budget single-GPU learner GBP" and (conv["from"], conv["to"]) == ("GBP", "USD")
    assert conv["rate"] == pytest.approx(rate, rel=1e-6)
    assert conv["rate_date"] == fx.date and conv["rate_basis"] == f"ECB reference rate of {fx.date}"
    uk = load(gbp)
    kwh, source = electricity_price(uk.assumptions)  # the UK price (Ofgem), kept: not the US default
    assert conv["electricity_per_kwh"] == {
        "from": kwh,
        "to": round(kwh * rate, 4),
        "source": source,
        "region": "Great Britain",
    }
    own = make_plan(uk).cost.own_breakdown  # the same build costed in its own GBP
    usd_fig, gbp_fig = data["builds"]
    assert gbp_fig["parts_cost"] == pytest.approx(own["parts"] * rate, abs=0.01)
    assert gbp_fig["upfront"] == pytest.approx((own["parts"] + 25.0) * rate, abs=0.01)  # shipping converted too
    assert usd_fig["parts_cost"] == pytest.approx(make_plan(load(USD)).cost.own_breakdown["parts"], abs=0.01)
    assert any(n.startswith("Budget single-GPU learner GBP: converted from GBP to USD") for n in data["notes"])

    code, text, _ = cli(capsys, str(USD), str(gbp))
    assert code == 0
    lines = text.splitlines()
    assert lines[0] == "Amounts in USD."
    assert lines[1].startswith(
        f"converted: Budget single-GPU learner GBP: converted from GBP to USD at 1 GBP = {rate:.4f} USD "
        f"(ECB reference rate of {fx.date}); its electricity £0.2635/kWh (Great Britain) kept as "
        f"{money('USD', round(0.2635 * rate, 4), 4)}/kWh"
    )
    parts = next(line for line in lines if line.startswith("Parts cost"))
    assert parts.split()[2:4] == [money("USD", usd_fig["parts_cost"]), money("USD", gbp_fig["parts_cost"])]
    assert sum("converted from GBP" in line for line in lines) == 1  # stated once, not again as a note


def test_currency_flag_converts_every_other_build(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gbp, eur = saved_in(tmp_path, "budget-1-gpu", "GBP"), saved_in(tmp_path, "4-gpu-threadripper", "EUR")
    code, out, _ = cli(capsys, str(USD), str(gbp), str(eur), "--currency", "eur", "--json")
    assert code == 0
    data = json.loads(out)
    fx = load_fx()
    assert data["currency"] == "EUR"
    convs = {c["from"]: c for c in data["conversions"]}
    assert set(convs) == {"USD", "GBP"}  # the EUR build is not converted
    assert convs["USD"]["rate"] == pytest.approx(fx.rates["EUR"], rel=1e-6)
    assert convs["GBP"]["rate"] == pytest.approx(fx.rates["EUR"] / fx.rates["GBP"], rel=1e-6)
    parts = make_plan(load(eur)).cost.own_breakdown["parts"]
    assert data["builds"][2]["parts_cost"] == pytest.approx(parts, abs=0.01)
    assert data["builds"][0]["parts_cost"] == pytest.approx(
        make_plan(load(USD)).cost.own_breakdown["parts"] * fx.rates["EUR"], abs=0.02
    )


def test_a_rate_the_owner_set_is_used_and_said(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    twd = saved_in(tmp_path, "budget-1-gpu", "TWD", fx_rate=32.0)  # the ECB publishes no TWD rate: the owner set one
    code, out, _ = cli(capsys, str(USD), str(twd), "--json")
    assert code == 0
    [conv] = json.loads(out)["conversions"]
    assert conv["rate"] == pytest.approx(1 / 32.0) and conv["rate_basis"] == "TWD rate set by the user"
    assert conv["rate_date"] is None


def test_a_currency_without_a_rate_is_refused_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    twd = saved_in(tmp_path, "budget-1-gpu", "TWD")
    code, out, err = cli(capsys, str(USD), str(twd))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "Budget single-GPU learner TWD: cannot convert from TWD to USD: no reference rate for TWD" in err
    code, out, err = cli(capsys, str(USD), str(USD), "--currency", "TWD")
    assert code == 2 and out == "" and "cannot compare in TWD: no reference rate for TWD" in err
    code, out, err = cli(capsys, str(USD), str(USD), "--currency", "XYZ")
    assert code == 2 and out == "" and err.startswith("rigplan: --currency XYZ: unknown currency code")
    assert "Traceback" not in err


def test_the_markdown_comparison_states_the_rate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gbp = saved_in(tmp_path, "budget-1-gpu", "GBP")
    out = tmp_path / "cmp.md"
    code, _, _ = cli(capsys, str(gbp), str(USD), "--out", str(out))
    assert code == 0
    text = out.read_text("utf-8")
    rate = load_fx().rates["GBP"]
    assert "Amounts in GBP" in text
    assert f"2x RTX 4090 workstation: converted from USD to GBP at 1 USD = {rate:.4f} GBP" in text
