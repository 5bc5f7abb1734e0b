"""The exactness proof: on reduced catalogs (parts of the real one), the search's answer equals brute force, i.e.
check() run on every combination of one part per kind (GPUs: 1 or 2 of one part), for 200+ random questions."""

from __future__ import annotations

import math
import random
import sys
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest

from rigplan.catalog.loader import Catalog, load_catalog
from rigplan.cloud.offers import load_offers
from rigplan.costs.analysis import analyse, desktop_throughput
from rigplan.model.assumptions import Assumptions
from rigplan.model.offers import Offer
from rigplan.model.parts import Part
from rigplan.rules import check
from rigplan.suggest.question import Goal, Question
from rigplan.suggest.search import Search

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from _suggest_reference import PERF, A, Row, brute_force, reduced  # noqa: E402

pytestmark = pytest.mark.slow  # each test here takes several seconds (subprocesses, searches, fuzzing)


def expected(rows: list[Row], q: Question, gpu_vram: dict[int, float]) -> tuple[float, float] | None:
    """(objective value, total) of the best row by the question's goal, or None."""
    ok = [
        r
        for r in rows
        if (q.budget is None or r.total <= q.budget + 1e-6)
        and (q.gpus is None or r.count == q.gpus)
        and r.vram / r.count >= q.min_vram_gb
        and r.ram >= q.min_ram_gb
    ]
    if q.goal is Goal.CHEAPEST_THROUGHPUT:
        ok = [r for r in ok if r.throughput >= (q.target or 0) - 1e-9]
    if not ok:
        return None
    if q.goal is Goal.THROUGHPUT:
        top = max((r.throughput, r.vram) for r in ok)
        return top[0], min(r.total for r in ok if (r.throughput, r.vram) == top)
    if q.goal is Goal.VRAM:
        top = max((r.vram, r.throughput) for r in ok)
        return top[0], min(r.total for r in ok if (r.vram, r.throughput) == top)
    cheapest = min(r.total for r in ok)
    return cheapest, cheapest


def random_question(rng: random.Random) -> Question:
    goal = rng.choice([Goal.THROUGHPUT, Goal.THROUGHPUT, Goal.VRAM, Goal.CHEAPEST_THROUGHPUT])
    target = round(rng.uniform(0.2, 3.0), 2) if goal is Goal.CHEAPEST_THROUGHPUT else None
    budget = None if goal is Goal.CHEAPEST_THROUGHPUT and rng.random() < 0.5 else float(rng.randrange(400, 7000, 50))
    return Question(
        budget=budget,
        goal=goal,
        target=target,
        gpus=rng.choice([None, None, 1, 2]),
        max_gpus=2,
        min_vram_gb=rng.choice([0, 0, 8, 12, 16, 24]),
        min_ram_gb=rng.choice([0, 0, 16, 32]),
        # The brute force judges builds by check() alone: the search is asked the same (issue 26's minimums and
        # strictness off; tests/test_suggest_panel.py judges them on the full catalog).
        expert=False,
        allow_missing_data=True,
    )


@cache
def full() -> Catalog:
    """The catalog in use, loaded once for the module (and tests/test_suggest_relaxed.py): every question is asked
    of one loaded catalog, as the app asks them, so the rules' verdicts cached on its tables (keyed by the facts they
    read, never by which question asked) serve the next question; the reduced catalogs are drawn from it too."""
    return load_catalog()


@cache
def rows_for(seed: int) -> tuple[list[Part], list[Row]]:
    parts = reduced(seed, full())
    return parts, brute_force(parts)


# Issue 19 priced 1,266 more parts, which changed the random reduced catalogs: seeds 11 and 23 then drew catalogs
# with no valid build at all, so 71 and 83 replaced them (each answers 14 and 32 of its 45 questions). Issue 25's
# price-join checks and data-quality pass changed them again: seed 53 drew no valid build, 67 (18 answered) replaced it.
# The third round (LGA 1700 memory, PCIe floors, blowers) left 67 with no valid build: 101 (324 builds) replaced it.
# The sixth round priced the Threadripper 7960X and TRX50-SAGE (Swiss listings): seed 61 then answered 9 of its 45
# questions (the floor is 11), so 43 (510 builds, 29 answered) replaced it.
SEEDS = [71, 83, 37, 101, 43]
CASES_PER_CATALOG = 45  # 5 x 45 = 225 questions


@pytest.mark.parametrize("seed", SEEDS)
def test_search_equals_brute_force(seed: int) -> None:
    parts, rows = rows_for(seed)
    catalog = full()
    only = frozenset(p.id for p in parts)
    rng = random.Random(seed * 1000)
    answered = 0
    for _ in range(CASES_PER_CATALOG):
        q = random_question(rng)
        want = expected(rows, q, {})
        found = Search(catalog, A, q, only=only).best()
        if want is None:
            assert found is None, (q, found and found.total_usd)
            continue
        answered += 1
        assert found is not None, (q, want)
        build = found.build(A)
        assert check(build).ok  # the answer itself passes every check
        value = found.total_usd if q.goal is Goal.CHEAPEST_THROUGHPUT else (
            found.option.vram_gb if q.goal is Goal.VRAM else found.option.throughput
        )  # fmt: skip
        assert value == pytest.approx(want[0], abs=1e-6), q
        assert found.total_usd == pytest.approx(want[1], abs=1e-6), q
        tp, _, _ = desktop_throughput(build, PERF, A)  # the throughput shown is the cost model's own
        assert tp == pytest.approx(found.option.throughput)
    # The catalogs are built so that questions have answers: a test that only ever compares "None" proves little.
    assert answered >= CASES_PER_CATALOG // 4, answered


# --- goal BREAKEVEN: the earliest break-even against a cloud offer ------------------------------------------------


def offers() -> list[Offer]:
    """Two offers of very different price and speed (a V100 at $3/h and a T4 at about $0.5/h), on-demand."""
    found = load_offers()
    out = []
    for instance in ("p3.2xlarge", "g4dn.xlarge"):
        hits = [o for o in found.find(provider="aws", instance=instance, region="us-east-1") if o.snapshot == "current"]
        out.append(hits[0])
    return out


ASSUMPTIONS = [A, A.model_copy(update={"hours_per_day": 3.0, "electricity_per_kwh": 0.40, "tax_fraction": 0.2})]


def days_of(row: Row, offer: Offer, a: Assumptions) -> float:
    """The break-even day as the Costs workspace computes it (rigplan.costs.analysis.analyse), never for none."""
    report = analyse(row.build.model_copy(update={"assumptions": a}), [offer])
    if not report.offers or report.offers[0].breakeven_days is None:
        return math.inf
    return report.offers[0].breakeven_days


BREAKEVEN_PER_CATALOG = 10  # 5 x 10 = 50 more questions: 275 in all


@pytest.mark.parametrize("seed", SEEDS)
def test_earliest_breakeven_equals_brute_force(seed: int) -> None:
    """--beat: the search's build breaks even on the same day, at the same price, as the best of every valid build
    of the reduced catalog, each costed by the cost model itself."""
    parts, rows = rows_for(seed)
    catalog = full()
    only = frozenset(p.id for p in parts)
    rng = random.Random(seed * 7919)
    days: dict[tuple[int, int], list[float]] = {}
    answered = 0
    for _ in range(BREAKEVEN_PER_CATALOG):
        oi, ai = rng.randrange(2), rng.randrange(2)
        offer, a = offers()[oi], ASSUMPTIONS[ai]
        if (oi, ai) not in days:
            days[(oi, ai)] = [days_of(r, offer, a) for r in rows]
        q = replace(random_question(rng), goal=Goal.BREAKEVEN, target=None, beat=offer)
        if q.budget is None or rng.random() < 0.2:
            q = replace(q, budget=None if rng.random() < 0.5 else float(rng.randrange(400, 7000, 50)))
        ok = [
            (d, r.total)
            for r, d in zip(rows, days[(oi, ai)], strict=True)
            if (q.budget is None or r.total <= q.budget + 1e-6)
            and (q.gpus is None or r.count == q.gpus)
            and r.vram / r.count >= q.min_vram_gb
            and r.ram >= q.min_ram_gb
        ]
        found = Search(catalog, a, q, only=only).best()
        if not ok:
            assert found is None, q
            continue
        want = min(ok)
        assert found is not None and found.score is not None, (q, want)
        assert check(found.build(a)).ok
        if math.isinf(want[0]):
            assert math.isinf(found.score.days), (q, want, found.score)
        else:
            answered += 1
            assert found.score.days == pytest.approx(want[0], abs=1e-6), (q, want, found.score)
        assert found.total_usd == pytest.approx(want[1], abs=1e-6), (q, want, found.score)
    assert answered >= BREAKEVEN_PER_CATALOG // 4, answered
