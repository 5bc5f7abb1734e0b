"""What the balance stage says (suggest.balance): the split of the money, each step of the expert's order bought or
not and why, and what the remainder would have bought; and the first essential the budget alone kept out."""

from __future__ import annotations

from rigplan.suggest.balance import Balance, Step


def text(b: Balance, money: object) -> list[str]:
    """The split, each step of the order, and what the remainder would have bought; money(usd) -> str."""
    fmt = money if callable(money) else str
    gpus, platform, rest = b.split_usd
    lines = [f"GPUs {fmt(gpus)}, platform (board, CPU, RAM) {fmt(platform)}, the rest {fmt(rest)}"]
    for st in b.steps:
        if st.bought:
            extra = st.extra_usd or 0.0
            how = "already" if st.already else f"+{fmt(extra)}" if extra else "a part swapped for one at the same price"
            lines.append(f"bought: {st.what} ({how})")
        elif st.extra_usd is not None:
            lines.append(f"not bought: {st.what} (+{fmt(st.extra_usd)}, more than the budget leaves)")
        elif st.beyond_usd is not None:
            lines.append(
                f"not bought: {st.what} (the cheapest build of these GPUs with it costs {fmt(st.beyond_usd)}, more "
                "than a quarter over the budget)"
            )
        elif st.why is not None:
            lines.append(f"not bought: {st.what} ({st.why})")
        else:
            lines.append(f"not bought: {st.what} (more than the budget leaves)")
    missed = next((st for st in b.steps if not st.bought), None)
    left = f"left unspent: {fmt(b.remainder_usd)}"
    if missed is not None and missed.over_usd is not None:
        left += f", short of {missed.what} by {fmt(missed.over_usd)}"
    elif missed is not None and missed.beyond_usd is not None:
        left += f": {missed.what} takes a build of {fmt(missed.beyond_usd)}"
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
    lines.append(left)
    return lines


def short_essential(b: Balance) -> Step | None:
    """The first step not bought when it is an essential the budget alone kept out (a build of these GPUs with it
    exists within a quarter over the budget); None otherwise."""
    missed = next((st for st in b.steps if not st.bought), None)
    return missed if missed is not None and missed.essential and missed.over_usd is not None else None
