"""The measured models of issue 27 as workloads (rigplan.workload.measured): `rigplan workload --model resnet50`
on a build and on offers gives the speed table's measured figures (1x V100 = 1.0, with the model's scaling per
interconnect), hours per job from hours on a V100, the bill and break-even from the cost model's job mode, and
memory "not modelled"; bad combinations are one line and exit 2; a saved measured workload reaches the export."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rigplan.cli.main import run_cli
from rigplan.costs.perf import measured_workloads
from rigplan.files import load
from rigplan.model.workload import WorkloadSpec

ROOT = Path(__file__).resolve().parents[1]
BUILD = ROOT / "examples" / "2x-rtx-4090.rigplan"
MODELS = {"resnet50", "ssd", "bert-base", "bert-large", "gnmt", "tacotron2", "waveglow"}


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = run_cli(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def table(model: str):  # noqa: ANN201
    return next(w for w in measured_workloads("mixed") if w.id == model)


@pytest.mark.parametrize("model", sorted(MODELS))
def test_each_measured_model_on_the_build_is_the_speed_tables_figure(
    model: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = cli(capsys, "workload", str(BUILD), "--model", model, "--hours-on-v100", "10", "--json")
    assert code == 0, err
    doc = json.loads(out)
    w = table(model)
    # 2x RTX 4090 on PCIe: one card's measured ratio times 2 ** the model's PCIe exponent
    speed = w.speeds["RTX 4090"].value * 2 ** w.scaling["pcie"].exponent
    assert doc["speed_vs_v100"] == pytest.approx(speed, abs=1e-3) and doc["speed_kind"] == "measured"
    assert doc["hours"] == pytest.approx(10 / speed, abs=1e-3)
    assert doc["unit"] == w.unit and doc["fits"] is None and doc["memory"] == "not modelled"
    assert doc["memory_gb_per_gpu"] is None and "Lambda" in doc["basis"]
    assert doc["electricity_per_job"] > 0


def test_offers_get_their_own_gpus_scaling_hours_bill_and_break_even(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["workload", str(BUILD), "--model", "bert-large", "--hours-on-v100", "100", "--json"]
    code, out, err = cli(capsys, *args, "--instance", "p3.2xlarge", "--instance", "p4d.24xlarge")
    assert code == 0, err
    doc = json.loads(out)
    w = table("bert-large")
    p3, p4d = doc["offers"]
    assert p3["speed_vs_v100"] == pytest.approx(w.speeds["V100 SXM2 16GB"].value, abs=1e-3)  # the reference: 1.0
    assert p3["hours"] == pytest.approx(100 / p3["speed_vs_v100"], abs=1e-2)
    assert p3["cloud_cost"] == pytest.approx(p3["hours"] * p3["hourly_usd"], rel=1e-3)  # on-demand, no spot loss
    # 8 A100 SXM4 over NVSwitch: the model's SXM exponent, not the PCIe one
    p4d_speed = w.speeds["A100 40GB SXM4"].value * 8 ** w.scaling["sxm"].exponent
    assert (
        p4d["speed_vs_v100"] == pytest.approx(p4d_speed, abs=1e-3) and p4d_speed < 8 * w.speeds["A100 40GB SXM4"].value
    )
    assert p3["status"] == "owning-wins-after" and p3["jobs_to_break_even"] > 0
    assert p3["jobs_to_break_even_with_resale"] <= p3["jobs_to_break_even"]  # resale only shortens it
    # the p4d's 8 A100s finish a job in far fewer hours at a higher rate; a smaller bill per job means more jobs
    # before owning has paid for itself
    assert p4d["hours"] < p3["hours"] / 10 and p4d["cloud_cost"] == pytest.approx(
        p4d["hours"] * p4d["hourly_usd"], 1e-3
    )
    assert p4d["cloud_cost"] < p3["cloud_cost"] and p4d["jobs_to_break_even"] > p3["jobs_to_break_even"]


def test_an_instance_alone_and_without_a_job_size(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(capsys, "workload", "--instance", "p3.8xlarge", "--model", "waveglow", "--json")
    assert code == 0, err
    doc = json.loads(out)
    w = table("waveglow")
    assert doc["speed_vs_v100"] == pytest.approx(w.speeds["V100 SXM2 16GB"].value * 4 ** w.scaling["sxm"].exponent,
                                                 abs=1e-3)  # fmt: skip
    assert doc["hours"] is None and doc["cloud_cost"] is None and "--hours-on-v100" in doc["notes"][0]
    code, out, err = cli(capsys, "workload", "--instance", "p3.8xlarge", "--model", "waveglow", "--hours-on-v100", "8")
    assert code == 0, err
    assert "memory: not modelled" in out and "one job of 8 h on a V100" in out and "speed (measured)" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--model", "resnet50", "--task", "full"], "resnet50 is a measured model; not for it: --task"),
        (["--model", "gnmt", "--tokens", "1e9"], "not for it: --tokens"),
        (["--model", "llama-3.1-8b", "--hours-on-v100", "5"], "--hours-on-v100 is for the measured models"),
        (["--model", "resnet50", "--hours-on-v100", "0"], "must be above 0"),
        (["--model", "resnet50", "--hours-on-v100", "nan"], "must be above 0"),
    ],
)
def test_bad_combinations_are_one_line(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(capsys, "workload", str(BUILD), *args)
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_a_saved_measured_workload_is_reread_and_exported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "box.rigplan"
    shutil.copy(BUILD, path)
    code, _, err = cli(capsys, "workload", str(path), "--model", "ssd", "--hours-on-v100", "12", "--save")
    assert code == 0, err
    assert load(path).workload == WorkloadSpec(model="ssd", v100_hours=12)
    code, out, _ = cli(capsys, "workload", str(path), "--json")  # no flags: the saved one
    assert code == 0 and json.loads(out)["model"]["id"] == "ssd" and json.loads(out)["hours_on_v100"] == 12
    code, md, err = cli(capsys, "export", str(path), "--format", "md")
    assert code == 0, err
    section = md.split("**Workload")[1]
    assert "SSD (object detection), training (mixed precision), a measured model" in section
    assert "memory not modelled" in section and "One job of 12 h on a V100 takes" in section
    assert "owning wins after" in section


def test_estimates_take_at_most_20_ms_each() -> None:
    """Issue 28's budget: one estimate (a language model, or a measured model with its offers) in <= 20 ms. The
    best of several rounds, so another process on the shared machine does not decide it."""
    import time

    from rigplan.cloud.store import offers_in_use
    from rigplan.model.workload import Task
    from rigplan.workload.jobs import compare
    from rigplan.workload.measured import compare_measured

    build = load(BUILD)
    catalog = offers_in_use()
    offers = [
        (catalog.get(i), build.assumptions.pricing) for i in ("aws:p3.2xlarge:us-east-1", "aws:p4d.24xlarge:us-east-1")
    ]
    llm = WorkloadSpec(model="llama-3.1-70b", task=Task.FULL, tokens=1e8)  # does not fit: the change search runs too
    runs = {
        "measured": lambda: compare_measured(build, "bert-large", 10, offers),
        "language model": lambda: compare(build, llm, offers),
    }
    for name, run in runs.items():
        run()  # tables load once
        best = min(_timed(run, time.perf_counter) for _ in range(5))
        assert best <= 0.020, f"{name}: {best * 1000:.1f} ms"


def _timed(run, clock) -> float:  # noqa: ANN001
    t = clock()
    run()
    return clock() - t


def test_a_spot_offer_alone_costs_what_the_build_comparison_says(capsys: pytest.CaptureFixture[str]) -> None:
    """The instance-alone bill counts the spot overhead as the cost model's job mode does."""
    args = ["--model", "resnet50", "--hours-on-v100", "10", "--pricing", "spot", "--json"]
    code, out, err = cli(capsys, "workload", "--instance", "g5.xlarge", *args)
    assert code == 0, err
    alone = json.loads(out)
    code, out, err = cli(capsys, "workload", str(BUILD), "--instance", "g5.xlarge", *args)
    assert code == 0, err
    (offer,) = json.loads(out)["offers"]
    assert alone["cloud_cost"] == offer["cloud_cost"] and alone["cloud_cost"] > alone["hours"] * alone["hourly_usd"]
    assert alone["speed_vs_v100"] == offer["speed_vs_v100"] and offer["speed_kind"] == alone["speed_kind"]
