"""Issue 37: the balance stage's RAM step moves TOWARD twice the GPU memory (Puget Systems: "at least double the total
VRAM") when the full target is out of reach, instead of buying nothing (suggest.ram_step). Before, $25,000 at 240 V
answered 2x RTX PRO 6000 Blackwell (192 GB of GPU memory) with 192 GB of RAM and $5,454 unspent, saying "not bought:
system RAM >= 384 GB", while the catalog prices 256 GB DDR5 kits and desktop boards that hold them. On the real
catalog, through the real CLI and real suggest() / balance() calls."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from cli_in_process import rigplan_in_process
from rigplan.catalog.loader import Catalog
from rigplan.model.assumptions import Assumptions
from rigplan.model.parts import Kind, Memory
from rigplan.suggest import Question, suggest
from rigplan.suggest.balance import balance
from rigplan.suggest.expert import Minimums
from rigplan.suggest.question import Goal
from rigplan.suggest.search import Search
from rigplan.suggest.spending import short_essential
from rigplan.suggest.spending import text as spending_text

MONEY = r"\$(\d[\d,]*)"


def _usd(text: str) -> float:
    return float(text.replace(",", ""))


def _ram_line(spending: list[str]) -> str:
    got = [line for line in spending if re.match(r"(not )?bought: system RAM ", line)]
    assert len(got) == 1, spending
    return got[0]


@pytest.fixture(scope="module")
def q08(module_home: Path) -> dict[str, Any]:
    """The panel's $25,000 question at 240 V / 30 A, answered by the real CLI in JSON (its entry point, in process)."""
    run = rigplan_in_process("suggest", "--budget", "25000", "--wall-voltage", "240", "--wall-amps", "30", "--json")
    assert run.returncode == 0, run.stderr
    data: dict[str, Any] = json.loads(run.stdout)
    return data


def _part(data: dict[str, Any], kind: str) -> dict[str, Any]:
    got = [i["part"] for i in data["build"]["items"] if i["part"]["kind"] == kind]
    assert len(got) == 1, kind
    return got[0]


def test_25000_at_240v_buys_the_most_ram_toward_twice_the_gpu_memory(q08: dict[str, Any], catalog: Catalog) -> None:
    """Two 96 GB cards want 384 GB; no priced build holds that much (a desktop board holds 256 GB at most, the
    workstation ones are not priced), so the step buys the largest priced kit below it, 256 GB, with the money left
    (swapping the board when the one searched holds less), and says both: what it bought, and why not 384 GB."""
    gpu = _part(q08, "gpu")
    kit, board = _part(q08, "memory"), _part(q08, "motherboard")
    count = next(i["quantity"] for i in q08["build"]["items"] if i["part"]["kind"] == "gpu")
    target = 2 * count * gpu["vram_gb"]
    assert target == 384
    line = _ram_line(q08["spending"])
    if kit["capacity_gb"] >= target:  # a priced platform that holds the whole target (the catalog changed): met
        assert line.startswith(f"bought: system RAM >= {target:g} GB"), line
        return
    assert kit["capacity_gb"] >= 256, (kit["name"], line)
    # The premise, from the catalog: 256 GB is the largest priced kit below the target, and the board holds it.
    priced = [m.capacity_gb for m in catalog.of_kind(Kind.MEMORY) if isinstance(m, Memory) and m.price]
    assert kit["capacity_gb"] == max(c for c in priced if c and c < target)
    assert board["max_memory_gb"] >= kit["capacity_gb"]
    said = re.match(
        rf"bought: system RAM (\d+) GB toward {target:g} GB \(twice the GPUs' 192 GB\) \(\+{MONEY}\); "
        rf"{target:g} GB: (.+)$",
        line,
    )
    assert said is not None, line
    assert float(said.group(1)) == kit["capacity_gb"] and _usd(said.group(2)) > 0
    # Why not the rest: the existing reason, read off the answer's board and kit.
    assert f"the largest priced kit the answer's board takes is {kit['capacity_gb']:g} GB" in said.group(3)
    assert f"it holds at most {board['max_memory_gb']:g} GB" in said.group(3)
    left = q08["spending"][-1]
    assert left.startswith("left unspent: "), left
    assert f"({kit['capacity_gb']:g} GB of RAM bought toward {target:g} GB, the largest priced kit below it)" in left
    assert "not for want of money (no priced build has system RAM >= 384 GB" in left
    remainder = _usd(re.match(rf"left unspent: {MONEY}", left).group(1))  # type: ignore[union-attr]
    assert remainder == pytest.approx(25000 - q08["total"], abs=1.0)
    assert q08["total"] <= 25000 and not q08["warnings"]


def test_the_later_steps_spend_what_the_partial_step_leaves_and_keep_its_ram(q08: dict[str, Any]) -> None:
    """The steps after the RAM step (cores, storage, PSU) are taken on the build with the 256 GB kit and keep it: the
    minimums they search under carry the RAM bought (else a re-search could hand back a cheaper 192 GB kit), and the
    split adds up to the total."""
    spending = q08["spending"]
    ram = spending.index(_ram_line(spending))
    later = spending[ram + 1 : -1]
    assert any(line.startswith("bought: CPU cores >= 16 (+$") for line in later), later
    assert _part(q08, "memory")["capacity_gb"] >= 256
    split = re.match(rf"GPUs {MONEY}, platform \(board, CPU, RAM\) {MONEY}, the rest {MONEY}", spending[0])
    assert split is not None and sum(_usd(g) for g in split.groups()) == pytest.approx(q08["total"], abs=2.0)


def test_a_partial_step_is_not_the_essential_met(catalog: Catalog) -> None:
    """$9,300 for the most GPU memory on one card: an RTX PRO 6000 Blackwell (96 GB) wants 192 GB of RAM, which costs
    more than the budget leaves; 128 GB is within it and bought. The step stays not bought (what "met" means: the
    full target), so the first essential short is still this one and the trade for the essentials is weighed (here
    refused: the best GPUs with every essential keep too little); the answer says all three."""
    q = Question(budget=9300, goal=Goal.VRAM, gpus=1)
    s = Search(catalog, Assumptions(), q)
    found = s.best()
    assert found is not None and found.option.vram_gb == 96
    spent = balance(s, found)
    step = next(st for st in spent.steps if st.what.startswith("system RAM"))
    assert not step.bought and step.essential and step.toward is not None
    assert step.toward.gb == 128 and step.toward.target_gb == 192 and step.toward.usd > 0
    assert short_essential(spent) is step and step.over_usd is not None and step.over_usd > 0
    kit = spent.found.build(s.a).first(Kind.MEMORY)
    assert isinstance(kit, Memory) and kit.capacity_gb == 128
    sug = suggest(catalog, Assumptions(), q, explain=False)
    line = _ram_line(sug.spending)
    assert re.fullmatch(
        rf"bought: system RAM 128 GB toward 192 GB \(twice the GPUs' 96 GB\) \(\+{MONEY}\); 192 GB: \+{MONEY}, "
        "more than the budget leaves",
        line,
    ), line
    assert any(x.startswith("not traded for the essentials") for x in sug.spending)
    left = sug.spending[-1]
    assert "(128 GB of RAM bought toward 192 GB" in left and ", short of system RAM >= 192 GB" in left, left


def test_the_next_size_out_of_reach_is_named_and_checked(catalog: Catalog) -> None:
    """$9,160 for the most GPU memory on one card, 32 GB of RAM asked: the RTX PRO 6000 Blackwell wants 192 GB; the
    step buys the largest priced capacity a build within the budget has, and the next priced capacity, which no build
    within the budget has, is named where the answer says why money is left. Both checked by the exact search
    (Search.complete) under the step's minimums: the capacity bought is within the budget, the next one is not."""
    q = Question(budget=9160, goal=Goal.VRAM, gpus=1, min_ram_gb=32)
    s = Search(catalog, Assumptions(), q)
    found = s.best()
    assert found is not None and found.option.vram_gb == 96
    need = Minimums.for_option(q, 1, found.option.vram_gb, found.option.part)
    assert need.ram_gb == 32
    spent = balance(s, found)
    step = next(st for st in spent.steps if st.what.startswith("system RAM"))
    part = step.toward
    assert not step.bought and part is not None and part.next_gb is not None
    assert 32 < part.gb < part.next_gb < part.target_gb == 192
    cap = s.budget_usd()
    assert s.complete(found.option, cap, need=replace(need, ram_gb=part.gb)) is not None
    assert s.complete(found.option, cap, need=replace(need, ram_gb=part.next_gb)) is None
    kit = spent.found.build(s.a).first(Kind.MEMORY)
    assert isinstance(kit, Memory) and kit.capacity_gb == part.gb
    left = spending_text(spent, lambda usd: f"${usd:,.0f}")[-1]
    assert f"({part.gb:g} GB of RAM bought toward 192 GB, no build within the budget has {part.next_gb:g} GB)" in left


@pytest.mark.parametrize(
    ("question", "ram"),
    [
        (Question(budget=8000, gpus=2, min_ram_gb=128, min_storage_gb=4000), 128),  # the panel's q04
        (Question(budget=10000), 96),  # the panel's q05: 2x 24 GB, RAM twice that
    ],
)
def test_a_target_within_reach_is_bought_whole_as_before(catalog: Catalog, question: Question, ram: float) -> None:
    """Where the money reaches the full target, the step is bought whole, as before: no "toward"."""
    sug = suggest(catalog, Assumptions(), question, explain=False)
    kit = sug.build.first(Kind.MEMORY)
    assert isinstance(kit, Memory) and kit.capacity_gb == ram
    line = _ram_line(sug.spending)
    assert line.startswith(f"bought: system RAM >= {ram:g} GB") and " toward " not in line, line
    assert " toward " not in sug.spending[-1]
