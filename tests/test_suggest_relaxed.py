"""The bound per GPU count (rigplan.suggest.relaxed): the cheapest completion of the loosest card never exceeds the
cheapest completion of any real option of that count, and answers with the bound equal answers without it, both
on reduced catalogs against brute force (every build judged by check() and the strict "not checked" rules) and on
the full catalog against the search without the bound."""

from __future__ import annotations

import math
import random
import sys
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest

from rigplan.cloud.offers import load_offers
from rigplan.model.offers import Offer
from rigplan.model.parts import Kind, Part
from rigplan.rules import check
from rigplan.suggest import suggest
from rigplan.suggest.explain import RUNNER_UP_SHARE, listed
from rigplan.suggest.explain import _rank as rank
from rigplan.suggest.found import Found
from rigplan.suggest.question import Goal, Question
from rigplan.suggest.relaxed import LOOSEST, loosest
from rigplan.suggest.search import Search

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from _suggest_reference import A, Row, brute_force, reduced  # noqa: E402
from test_suggest_bruteforce import expected, full, random_question  # noqa: E402

pytestmark = pytest.mark.slow  # brute force over reduced catalogs, and uncapped completions on the full one


def strict_question(q: Question) -> Question:
    """The brute force's question with "unknown is not a pass" on, the minimums off: the bound is used only then."""
    return replace(q, expert=False, allow_missing_data=False)


# Random reduced catalogs rarely hold a build that leaves no strict rule unchecked (PSU cables, slot wiring): these
# seeds of _suggest_reference.reduced hold some. pool() adds catalogs with two-GPU builds. The merged data of
# issues 34-37 (boards, cases and PSUs re-imported) changed the random reduced catalogs: seed 17 then drew only PSUs
# of unknown cable counts (no strict build at all) and 71 answered 1 of its 30 questions, so 10 (72 one-GPU and 24
# two-GPU strict builds) and 12 (105 one-GPU) replaced them; every question answered still equals brute force.
# The sixth round priced the Threadripper 7960X and TRX50-SAGE, and seed 12 then drew no strict build: 19 (104 strict
# builds of one and two GPUs, 15 of its 30 questions answered) replaced it.
STRICT_SEEDS = [10, 19]


def strict_ok(rows: list[Row]) -> list[Row]:
    judge = Search(full(), A, strict_question(Question(budget=1000))).strict
    return [r for r in rows if not judge.failures(check(r.build), r.build)]


@cache
def strict_rows(seed: int) -> tuple[list[Part], list[Row]]:
    """The reduced catalog's builds that pass check() and leave no strict rule unchecked."""
    parts = reduced(seed, full())
    return parts, strict_ok(brute_force(parts))


@cache
def pool() -> tuple[list[Part], list[Row]]:
    """A reduced catalog of the parts of three real two-GPU builds of the full catalog (cheap, middling and dear
    GPUs, each with its own cheapest completion), so that the builds mixing them leave nothing unchecked."""
    s = Search(full(), A, strict_question(Question(budget=None, goal=Goal.CHEAPEST_VRAM, target=1, max_gpus=2)))
    twos = sorted((o for o in s.options if o.count == 2), key=lambda o: o.cost_usd)
    builds: list[Found] = []
    for o in twos[:: max(1, len(twos) // 5)]:
        found = s.complete(o, math.inf)
        if found is not None and all(found.parts[0][0].id != b.parts[0][0].id for b in builds):
            builds.append(found)
        if len(builds) == 3:
            break
    parts = {p.id: p for b in builds for p, _ in b.parts} | {b.option.part.id: b.option.part for b in builds}
    chosen = list(parts.values())
    return chosen, strict_ok(brute_force(chosen))


def catalog_of(seed: int) -> tuple[list[Part], list[Row]]:
    return pool() if seed == 0 else strict_rows(seed)


def rest(found: Found) -> float:
    return found.total_usd - found.option.cost_usd


def rest_of(row: Row) -> float:
    """What a brute-force build's parts other than the GPUs cost."""
    return sum(i.part.price.amount for i in row.build.items if i.part.kind is not Kind.GPU and i.part.price)


def eager(s: Search) -> Search:
    s.rest_floor.patience_nodes = 0  # the bound searched at the first option, not after fruitless completions
    return s


@pytest.mark.parametrize("seed", [0, *STRICT_SEEDS])  # 0: the pool of real two-GPU builds
def test_loosest_card_bounds_every_option_on_reduced_catalogs(seed: int) -> None:
    parts, rows = catalog_of(seed)
    only = frozenset(p.id for p in parts)
    s = eager(Search(full(), A, strict_question(Question(budget=None, goal=Goal.CHEAPEST_VRAM, target=1)),
                     only=only))  # fmt: skip
    checked = 0
    for n in (1, 2):
        card = loosest(s.options, n)
        mine = [r for r in rows if r.count == n]
        if card is None:
            assert not mine
            continue
        floor = s.complete(card, math.inf)
        if not mine:
            continue
        assert floor is not None, (seed, n)  # a real build exists, so the loosest card has one too
        for r in mine:
            assert floor.total_usd <= rest_of(r) + 1e-6, (seed, n, r.total)
            checked += 1
    assert checked, seed


@pytest.mark.parametrize("seed", [0, *STRICT_SEEDS])
def test_answers_with_the_bound_equal_strict_brute_force(seed: int) -> None:
    parts, rows = catalog_of(seed)
    catalog = full()
    only = frozenset(p.id for p in parts)
    rng = random.Random(seed * 31)
    answered = 0
    for _ in range(30):
        q = strict_question(random_question(rng))
        want = expected(rows, q, {})
        found = eager(Search(catalog, A, q, only=only)).best()
        if want is None:
            assert found is None, (q, found and found.total_usd)
            continue
        answered += 1
        assert found is not None, (q, want)
        assert found.total_usd == pytest.approx(want[1], abs=1e-6), q
    assert answered >= 3, (seed, answered)


# Full-catalog questions where counts of 2-4 GPUs compete for a budget (the expert's minimums on).
FULL = [
    Question(budget=1500, max_gpus=2),
    Question(budget=3000, max_gpus=2),
    Question(budget=10000),
    Question(budget=6000, max_gpus=3, min_vram_gb=16),
    Question(budget=None, goal=Goal.CHEAPEST_THROUGHPUT, target=2.0, max_gpus=2),
]


@pytest.mark.parametrize("q", FULL, ids=lambda q: f"{q.goal.value}-{q.budget}-{q.max_gpus}")
def test_full_catalog_answers_equal_without_the_bound(q: Question) -> None:
    catalog = full()
    with_bound = eager(Search(catalog, A, q)).best()
    plain = Search(catalog, A, q)
    plain.rest_floor.patience_nodes = 10**12  # never searched: the search as it was before the bound
    without = plain.best()
    assert (with_bound is None) == (without is None)
    if with_bound is not None and without is not None:
        assert with_bound.total_usd == pytest.approx(without.total_usd, abs=1e-6)
        assert plain.value(with_bound.option) == plain.value(without.option)


def test_loosest_card_bounds_the_real_two_gpu_options_on_the_full_catalog() -> None:
    """The 2-GPU options of most different facts (shortest and longest, least and most power, 8-pin, 16-pin and EPS
    inputs, narrowest and widest): the loosest card's cheapest completion costs no more than each one's."""
    s = eager(Search(full(), A, Question(budget=None, goal=Goal.CHEAPEST_VRAM, target=1, max_gpus=2)))
    twos = [o for o in s.options if o.count == 2]
    card = loosest(s.options, 2)
    assert card is not None and card.part.name == LOOSEST
    floor = s.complete(card, math.inf)
    assert floor is not None
    picks = {
        min(twos, key=lambda o: o.part.length_mm or math.inf).row,
        max(twos, key=lambda o: o.part.length_mm or 0).row,
        min(twos, key=lambda o: o.part.tdp_w or math.inf).row,
        max(twos, key=lambda o: o.part.tdp_w or 0).row,
        max(twos, key=lambda o: o.part.slot_width or 0).row,
        min(twos, key=lambda o: o.cost_usd).row,
    }
    for attr in ("pin16", "pin8", "eps8"):
        with_input = [o for o in twos if o.part.power_connectors and getattr(o.part.power_connectors, attr)]
        if with_input:
            picks.add(min(with_input, key=lambda o: o.cost_usd).row)
    completed = 0
    for o in (o for o in twos if o.row in picks):
        found = s.complete(o, math.inf)
        if found is not None:
            completed += 1
            assert rest(floor) <= rest(found) + 1e-6, o.part.name
    assert completed >= 4, completed


def p3() -> Offer:
    return load_offers().get("aws:p3.2xlarge:us-east-1")  # type: ignore[return-value]


@pytest.mark.parametrize(
    "q",
    # Older platforms allowed from $5,000 (issue 37 leaves them out there): 3-4 GPU builds exist only on TRX40, and
    # the test needs two runners-up by count.
    [Question(budget=2500), Question(budget=6000, goal=Goal.VRAM, older_platforms=True), "beat"],
    ids=["throughput-2500", "vram-6000", "breakeven-5000"],
)
def test_runners_up_equal_those_of_every_count_searched(q: Question | str) -> None:
    """The explanation skips a GPU count that cannot rank among the two best runners-up (explain._cannot_place):
    its runners-up equal those found by searching every count and ranking them all."""
    if q == "beat":
        q = Question(budget=5000, goal=Goal.BREAKEVEN, beat=p3(), older_platforms=True)
    assert isinstance(q, Question)
    catalog = full()
    sug = suggest(catalog, A, q)
    # An answer that traded its GPUs for the essentials (suggest.answer._trade) ranks runners-up held to them too.
    traded = any(line.startswith("traded for the essentials") for line in sug.spending)
    s = Search(catalog, A, replace(q, essentials=True) if traded else q)
    every = []
    for n in q.counts():
        if n == sug.found.option.count:
            continue
        alt = s.best(options=[o for o in s.options if o.count == n])
        if alt is not None and not (alt.score is not None and math.isinf(alt.score.days)):
            every.append(alt)
    want = sorted(every, key=lambda f: (rank(s, f), f.option.count))[:2]
    got = [a.found for a in sug.runners_up if a.why.endswith(("GPU", "GPUs"))]
    assert len(want) == 2, "the question should have two runners-up by count (else it tests little)"
    if q.goal in (Goal.THROUGHPUT, Goal.VRAM):  # below half the answer's main value: left out, and said (explain)
        least = RUNNER_UP_SHARE * s.value(sug.found.option)[0]
        out = [f for f in want if s.value(f.option)[0] < least]
        want = [f for f in want if s.value(f.option)[0] >= least]
        said = [n for n in sug.notes if "not listed as runner" in n]
        assert bool(out) == bool(said), (out, said)
        assert all(f"{f.option.count} GPU" in said[0] for f in out)
    assert [(f.option.count, round(f.total_usd, 2)) for f in got] == [
        (f.option.count, round(f.total_usd, 2)) for f in want
    ]


def test_a_runner_up_is_listed_from_half_the_answers_value() -> None:
    """RUNNER_UP_SHARE at the line and one unit under it: half the answer's throughput (1.445 of 2.89 V100-eq.) or
    GPU memory (16 of 32 GB) is listed; 0.01 less is not."""
    assert RUNNER_UP_SHARE == 0.5
    assert listed(1.445, 2.89) and not listed(1.435, 2.89)
    assert listed(16.0, 32.0) and not listed(15.99, 32.0)
    assert listed(3.0, 2.89)  # better than the answer (another count may win on the second value)
