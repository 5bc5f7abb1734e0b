"""`rigplan compare` and the comparison core: figures equal each build's own check and cost model, parts rows mark
exactly the differing slots, and the work-axis curves follow the model's own figures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rigplan.cli.main import run_cli
from rigplan.cloud.offers import load_offers
from rigplan.costs.analysis import analyse, cost_build
from rigplan.exports.compare import compare
from rigplan.exports.plan import DEFAULT_CHART_OFFERS, ExportError, make_plan
from rigplan.files import load, save
from rigplan.model.parts import Kind
from rigplan.rules import Severity, check

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "examples"
FILES = [EX / "2x-rtx-4090.rigplan", EX / "budget-1-gpu.rigplan", EX / "4-gpu-threadripper.rigplan"]


def test_cli_compare_json_equals_each_builds_model(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(["compare", *map(str, FILES), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["currency"] == "USD" and len(data["builds"]) == 3
    catalog = load_offers()
    for fig, path in zip(data["builds"], FILES, strict=True):
        build = load(path)
        report, costing = check(build), cost_build(build)
        assert fig["name"] == build.name
        assert fig["parts_cost"] == pytest.approx(costing.own.parts_usd, abs=0.005)
        assert fig["load_w"] == pytest.approx(report.power.load_w, abs=0.005)
        assert fig["wall_load_w"] == pytest.approx(report.power.wall_load_w, abs=0.005)
        assert fig["recommended_psu_w"] == report.power.recommended_psu_w
        assert fig["throughput_v100"] == pytest.approx(costing.own.throughput, abs=0.0005)
        counts = report.counts()
        assert (fig["errors"], fig["warnings"], fig["notes"]) == (
            counts[Severity.ERROR],
            counts[Severity.WARNING],
            counts[Severity.NOTE],
        )
        assert fig["not_checked"] == len(report.not_checked)
        for offer_id, pricing in DEFAULT_CHART_OFFERS:
            result = analyse(build, [catalog.get(offer_id)], pricing=pricing)
            be = fig["breakeven"][f"{offer_id} {pricing.value}"]
            assert be["status"] == result.offers[0].status
            assert be["days"] == pytest.approx(result.offers[0].breakeven_days, abs=0.005)
            assert fig["work_per_money"] == pytest.approx(result.own_work_per_money, abs=0.00005)


def test_parts_rows_mark_only_differences(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = load(FILES[0])
    # The same build with a different case: only the case row differs.
    other = next(i for i in load(FILES[1]).items if i.kind is Kind.CASE)
    items = tuple(other if i.kind is Kind.CASE else i for i in a.items)
    b = a.model_copy(update={"name": "Other case", "items": items})
    cmp = compare([make_plan(a), make_plan(b)])
    differing = [r.kind for r in cmp.parts if r.differs]
    assert differing == [Kind.CASE]
    gpu = next(r for r in cmp.parts if r.kind is Kind.GPU)
    assert gpu.cells[0] == gpu.cells[1] and gpu.cells[0].startswith("2x ")
    # Through the CLI too: the text table stars exactly that row.
    path = tmp_path / "other.rigplan.yaml"
    save(b, path)
    assert run_cli(["compare", str(FILES[0]), str(path)]) == 0
    starred = [line.split()[1] for line in capsys.readouterr().out.splitlines() if line.startswith("* ")]
    assert starred == ["Case"]


def test_work_axis_curves_use_the_models_figures() -> None:
    plans = [make_plan(load(p)) for p in FILES[:2]]
    cmp = compare(plans)
    own = [c for c in cmp.curves if c.own]
    assert [c.label for c in own] == [p.build.name for p in plans]
    for c, p in zip(own, plans, strict=True):
        assert c.work[-1] == pytest.approx(p.cost.hours[-1] * p.costing.own.throughput)
        assert c.cost[-1] == pytest.approx(p.cost.own_breakdown["total"])
    rent = [c for c in cmp.curves if not c.own]
    assert len(rent) == 3  # each offer once, whatever the number of builds
    first = plans[0].cost.offers[0]
    name = plans[0].offer_name(first.id, first.pricing)  # named as the Costs tab and the exports name it (issue 29)
    line = next(c for c in rent if c.label == f"{name}, {first.pricing.value}")
    assert line.cost[-1] / line.work[-1] == pytest.approx(1 / first.work_per_money)


def test_cli_compare_text_and_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(["compare", str(FILES[0]), str(FILES[1])]) == 0
    out = capsys.readouterr().out
    assert "Budget single-GPU learner" in out and "* GPU" in out and "  CPU cooler" in out
    assert run_cli(["compare", str(FILES[0])]) == 2
    assert "compare 2 to 4 builds, not 1" in capsys.readouterr().err
    assert run_cli(["compare", *map(str, FILES * 2)]) == 2
    assert "not 6" in capsys.readouterr().err


def test_mixed_currencies_are_refused_with_a_message() -> None:
    a = load(FILES[0])
    b = a.model_copy(update={"assumptions": a.assumptions.model_copy(update={"currency": "EUR"})})
    with pytest.raises(ExportError, match=r"different currencies \(EUR, USD\)"):
        compare([make_plan(a), make_plan(b)])
