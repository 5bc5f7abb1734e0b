"""The app's one wording for money, break-even and a check report's summary: the window, the CLI, the exports and the
suggester's explanations all say these things through here, so they cannot drift apart (issue 34).

- Money: `money("USD", 1234.5)` is "$1,234.50": the currency's sign before the amount ("$", "€", "£", "¥"), else its
  ISO code and a space ("CHF 1,234.50"), as the window shows it in US English (the window follows the user's
  locale for digits and separators; files and the CLI keep this one form); an unknown amount is "no price", never 0.
- How a total says what it is (issue 19): with parts that have no price, a sum is a lower bound: "at least $1,234.00
  (3 parts without a price)".
- `BreakEven`: the cost model's verdict against one cloud offer, one enum, with its one wording.
- `checks_summary`: a check report in one line: "1 error, 2 warnings; 3 not checked", or "no problems found".

Plain Python with no imports from the package: the bottom layer, so every layer may use it (the build panel uses it
before the cost model is loaded).
"""

from __future__ import annotations

import math
from enum import StrEnum

# The one currency-sign table: the window's money formatter (gui.widgets.money), the exports and the charts' axes.
SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥"}


def symbol(code: str) -> str:
    """ "$", "€", ... or the ISO code and a space ("CHF ") for the others."""
    return SYMBOLS.get(code, code + " ")


def money(currency: str, amount: float | None, decimals: int = 2) -> str:
    """ "$1,234.50", "€402.74", "CHF 1,234.50", "-$5,000" (decimals=0); None (or not a finite number) is "no price"."""
    if amount is None or not math.isfinite(amount):
        return "no price"
    text = f"{symbol(currency)}{abs(amount):,.{decimals}f}"
    return "-" + text if round(amount, decimals) < 0 else text  # "-$5,000", not the accounting "($5,000)"


def plural(n: int, word: str) -> str:
    """ "1 error", "2 warnings", "0 notes"."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def unpriced_text(unpriced: int, other: int = 0) -> str:
    """ "3 parts without a price"; with unpriced Other items (fans, an OS...) among the `unpriced` lines, which are
    not parts: "2 parts and 1 other item without a price", "1 other item without a price" (issue 29)."""
    parts = max(unpriced - other, 0)
    bits = [plural(parts, "part")] if parts or not other else []
    if other:
        bits.append(plural(other, "other item"))
    return f"{' and '.join(bits)} without a price"


def at_least(amount_text: str, unpriced: int, other: int = 0) -> str:
    """'$1,234.00' as it is when every line is priced; else 'at least $1,234.00 (3 parts without a price)'.
    `unpriced` counts every unpriced line, `other` those of them that are Other items."""
    if unpriced <= 0:
        return amount_text
    return f"at least {amount_text} ({unpriced_text(unpriced, other)})"


def least(unpriced: int) -> str:
    """The prefix alone, for figures that include the parts cost (up front, owning at the horizon)."""
    return "at least " if unpriced > 0 else ""


class BreakEven(StrEnum):
    """When owning the build beats renting one offer. The values are what `--json` and the files write."""

    BREAKS_EVEN = "breaks-even"  # on a day within the horizon (the days are given beside it)
    AT_HORIZON_WITH_RESALE = "at-horizon-with-resale"  # only when the resale value at the horizon is counted
    NEVER = "never"  # not within the horizon
    FROM_DAY_ONE = "from-day-one"  # owning costs less from the first day
    SPEED_UNKNOWN = "speed-unknown"  # no speed ratio between the build's GPUs and the offer's: no day can be given

    @property
    def words(self) -> str:
        """The status in words, for a table cell or after "owning wins": "" for BREAKS_EVEN (say the days)."""
        return _WORDS[self]


_WORDS = {
    BreakEven.BREAKS_EVEN: "",
    BreakEven.AT_HORIZON_WITH_RESALE: "only through resale at the horizon",
    BreakEven.NEVER: "never within the horizon",
    BreakEven.FROM_DAY_ONE: "owning is cheaper from day one",
    BreakEven.SPEED_UNKNOWN: "speed ratio unknown",
}


def checks_summary(errors: int, warnings: int, notes: int, not_checked: int) -> str:
    """A check report in one line: "1 error, 2 warnings; 3 not checked"; "no problems found" when nothing was found.
    Counts of zero are left out; what could not be checked is always said, since silence is never a pass."""
    bits = [plural(n, word) for n, word in ((errors, "error"), (warnings, "warning"), (notes, "note")) if n]
    text = ", ".join(bits) if bits else "no problems found"
    return text + (f"; {not_checked} not checked" if not_checked else "")
