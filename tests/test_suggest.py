"""suggest() over the real catalog: constraints are honoured, money converts, unknown speeds are never speed 1."""

from __future__ import annotations

import pytest

from rigplan.catalog import Catalog
from rigplan.costs.fx import load_fx
from rigplan.model.assumptions import Assumptions
from rigplan.model.parts import Kind, Memory, Storage
from rigplan.rules import check
from rigplan.suggest import Goal, Question, SuggestError, suggest
from rigplan.suggest.search import Search

A = Assumptions()


def test_min_ram_storage_and_include_are_honoured(catalog: Catalog) -> None:
    q = Question(budget=4000, max_gpus=1, min_ram_gb=64, min_storage_gb=2000)
    first = suggest(catalog, A, q, explain=False)
    mem, drive = first.build.first(Kind.MEMORY), first.build.first(Kind.STORAGE)
    assert isinstance(mem, Memory) and (mem.capacity_gb or 0) >= 64
    assert isinstance(drive, Storage) and (drive.capacity_gb or 0) >= 2000
    board = first.build.first(Kind.MOTHERBOARD)
    # Another priced board that must be included: the answer then holds it, and costs at least as much.
    other = next(
        p
        for p in catalog.of_kind(Kind.MOTHERBOARD)
        if p.price and p.id != board.id and p.socket == board.socket  # type: ignore[union-attr]
    )
    forced = suggest(catalog, A, Question(**{**q.__dict__, "include": (other.id,)}), explain=False)
    assert forced.build.first(Kind.MOTHERBOARD).id == other.id  # type: ignore[union-attr]
    assert check(forced.build).ok
    assert forced.found.option.throughput <= first.found.option.throughput + 1e-9


def test_budget_in_euros_is_converted_not_relabelled(catalog: Catalog) -> None:
    per_usd = load_fx().rates["EUR"]
    eur = suggest(
        catalog, A.model_copy(update={"currency": "EUR"}), Question(budget=3000, currency="EUR"), explain=False
    )
    usd = suggest(catalog, A, Question(budget=3000 / per_usd), explain=False)
    assert eur.found.total_usd == pytest.approx(usd.found.total_usd)
    assert eur.total == pytest.approx(usd.found.total_usd * per_usd) and eur.total <= 3000


def test_gpus_without_speed_are_skipped_and_counted(catalog: Catalog) -> None:
    s = Search(catalog, A, Question(budget=3000))
    assert s.stats.unknown_speed > 0
    named = {o.part.id for o in s.options}
    assert all(o.throughput > 0 for o in s.options) and len(named) < sum(
        1 for g in catalog.of_kind(Kind.GPU) if g.price
    )


def test_cheapest_reaching_a_vram_target(catalog: Catalog) -> None:
    sug = suggest(catalog, A, Question(goal=Goal.CHEAPEST_VRAM, target=48, max_gpus=2))
    assert sug.found.option.vram_gb >= 48 and sug.binding == "target" and check(sug.build).ok


@pytest.mark.parametrize(
    ("question", "message"),
    [
        (Question(budget=None), "needs a budget"),
        (Question(budget=3000, gpus=9), "1 to 8"),
        (Question(goal=Goal.CHEAPEST_THROUGHPUT), "positive target"),
        (Question(budget=200, gpus=1), "no priced 1-GPU build fits $200: the cheapest is $"),
    ],
)
def test_impossible_questions_say_why(catalog: Catalog, question: Question, message: str) -> None:
    with pytest.raises(SuggestError, match=message.replace("$", r"\$")):
        suggest(catalog, A, question)


def test_a_goal_given_as_text_is_the_goal() -> None:
    """Qt returns combo-box data as plain text: "vram" must still ask for the most GPU memory."""
    from rigplan.suggest import Goal, Question

    q = Question(budget=5000, goal="vram")  # type: ignore[arg-type]
    assert q.goal is Goal.VRAM
