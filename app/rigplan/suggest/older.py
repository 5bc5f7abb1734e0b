"""The older platform as the named alternative (issue 37): from a budget of $5,000 the answer is the best build on a
current platform (suggest.found.CURRENT_PLATFORMS) whenever one passes; the best build on an older platform (AM4,
TRX40, X99, X299 and before) is named beside it with its price and throughput difference, when it is cheaper for the
same GPUs or buys better ones. Only when no current-platform build passes at all is the answer on the older one
(said in its first note, said.older_fallback)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from rigplan.model.parts import Cpu, Memory
from rigplan.suggest.balance import balance
from rigplan.suggest.breakeven import better
from rigplan.suggest.found import Found, is_current
from rigplan.suggest.question import Goal
from rigplan.suggest.said import older_socket
from rigplan.wording import money

if TYPE_CHECKING:
    from rigplan.suggest.search import Search


@dataclass(frozen=True)
class OlderAlternative:
    found: Found  # the older-platform build, balanced as the answer is
    socket: str  # "AM4"
    text: str  # "On AM4 (older platform): 2x ..., 3.38 V100-eq (+0.41), $7,255: $1,020 more than this answer"
    difference_usd: float  # its total minus the answer's (negative: cheaper)
    throughput_difference: float  # its V100-equivalents minus the answer's


def _best_older(s: Search, older: Search, least: Found) -> Found | None:
    """The best build only an older platform gives: better GPUs than the answer's within the budget (the goals that
    rank GPUs), an earlier break-even, or the answer's GPUs for less. None: the current platform does as well."""
    q = s.q
    if q.goal in (Goal.THROUGHPUT, Goal.VRAM):
        ups = [o for o in older.options if older.value(o) > s.value(least.option)]
        alt = older.best(options=ups) if ups else None
        if alt is not None:
            return alt
    elif q.goal is Goal.BREAKEVEN:
        alt = older.best()
        if alt is not None and alt.score is not None and least.score is not None and better(alt.score, least.score):
            return alt
        return None
    return older.complete(least.option, least.total_usd - 0.01)  # the same GPUs, cheaper


def older_alternative(
    s: Search, older: Search, least: Found, answer: Found, essentials_only: bool
) -> OlderAlternative | None:
    """The older platform's best build beside the answer (least: the answer before the balance stage)."""
    alt = _best_older(s, older, least)
    if alt is None:
        return None
    board = alt.parts[0][0] if alt.parts else None
    if is_current(getattr(board, "socket", None)):
        return None  # never: the current search found nothing this good
    if s.q.expert and s.q.budget is not None:
        alt = balance(older, alt, essentials_only=essentials_only).found
        if older.objective is not None:
            alt = replace(alt, score=older.objective.score(alt.build(older.a), alt.total_usd))
    o, mine = alt.option, answer.option
    diff = alt.total_usd - answer.total_usd
    dt = o.throughput - mine.throughput
    cur = s.q.currency
    price = money(cur, s.from_usd(alt.total_usd), 0)
    than = (
        f"{money(cur, s.from_usd(abs(diff)), 0)} {'less' if diff < 0 else 'more'} than this answer"
        if abs(diff) >= 0.5
        else "the same price as this answer"
    )
    speed = f"{dt:+.2f} V100-eq." if abs(dt) >= 0.005 else "the same throughput"
    day = ""
    if alt.score is not None and answer.score is not None:
        day = f", breaks even on day {alt.score.days:,.0f} (this answer: day {answer.score.days:,.0f})"
    sock = older_socket(alt)
    text = (
        f"On {sock} (older platform): {o.count}x {o.part.name}, {o.throughput:.2f} V100-equivalents ({speed}), "
        f"{o.vram_gb:g} GB GPU memory, {price}: {than}{day}{_platforms(alt, answer)}"
    )
    return OlderAlternative(alt, sock, text, s.from_usd(diff), dt)


def _platform(found: Found) -> str | None:
    """'24 cores, PCIe 4.0, 256 GB DDR4' of a build (None when its CPU or memory is not known)."""
    cpu = next((p for p, _ in found.parts if isinstance(p, Cpu)), None)
    ram = next((p for p, _ in found.parts if isinstance(p, Memory)), None)
    if cpu is None or ram is None or cpu.cores is None or ram.capacity_gb is None:
        return None
    gen = f", PCIe {cpu.pcie_gen}" if cpu.pcie_gen else ""
    return f"{cpu.cores} cores{gen}, {ram.capacity_gb:g} GB {ram.ram_type or 'RAM'}"


def _platforms(alt: Found, answer: Found) -> str:
    """What the older platform gives beside this answer's (issue 37: an older platform is named with what it costs
    and what it gives up): '; its CPU and RAM: 24 cores, PCIe 4.0, 256 GB DDR4 (this answer: 24 cores, PCIe 5.0,
    192 GB DDR5)'."""
    theirs, mine = _platform(alt), _platform(answer)
    if theirs is None or mine is None:
        return ""
    return f"; its CPU and RAM: {theirs} (this answer: {mine})"
