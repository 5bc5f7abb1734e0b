"""What the balance stage says (suggest.balance): the split of the money, each step of the expert's order bought or
not and why, and what the remainder would have bought; and the first essential the budget alone kept out."""

from __future__ import annotations

from collections.abc import Callable

from rigplan.suggest.balance import Balance, Step


def text(b: Balance, money: object) -> list[str]:
    """The split, each step of the order, and what the remainder would have bought; money(usd) -> str."""
    fmt: Callable[[float], str] = money if callable(money) else str
    gpus, platform, rest = b.split_usd
    lines = [f"GPUs {fmt(gpus)}, platform (board, CPU, RAM) {fmt(platform)}, the rest {fmt(rest)}"]
    lines += [_step(st, fmt) for st in b.steps]
    lines.append(_left(b, fmt))
    return lines


def _how(already: bool, extra: float | None, fmt: Callable[[float], str]) -> str:
    """How a step (or the part of one) was bought: already, at +price, or a part swapped at the same price."""
    return "already" if already else f"+{fmt(extra)}" if extra else "a part swapped for one at the same price"


def _step(st: Step, fmt: Callable[[float], str]) -> str:
    """One step of the order: bought, not bought and why, or (the RAM step, suggest.ram_step) bought toward its
    target with why not all of it: "bought: system RAM 256 GB toward 384 GB (...) (+$165); 384 GB: <why not>"."""
    if st.bought:
        return f"bought: {st.what} ({_how(st.already, st.extra_usd, fmt)})"
    if st.extra_usd is not None:
        why = f"+{fmt(st.extra_usd)}, more than the budget leaves"
    elif st.beyond_usd is not None:
        why = (
            f"the cheapest build of these GPUs with it costs {fmt(st.beyond_usd)}, more than a quarter over the budget"
        )
    else:
        why = st.why or "more than the budget leaves"
    part = st.toward
    if part is None:
        return f"not bought: {st.what} ({why})"
    return f"bought: {part.said(st.what)} ({_how(False, part.usd, fmt)}); {part.target_gb:g} GB: {why}"


def _left(b: Balance, fmt: Callable[[float], str]) -> str:
    """What is left unspent and why: the first step not bought names what the remainder lacks (a partial RAM step
    says what it bought, and the next size no build within the budget has, which more money would buy first)."""
    missed = next((st for st in b.steps if not st.bought), None)
    left = f"left unspent: {fmt(b.remainder_usd)}"
    part = missed.toward if missed is not None else None
    if part is not None:
        left += f" ({part.gb:g} GB of RAM bought toward {part.target_gb:g} GB, " + (
            f"no build within the budget has {part.next_gb:g} GB)"
            if part.next_gb
            else "the largest priced kit below it)"
        )
    if missed is not None and missed.over_usd is not None:
        left += f", short of {missed.what} by {fmt(missed.over_usd)}"
    elif missed is not None and missed.beyond_usd is not None:
        left += f": {missed.what} takes a build of {fmt(missed.beyond_usd)}"
    elif missed is not None and missed.why is not None and part is not None and part.next_gb:
        left += f": more money buys {part.next_gb:g} GB of RAM first; no priced build has {missed.what} (why above)"
    elif missed is not None and missed.why is not None:
        left += (
            f": not for want of money (no priced build has {missed.what}: why above); more money goes to faster GPUs"
            " (see what binds)"
        )
    elif missed is None and b.essentials_only:
        left += (
            ": the essentials are bought; this goal spends nothing more (more money would only delay the break-even"
            " or raise the price)"
        )
    elif missed is None:
        left += ": every step of the order is bought; more money goes to faster GPUs (see what binds)"
    else:
        left += (
            ": no build that passes the checks has what is not bought within a quarter over the budget (on this wall"
            " circuit the GPUs' power can rule out a bigger CPU or PSU; see what binds)"
        )
    return left


def short_essential(b: Balance) -> Step | None:
    """The first step not bought when it is an essential the budget alone kept out (a build of these GPUs with it
    exists within a quarter over the budget); None otherwise. A RAM step bought only toward its target is not bought
    (suggest.ram_step): the trade for the essentials still sees it short."""
    missed = next((st for st in b.steps if not st.bought), None)
    return missed if missed is not None and missed.essential and missed.over_usd is not None else None
