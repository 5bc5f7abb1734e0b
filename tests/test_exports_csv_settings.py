"""The parts CSV carries the build's setting (issue 40): after the parts and one blank row, a
`setting,value,unit,source` table with the user's notes (whole, sanitised as every export is), the parts total, the
electricity price with its currency, region and source, the use, the saved workload and its estimates, the currency
and the rate and date of every price quoted in another currency. Real build files, exported by `rigplan export`, read
back with the csv module."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from rigplan.cli.main import run_cli
from rigplan.costs.fx import load_fx
from rigplan.exports.plan import make_plan
from rigplan.exports.tables import PARTS_HEADER, SETTINGS_HEADER
from rigplan.files import load, save
from rigplan.model.common import Price
from rigplan.model.electricity import DEFAULT_KWH
from rigplan.model.other import OtherCategory, OtherItem
from rigplan.model.workload import WorkloadSpec
from rigplan.printable import printable
from rigplan.workload.describe import plan_lines

EX = Path(__file__).resolve().parents[1] / "examples"
# A note as users write them: several paragraphs, commas, quotes, a line starting with '=', and, pasted from
# somewhere, a terminal escape and a right-to-left override. Long: a note is never cut (about 40,000 characters).
NOTE = (
    'Quote from "Shop A", 3 cards, delivery in May.\n\n=SUM(A1:A9) is how the budget sheet adds it up\n'
    "colour \x1b[31mred\x1b[0m and an override \u202e here\n" + "Longer thoughts on cooling. " * 1400
)


def export(tmp: Path, build_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[list[dict], dict[str, list[dict]]]:
    """`rigplan export --format csv -o`, then the file read back: the parts table, and the setting rows by name."""
    out = tmp / "parts.csv"
    assert run_cli(["export", str(build_path), "--format", "csv", "-o", str(out)]) == 0
    capsys.readouterr()
    with out.open(newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    blank = rows.index([])  # the parts end at the first blank row; the setting table follows
    assert rows[0] == PARTS_HEADER and rows[blank + 1] == SETTINGS_HEADER
    parts = [dict(zip(PARTS_HEADER, r, strict=True)) for r in rows[1:blank]]
    settings: dict[str, list[dict]] = {}
    for r in rows[blank + 2 :]:
        settings.setdefault(r[0], []).append(dict(zip(SETTINGS_HEADER, r, strict=True)))
    return parts, settings


def test_a_gbp_build_says_its_notes_electricity_and_rate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    b = load(EX / "budget-1-gpu.rigplan")
    a = b.assumptions.model_copy(update={"currency": "GBP", "fx_rate": None, "electricity_per_kwh": None})
    build = b.model_copy(update={"assumptions": a, "notes": NOTE})
    save(build, tmp_path / "uk.rigplan")
    parts, s = export(tmp_path, tmp_path / "uk.rigplan", capsys)
    assert len(parts) == len(build.items) and parts[0]["kind"] == "cpu" and parts[0]["currency"] == "USD"
    [notes] = s["notes"]
    assert notes["value"] == printable("'" + NOTE.strip() if NOTE.startswith("=") else NOTE.strip())
    assert "\x1b" not in notes["value"] and "\\x1b[31mred" in notes["value"] and "\\u202e" in notes["value"]
    assert "\n=SUM(A1:A9)" in notes["value"]  # a formula mid-cell is text already; only a leading one is escaped
    assert notes["value"].count("Longer thoughts on cooling.") == 1400  # never cut
    gbp = DEFAULT_KWH["GBP"]
    assert s["electricity_price"] == [
        {"setting": "electricity_price", "value": "0.2635", "unit": "GBP per kWh", "source": gbp.source}
    ]
    assert s["electricity_region"][0]["value"] == "Great Britain"
    assert s["currency"][0]["value"] == "GBP"
    fx = load_fx()
    [rate] = s["exchange_rate"]
    assert (rate["unit"], float(rate["value"])) == ("GBP per USD", pytest.approx(fx.rates["GBP"]))
    assert rate["source"] == f"ECB reference rate of {fx.date}"
    assert s["exchange_rate_date"][0]["value"] == fx.date
    total = make_plan(build).cost.own_breakdown["parts"]  # the parts total in GBP, as the window and Markdown say
    assert float(s["parts_total"][0]["value"]) == pytest.approx(total, abs=0.005)
    assert s["parts_total"][0]["unit"] == "GBP"
    assert [s[k][0]["value"] for k in ("hours_of_training_per_day", "idle_hours_per_day", "horizon_years")] == [
        f"{a.hours_per_day:g}",
        f"{a.idle_hours_per_day:g}",
        f"{a.horizon_years:g}",
    ]
    assert "workload" not in s  # none saved with this build


def test_a_leading_formula_in_the_notes_is_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    b = load(EX / "2x-rtx-4090.rigplan")
    save(b.model_copy(update={"notes": '=HYPERLINK("http://x","y")'}), tmp_path / "f.rigplan")
    _, s = export(tmp_path, tmp_path / "f.rigplan", capsys)
    assert s["notes"][0]["value"] == '\'=HYPERLINK("http://x","y")'


def test_workload_own_electricity_and_a_euro_item(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A USD build with its own electricity price (no region then), a saved workload, and an Other item priced in
    euros: the rate the cost model converts it at is stated."""
    b = load(EX / "2x-rtx-4090.rigplan")
    fan = OtherItem(
        category=OtherCategory.FAN, name="Noctua NF-A14", quantity=2, price=Price(amount=29.9, currency="EUR")
    )
    build = b.model_copy(
        update={
            "notes": "",
            "other": (fan,),
            "workload": WorkloadSpec(model="llama-3.1-8b"),
            "assumptions": b.assumptions.model_copy(update={"electricity_per_kwh": 0.31}),
        }
    )
    save(build, tmp_path / "w.rigplan")
    parts, s = export(tmp_path, tmp_path / "w.rigplan", capsys)
    assert parts[-1]["kind"] == "other/fan" and parts[-1]["currency"] == "EUR"
    assert "notes" not in s and "electricity_region" not in s
    assert s["electricity_price"][0] == {
        "setting": "electricity_price",
        "value": "0.31",
        "unit": "USD per kWh",
        "source": "set by you",
    }
    [wl] = s["workload"]
    assert wl["value"] == "llama-3.1-8b, lora"
    plan = make_plan(load(tmp_path / "w.rigplan"))
    expected = plan_lines(load(tmp_path / "w.rigplan"), [(c.offer, c.pricing) for c in plan.offers])
    assert expected and len(s["workload_estimate"]) == len(expected)
    assert s["workload_estimate"][0]["value"].split(":")[0] == expected[0].split(":")[0]
    fx = load_fx()
    [rate] = s["exchange_rate"]
    assert rate["unit"] == "USD per EUR" and float(rate["value"]) == pytest.approx(1 / fx.rates["EUR"], rel=1e-5)
    assert s["exchange_rate_date"][0]["value"] == fx.date
    assert s["currency"][0]["value"] == "USD"
