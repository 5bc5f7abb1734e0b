"""When a question has no answer at any price, name what blocks it (issue 37): the wall circuit (a build exists on a
240 V / 30 A circuit), or missing data (a build exists when parts of missing data are allowed: which rule it leaves
unchecked, and how many of the priced parts of that kind lack the fact). Each test is one search of the cheapest
build with one thing relaxed, so the answer stays a fact about the catalog, not a guess."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from rigplan.model.build import Build, BuildItem
from rigplan.rules.context import Ctx
from rigplan.rules.engine import RULES
from rigplan.suggest.candidates import most_x16
from rigplan.suggest.question import Goal
from rigplan.wording import money

if TYPE_CHECKING:
    from rigplan.suggest.found import Found, GpuOption
from rigplan.suggest.search import Search

WALL = (240.0, 30.0)  # the largest circuit a home or lab outlet gives (NEMA 6-30, 240 V / 30 A)
COUNTED = 3000  # candidates of a kind judged when counting those that lack a fact


def _cheapest(s: Search, options: list[GpuOption], **change: object) -> tuple[Search, Found | None]:
    """The cheapest build of `options` with the question or the assumptions changed as given."""
    from rigplan.suggest.search import Search  # the search imports this module's callers

    a = s.a
    wall = change.pop("wall", None)
    if isinstance(wall, tuple):
        a = a.model_copy(update={"wall_voltage": wall[0], "wall_amps": wall[1]})
    q = replace(s.q, budget=None, goal=Goal.CHEAPEST_VRAM, target=1e-9, **change)  # type: ignore[arg-type]
    other = Search(s.catalog, a, q, perf=s.perf)
    keep = {(o.row, o.count) for o in options}
    return other, other.best(options=[o for o in other.options if (o.row, o.count) in keep])


def wall_blocks(s: Search, options: list[GpuOption]) -> str:
    """The wall circuit binds: no build passes on this circuit, one does on 240 V / 30 A."""
    if (s.a.wall_voltage, s.a.wall_amps) == WALL:
        return ""
    other, found = _cheapest(s, options, wall=WALL)
    if found is None:
        return ""
    o = found.option
    return (
        f"the {s.a.wall_voltage:g} V / {s.a.wall_amps:g} A wall circuit binds: on {WALL[0]:g} V / {WALL[1]:g} A the "
        f"cheapest is {o.count}x {o.part.name} for {_money(s, found.total_usd)}"
    )


def missing_blocks(s: Search, options: list[GpuOption]) -> str:
    """Missing data binds: with parts of missing data allowed a build passes; name the rules it leaves unchecked
    that the search does not accept, and how many priced parts of the kind lack the fact."""
    if s.q.allow_missing_data or not s.strict.unknown:
        return ""
    other, found = _cheapest(s, options, allow_missing_data=True)
    if found is None:
        return ""
    build = found.build(s.a)
    from rigplan.rules import check

    said: list[str] = []
    for n in check(build).not_checked:
        strict = n.rule in s.strict.unknown and next(r for r in RULES if n.rule in r.ids).strict_unknown_in(build)
        if not strict or any(n.rule in x for x in said):
            continue
        said.append(f"{n.rule} ({n.reason}{_lacking(other, build, n.rule, n.kinds)})")
    if not said:
        return ""
    o = found.option
    return (
        f"missing data binds: the cheapest build ({o.count}x {o.part.name}, {_money(s, found.total_usd)}) passes "
        f"only with parts of missing data allowed, leaving unchecked: {'; '.join(said)}"
    )


def _lacking(s: Search, build: Build, rule_id: str, kinds: tuple[object, ...]) -> str:
    """ ", for N of M priced <kind>s": the candidates of the kind that, in the build's place, leave the rule
    unchecked too (the GPUs' kind is left out: the options say it)."""
    rule = next((r for r in RULES if rule_id in r.ids), None)
    if rule is None:
        return ""
    for kind in kinds:
        lst = s.cands.lists.get(kind)  # type: ignore[call-overload]
        if not lst:
            continue
        table = s.cands.sub.table(kind)  # type: ignore[arg-type]
        others = tuple(i for i in build.items if i.part.kind is not kind)
        lacking = 0
        for _, row in lst[:COUNTED]:
            c = Ctx(Build(items=(*others, BuildItem(part=table.part(row))), assumptions=build.assumptions))
            rule.run(c)
            lacking += any(x.rule == rule_id for x in c.report.not_checked)
        label = getattr(kind, "label", str(kind)).lower()
        return f", for {lacking} of {min(len(lst), COUNTED)} priced {label}s that meet the minimums"
    return ""


def _money(s: Search, usd: float) -> str:
    return money(s.q.currency, s.from_usd(usd), 0)


def slots_block(s: Search, options: list[GpuOption]) -> str:
    """Every option needs more x16 slots than any priced board that fits the cases asked for has (no search). Sound
    only while a board of unknown slots fails (its "not checked" is strict), so not with missing data allowed."""
    most = most_x16(s.cands.sub, s.cands.lists, s.q.allow_missing_data)
    if not options or most is None:
        return ""
    fewest = min(o.count for o in options)
    if fewest <= most:
        return ""
    cases = s.pricing.cases
    where = f" that fits a {' or '.join(cases.classes)} case" if cases is not None else ""
    return f"every option needs {fewest}+ GPUs, and no priced board{where} has more than {most} x16-size slots"


def blocker(s: Search, options: list[GpuOption], searched: bool = True) -> str:
    """What blocks a question no build answers at any price ("" when no test finds it); searched: the searches
    with one thing relaxed are run too (else the slot count alone, which costs nothing)."""
    return slots_block(s, options) or (wall_blocks(s, options) or missing_blocks(s, options) if searched else "")
