"""gpu-radiator: a hybrid card's own radiator needs a mount the data cannot show, and a water-blocked card a custom
loop the build does not hold: both "not checked", naming the cards; an air-cooled card is not concerned. The
suggester never picks such a card unless missing data is allowed (it offered 2x STRIX LC RTX 3090 Ti before)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_in_process import rigplan_in_process
from rigplan.catalog import load_catalog
from rigplan.files import load
from rigplan.model import Build, Kind
from rigplan.rules import check

ROOT = Path(__file__).resolve().parents[1]


def _with_gpus(build: Build, cooling: str) -> Build:
    gpu = next(g for g in load_catalog().of_kind(Kind.GPU) if g.cooling == cooling and (g.vram_gb or 0) >= 16)
    items = tuple(i.model_copy(update={"part": gpu}) if i.part.kind is Kind.GPU else i for i in build.items)
    return build.model_copy(update={"items": items})


def test_hybrid_and_water_blocked_cards_are_not_checked_air_cooled_ones_not_concerned() -> None:
    build = load(ROOT / "examples" / "2x-rtx-4090.rigplan")
    assert not [n for n in check(build).not_checked if n.rule == "gpu-radiator"]
    (hybrid,) = [n.reason for n in check(_with_gpus(build, "Hybrid")).not_checked if n.rule == "gpu-radiator"]
    assert hybrid.startswith("GPUs 1, 2: a liquid cooler with a radiator of its own") and "mount" in hybrid
    (loop,) = [n.reason for n in check(_with_gpus(build, "Water Cooled")).not_checked if n.rule == "gpu-radiator"]
    assert "custom loop" in loop and "pump, radiator and fittings" in loop


@pytest.mark.usefixtures("cli_gets_the_session_catalog")  # tests/conftest.py says when and why
def test_the_suggester_picks_no_hybrid_card_unless_missing_data_is_allowed() -> None:
    # `rigplan suggest` through run_cli, the entry point `python -m rigplan` calls (tests/cli_in_process.py): the
    # answer is what is tested here, not the process.
    out = rigplan_in_process("suggest", "--budget", "5000", "--gpus", "2", "--min-vram", "24", "--json", cwd=ROOT)
    assert out.returncode == 0, out.stderr
    items = json.loads(out.stdout)["build"]["items"]
    gpus = [i["part"] for i in items if i["part"]["kind"] == "gpu"]
    assert gpus and all(g.get("cooling") not in ("Hybrid", "Water Cooled") for g in gpus)
