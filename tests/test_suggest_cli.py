"""`rigplan suggest` as a user runs it: the JSON keys, the build file it writes, and exit 2 with one line.

The commands run in this process through the CLI's own entry point (rigplan.cli.main.run_cli: the same parsing,
output and exit codes as `python -m rigplan`), each loading the catalog in use as the program does; a new process
per command cost ~1 s of start-up each for nothing these tests look at. test_the_program_itself_answers_and_fails
starts the real program, so `python -m rigplan suggest` itself stays covered."""

from __future__ import annotations

import contextlib
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from rigplan.cli.main import run_cli
from rigplan.costs.analysis import desktop_throughput
from rigplan.costs.perf import load_perf
from rigplan.files import load
from rigplan.rules import check

ROOT = Path(__file__).resolve().parents[1]

# `rigplan suggest` run in this process gets the session's loaded catalog (tests/conftest.py says when and why).
pytestmark = pytest.mark.usefixtures("cli_gets_the_session_catalog")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """`rigplan ARGS` through the CLI's entry point, in this process: its exit code, stdout and stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = run_cli(list(args))
    return subprocess.CompletedProcess(["rigplan", *args], code, out.getvalue(), err.getvalue())


def run_program(*args: str) -> subprocess.CompletedProcess[str]:
    """`python -m rigplan ARGS` as a user starts it."""
    return subprocess.run(
        [sys.executable, "-m", "rigplan", *args], capture_output=True, text=True, cwd=ROOT, timeout=900
    )


def test_the_program_itself_answers_and_fails() -> None:
    """The real program: an answer on stdout as JSON with exit 0; a bad value, one line on stderr with exit 2."""
    ok = run_program("suggest", "--budget", "1200", "--max-gpus", "1", "--json")
    assert ok.returncode == 0, ok.stderr
    data = json.loads(ok.stdout)
    assert 0 < data["total"] <= 1200 and data["build"]["items"][1]["quantity"] == 1
    bad = run_program("suggest", "--budget", "-5")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "budget must be positive" in bad.stderr


def test_flags_of_the_minimums() -> None:
    """--no-expert-minimums with --allow-missing-data is the check()-only search; --min-cores overrides the
    expert's figure; a bad --work-hours-per-year is one line, exit 2."""
    plain = run("suggest", "--budget", "1500", "--gpus", "1", "--no-expert-minimums", "--allow-missing-data", "--json")
    assert plain.returncode == 0, plain.stderr
    data = json.loads(plain.stdout)
    assert data["minimums"] == [] and data["total"] <= 1500
    cores = run("suggest", "--budget", "3000", "--gpus", "1", "--min-cores", "12", "--json")
    assert cores.returncode == 0, cores.stderr
    cpu = next(i for i in json.loads(cores.stdout)["build"]["items"] if i["part"]["kind"] == "cpu")
    assert "CPU cores >= 12" in json.loads(cores.stdout)["minimums"] and cpu["part"]["cores"] >= 12
    bad = run("suggest", "--budget", "3000", "--beat", "aws:p3.2xlarge", "--work-hours-per-year", "0")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "--work-hours-per-year" in bad.stderr


def test_json_answer_and_build_file(tmp_path: Path) -> None:
    out_file = tmp_path / "suggested.rigplan.yaml"
    out = run("suggest", "--budget", "5000", "--gpus", "2", "--min-vram", "24", "--json", "-o", str(out_file))
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert {"total", "throughput", "binding", "runners_up", "build"} <= set(data)
    assert data["total"] <= 5000
    build = load(out_file)
    gpus = build.of_kind(build.items[1].kind)
    assert sum(i.quantity for i in gpus) == 2 and all((i.part.vram_gb or 0) >= 24 for i in gpus)  # type: ignore[union-attr]
    assert check(build).ok  # the written build passes every check
    total = sum(i.unit_price.amount * i.quantity for i in build.items if i.unit_price)
    assert abs(total - data["total"]) < 0.01
    tp, _, _ = desktop_throughput(build, load_perf(), build.assumptions)
    assert tp is not None and abs(tp - data["throughput"]) < 1e-3
    assert data["build"]["items"][1]["quantity"] == 2
    # Issue 26: two RTX 5090s no longer pass (their PSU would be below RigPlan's recommendation on 120 V / 15 A),
    # so the binding constraint is no longer "catalog"; it is one of the named ones, with its reason.
    assert data["binding"] in {"budget", "gpu count", "wall circuit", "checks", "catalog"} and data["binding_text"]
    # The answer says what check() shows of the written build, and the minimums it was held to.
    report = check(build)
    warned = [f for f in report.findings if f.severity == "warning"]
    assert data["check"].startswith("passes every check") == (not warned)
    assert [w["rule"] for w in data["warnings"]] == [f.rule for f in warned]
    assert {n["rule"] for n in data["not_checked"]} == {n.rule for n in report.not_checked}
    assert "CPU cores >= 8" in data["minimums"] and "an NVMe SSD >= 2000 GB" in data["minimums"]  # 4 per GPU


def test_binding_names_what_stops_a_fixed_gpu_count() -> None:
    """With --gpus fixed, the binding says why no faster set of that many GPUs is chosen: on 120 V / 15 A four
    faster cards draw too much (wall circuit); on 230 V / 16 A four 24 GB cards faster than the answer's do not fit
    a board (3-slot cards), and two GPUs do better within the budget, named with their price (gpu count). It once
    said "more would need more than 4 GPUs" whatever the cause."""
    wall = run("suggest", "--budget", "15000", "--gpus", "4", "--json")
    assert wall.returncode == 0, wall.stderr
    data = json.loads(wall.stdout)
    assert data["binding"] == "wall circuit" and "120 V / 15 A" in data["binding_text"]
    count = run(
        "suggest", "--budget", "20000", "--gpus", "4", "--min-vram", "24",
        "--wall-voltage", "230", "--wall-amps", "16", "--json",
    )  # fmt: skip
    assert count.returncode == 0, count.stderr
    data = json.loads(count.stdout)
    assert data["binding"] == "gpu count"
    assert data["binding_text"].startswith("no faster set of 4 GPUs passes the checks; another count does better: 2x")
    assert re.search(r"GB GPU memory, \$[0-9,]+$", data["binding_text"])


@pytest.mark.slow
def test_runners_up_have_another_gpu_count() -> None:
    out = run("suggest", "--budget", "3000", "--max-gpus", "2", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    by_count = [r for r in data["runners_up"] if r["why"].endswith(("GPU", "GPUs"))]
    counts = {r["gpus"] for r in by_count}
    chosen = data["build"]["items"][1]["quantity"]
    assert counts and chosen not in counts
    assert all(r["total"] <= 3000 and r["throughput"] <= data["throughput"] for r in data["runners_up"])
    # and one on the other CPU platform, the best there (no better than the answer, which is the best overall)
    other = [r for r in data["runners_up"] if r["why"].endswith("platform")]
    assert len(other) == 1 and data["platform"] in {"AMD", "Intel"}
    assert other[0]["platform"] in {"AMD", "Intel"} - {data["platform"]}
    assert other[0]["why"] == f"{other[0]['platform']} platform"


def test_impossible_constraints_exit_2_with_one_line() -> None:
    out = run("suggest", "--budget", "1500", "--gpus", "2", "--min-vram", "24")
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in out.stderr
    assert lines[0].startswith("rigplan: no priced 2-GPU build with 24 GB per GPU fits $1,500: the cheapest is $")


def test_bad_input_exit_2() -> None:
    out = run("suggest", "--budget", "-5")
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "budget must be positive" in out.stderr


@pytest.mark.slow
def test_beat_an_offer_agrees_with_the_cost_command(tmp_path: Path) -> None:
    """--beat: the answer's break-even day is the one `rigplan cost` reports for the written build, and the build
    is the earliest: each runner-up breaks even no sooner."""
    out_file = tmp_path / "beat.rigplan.yaml"
    out = run(
        "suggest", "--budget", "4000", "--max-gpus", "2", "--beat", "aws:p3.2xlarge", "--json", "-o", str(out_file)
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    beat = data["beat"]
    assert beat["offer"] == "aws:p3.2xlarge:us-east-1" and beat["status"] == "breaks-even"
    assert beat["hourly_usd"] > 0 and beat["price_date"]
    assert data["total"] <= 4000
    cost = run("cost", str(out_file), "--instance", "p3.2xlarge", "--json")
    assert cost.returncode == 0, cost.stderr
    result = json.loads(cost.stdout)["results"][0]
    assert result["offer_id"] == beat["offer"]
    assert abs(result["breakeven_days"] - beat["breakeven_days"]) < 0.06  # both rounded to 0.1 / 0.01 day
    assert all(r["breakeven_days"] is None or r["breakeven_days"] >= beat["breakeven_days"] for r in data["runners_up"])
    text = run("suggest", "--budget", "4000", "--max-gpus", "2", "--beat", "aws:p3.2xlarge")
    assert "breaks even after" in text.stdout and "aws:p3.2xlarge:us-east-1" in text.stdout


def test_beat_errors_are_one_line() -> None:
    unknown = run("suggest", "--budget", "3000", "--beat", "aws:p9.nothing")
    assert unknown.returncode == 2 and "unknown cloud offer 'aws:p9.nothing'" in unknown.stderr
    mixed = run("suggest", "--budget", "3000", "--beat", "aws:p3.2xlarge", "--goal", "vram")
    assert mixed.returncode == 2 and "--beat asks for the earliest break-even" in mixed.stderr
    for out in (unknown, mixed):
        assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr


@pytest.mark.slow
def test_prices_from_a_build_file_are_used(tmp_path: Path) -> None:
    """ "My own prices too": a build file's own prices replace the catalog's, and the answer carries them."""
    first = tmp_path / "first.rigplan.yaml"
    out = run("suggest", "--budget", "3000", "--max-gpus", "1", "--json", "-o", str(first))
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    gpu_id = data["build"]["items"][1]["part"]["id"]
    doc = yaml.safe_load(first.read_text())
    item = next(i for i in doc["items"] if i["part"]["id"] == gpu_id)
    assert item.get("price_override") is None
    catalog_price = item["part"]["price"]["amount"]
    # The same GPU at half its catalog price, as a price the user found
    item["price_override"] = {"amount": round(catalog_price / 2, 2), "currency": "USD", "source": "my shop"}
    mine = tmp_path / "mine.rigplan.yaml"
    mine.write_text(yaml.safe_dump(doc))
    again = run("suggest", "--budget", "3000", "--max-gpus", "1", "--json", "--prices-from", str(mine))
    assert again.returncode == 0, again.stderr
    d2 = json.loads(again.stdout)
    assert gpu_id in d2["own_prices_used"]
    # the better-or-equal build is at most the old one with the discount
    assert d2["throughput"] >= data["throughput"] - 1e-9
    if d2["throughput"] == data["throughput"]:
        assert d2["total"] <= data["total"] - catalog_price / 2 + 0.01
    used = next(i for i in d2["build"]["items"] if i["part"]["id"] == gpu_id)
    assert used["price_override"]["source"] == "my shop"
    missing = run("suggest", "--budget", "3000", "--prices-from", str(tmp_path / "nope.rigplan.yaml"))
    assert missing.returncode == 2 and "--prices-from" in missing.stderr


@pytest.mark.slow
def test_my_prices_from_the_user_price_layer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """--my-prices: the prices imported with `rigplan import prices --catalog` join the search; without the flag
    (and in a catalog where the GUI applied them) the search keeps the catalog's own prices."""
    from rigplan.catalog import load_catalog
    from rigplan.imports.user_prices import apply_to_catalog, load_user_prices
    from rigplan.model.assumptions import Assumptions
    from rigplan.suggest import Question, suggest

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))  # where `import prices --catalog` keeps the user's prices
    rig = run

    plain = json.loads(rig("suggest", "--budget", "3000", "--max-gpus", "1", "--json").stdout)
    gpu_id = plain["build"]["items"][1]["part"]["id"]
    amount = plain["build"]["items"][1]["part"]["price"]["amount"]
    quotes = tmp_path / "quotes.csv"
    quotes.write_text(f"id,price,currency,date,source\n{gpu_id},{amount / 2:.2f},USD,2026-11-20,my shop\n")
    assert rig("import", "prices", str(quotes), "--catalog").returncode == 0
    mine = json.loads(rig("suggest", "--budget", "3000", "--max-gpus", "1", "--json", "--my-prices").stdout)
    assert gpu_id in mine["own_prices_used"] and mine["total"] <= plain["total"] - amount / 2 + 0.01
    again = json.loads(rig("suggest", "--budget", "3000", "--max-gpus", "1", "--json").stdout)
    assert again["total"] == plain["total"] and again["own_prices_used"] == []
    # The GUI applies the layer to its loaded catalog; "catalog prices only" still means the catalog's own.
    fresh = load_catalog(cache_dir=tmp_path / "cache")
    assert apply_to_catalog(fresh, load_user_prices(tmp_path / "RigPlan")) == 1
    q = Question(budget=3000, max_gpus=1)
    # The CLI's total is the answer after the balance stage (suggest()); the same path on the GUI's catalog.
    sug = suggest(fresh, Assumptions(), q, explain=False)
    assert abs(sug.found.total_usd - plain["total"]) < 0.01 and not any(i.price_override for i in sug.build.items)


def test_beat_with_a_commitment_pricing_says_why_not() -> None:
    """Reserved pricing is paid for whole terms (a stepped curve): the break-even goal says it does not search it."""
    out = run("suggest", "--budget", "3000", "--beat", "aws:p2.xlarge", "--pricing", "reserved-1y")
    assert out.returncode == 2 and out.stderr.count("\n") == 1
    assert "on-demand or spot prices, not reserved-1y commitments" in out.stderr, out.stderr


def test_must_fit_a_workload_on_the_real_catalog() -> None:
    """Issue 28's constraint: --fit-model/--fit-task size the memory per GPU with rigplan.workload and the
    suggester takes it as data; the answer names the workload and the memory per GPU, and the workload planner
    (`rigplan workload` on the written build) agrees that it fits."""
    out = run("suggest", "--budget", "12000", "--fit-model", "llama-3.1-70b", "--fit-task", "qlora", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    fit = data["fits_workload"]
    assert fit["workload"].startswith("Llama 3.1 70B, qlora")
    gpus = [i for i in data["build"]["items"] if i["part"]["kind"] == "gpu"]
    assert fit["gpus"] == sum(i["quantity"] for i in gpus) == data["build"]["items"][1]["quantity"]
    assert all(i["part"]["vram_gb"] >= fit["memory_gb_per_gpu"] for i in gpus)
    assert f"{fit['memory_gb_per_gpu']:.1f} GB per GPU" in fit["text"]
    # 70B QLoRA needs ~44 GB on one GPU: no single consumer card holds it, so a one-GPU answer is a 48 GB+ card
    # (since the list prices, an RTX PRO 6000 at NVIDIA's list price, said so) and a consumer answer has two or more.
    one = gpus[0]["part"]
    assert fit["memory_gb_per_gpu"] > 40 if fit["gpus"] == 1 else fit["memory_gb_per_gpu"] < 40
    assert fit["gpus"] >= 2 or one["vram_gb"] >= 48
    if one["price"]["source"].startswith("list price: "):
        assert [p["part"] for p in data["list_priced"]] == [one["name"]]


def test_must_fit_an_impossible_workload_is_one_line() -> None:
    out = run("suggest", "--budget", "6000", "--fit-model", "llama-3.1-8b", "--fit-task", "full")
    assert out.returncode == 2 and out.stderr.count("\n") == 1, out.stderr
    assert "fits Llama 3.1 8B, full" in out.stderr and "GB per GPU on 2" in out.stderr
    bad = run("suggest", "--budget", "6000", "--fit-model", "no-such-model")
    assert bad.returncode == 2 and "unknown model" in bad.stderr and bad.stderr.count("\n") == 1
    orphan = run("suggest", "--budget", "6000", "--fit-task", "qlora")
    assert orphan.returncode == 2 and "--fit-model" in orphan.stderr


def test_part_lines_in_the_answers_currency_beside_the_catalogs() -> None:
    """A EUR question's part lines lead with euros (the total's currency) and keep the catalog's US price beside it,
    converted at the rate the JSON reports; the euro lines add up to the total."""
    text = run("suggest", "--budget", "2000", "--currency", "EUR", "--max-gpus", "1")
    js = run("suggest", "--budget", "2000", "--currency", "EUR", "--max-gpus", "1", "--json")
    assert text.returncode == 0 and js.returncode == 0, text.stderr + js.stderr
    data = json.loads(js.stdout)
    lines = re.findall(r"^  (\d+)x .*\(€([\d,.]+); \$([\d,.]+) as listed\)$", text.stdout, re.M)
    assert len(lines) == len(data["build"]["items"]) >= 7, text.stdout
    pairs = [(int(n), float(e.replace(",", "")), float(u.replace(",", ""))) for n, e, u in lines]
    rate = max(pairs, key=lambda p: p[2])[1] / max(pairs, key=lambda p: p[2])[2]  # one rate for every line
    euros = 0.0
    for qty, e, u in pairs:
        assert abs(e - u * rate) <= 0.01, (e, u, rate)
        assert 0 < e < u  # the euro was worth more than the dollar on the shipped ECB date
        euros += qty * e
    total = float(re.search(r"Suggested: €([\d,]+)", text.stdout).group(1).replace(",", ""))  # type: ignore[union-attr]
    assert abs(euros - total) <= 1.0
