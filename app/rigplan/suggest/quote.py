"""A current workstation platform to quote (issue 37, fifth round).

When a 3+ GPU question is answered on an older platform because no current workstation platform has a priced CPU and
board (Threadripper 7000 / 9000 and PRO on TRX50 / WRX90, Xeon W on W790, EPYC on SP5: docs/data.md, "Workstation
platforms for 3+ GPUs"), an expert still writes down the machine he would sell and asks for a quote on the missing
prices. So does the answer: the same GPUs on a current workstation platform, every check passing and the essentials
asked (RAM twice the GPU memory, 4 cores per GPU and 16 at least), with the CPU and board named as "no price" and
the most they may cost together for the machine to stay within the budget and to cost less than the older-platform
answer.

No price is invented. The search weighs the unpriced CPUs and boards of those platforms at a nominal cent per CPU
core and a cent per board, so it takes the fewest cores the minimums allow and any board that passes; the nominal
cents never reach a figure the answer shows (the priced parts' total leaves them out).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from rigplan.model.common import Price
from rigplan.model.parts import Kind, Part
from rigplan.rules import check
from rigplan.suggest.found import CURRENT_PLATFORMS, WORKSTATION_SOCKETS, Found, platform_key
from rigplan.suggest.question import SuggestError
from rigplan.suggest.search import Search
from rigplan.wording import money

NOMINAL_USD = 0.01  # a cent per CPU core, a cent per board: an order for the search, never a price said
QUOTED = (Kind.CPU, Kind.MOTHERBOARD)


@dataclass(frozen=True)
class Quote:
    found: Found  # the build; its parts' USD as searched (the CPU and board at the nominal cents, never shown), its
    # own prices the user's only, so found.build() gives the CPU and board no price
    unpriced: tuple[Part, ...]  # the parts to quote (the CPU, the board)
    priced_usd: float  # what the other parts cost
    text: str


def _nominal(s: Search) -> dict[str, Price]:
    """The nominal prices of the unpriced CPUs and boards of the current workstation platforms (the user's own
    prices, where given, stay theirs)."""
    out: dict[str, Price] = {}
    mine = {pid for pid, _ in s.q.own_prices}
    for kind in QUOTED:
        table = s.catalog.table(kind)
        cores = table.column("cores") if kind is Kind.CPU else None
        for row, (pid, price, socket) in enumerate(
            zip(table.ids, table.column("price"), table.column("socket"), strict=True)
        ):
            if price or pid in mine or platform_key(socket) not in WORKSTATION_SOCKETS:
                continue
            each = (cores[row] or 1) if cores is not None else 1
            out[pid] = Price(amount=NOMINAL_USD * each, currency="USD", source="nominal: no price (to quote)")
    return out


def quote_current(s: Search, answer: Found) -> Quote | None:
    """The answer's GPUs on a current workstation platform whose CPU or board has no price (None: no such build
    passes, or the question has fewer than 3 GPUs; s: the search on current platforms that found nothing)."""
    n = answer.option.count
    if n < 3:
        return None
    nominal = _nominal(s)
    if not nominal:
        return None
    # The essentials as minimums of the one search (balance.py's first steps: RAM twice the GPUs' memory, 4 cores
    # per GPU, then 16 cores); the cooler's rating is left to "not checked" (no priced cooler of these sockets has
    # one).
    ram = max(s.q.min_ram_gb or 0.0, 2 * answer.option.vram_gb)
    cores = max(s.q.min_cores or 0, 4 * n, 16)  # and balance.py's 16 cores for a workstation (Puget Systems)
    q = replace(
        s.q,
        own_prices=(*s.q.own_prices, *nominal.items()),
        gpus=n,
        budget=1e9,  # any price: the budget is what the answer compares the priced parts with
        older_platforms=False,
        min_ram_gb=ram,
        min_cores=cores,
    )
    try:
        quoting = Search(s.catalog, s.a, q, perf=s.perf)
    except SuggestError:
        return None
    same = [o for o in quoting.options if o.part.id == answer.option.part.id and o.count == n]
    found = quoting.complete(same[0], math.inf) if same else None
    if found is None:
        return None
    # The build carries the user's own prices only: the CPU and board keep "no price" (never the nominal cents).
    found = replace(found, own={pid: p for pid, p in found.own.items() if pid not in nominal})
    unpriced = tuple(p for p, _ in found.parts if p.id in nominal)
    if not unpriced:
        return None  # never: the current search found nothing with priced parts alone
    priced = found.total_usd - sum(usd for p, usd in found.parts if p.id in nominal)
    return Quote(found, unpriced, priced, _text(s, found, unpriced, priced, answer))


LABEL = {Kind.CPU: "CPU", Kind.MOTHERBOARD: "board"}


def _text(s: Search, found: Found, unpriced: tuple[Part, ...], priced: float, answer: Found) -> str:
    cur = s.q.currency
    o = found.option
    board = next((p for p, _ in found.parts if p.kind is Kind.MOTHERBOARD), None)
    cpu = next((p for p, _ in found.parts if p.kind is Kind.CPU), None)
    socket = platform_key(getattr(board, "socket", None))
    rest = ", ".join(p.name for p, _ in found.parts if p.kind not in QUOTED)
    which = " and ".join(LABEL[p.kind] for p in sorted(unpriced, key=lambda p: p.kind is Kind.CPU, reverse=True))
    two = len(unpriced) > 1
    report = check(found.build(s.a))
    unknown = sorted({n.rule for n in report.not_checked})
    checks = "passes every check" + (f" (not checked: {', '.join(unknown)})" if unknown else "")
    said = (
        f"{o.count}x {o.part.name} on {board.name if board else '?'} with {cpu.name if cpu else '?'}, a current "
        f"{CURRENT_PLATFORMS.get(socket, socket)} platform: {checks}; the {which} {'have' if two else 'has'} no price "
        f"in the catalog: quote {'them' if two else 'it'}; the other parts ({rest}) cost "
        f"{money(cur, s.from_usd(priced), 0)}"
    )
    if s.q.budget is not None:
        room = s.budget_usd() - priced
        said += (
            f": within the budget if the {which} cost at most {money(cur, s.from_usd(room), 0)}"
            + (" together" if two else "")
            if room > 0
            else f": over the budget before the {which}"
        )
    under = answer.total_usd - priced
    if under > 0:
        said += f"; less than this answer if under {money(cur, s.from_usd(under), 0)}"
    return said
