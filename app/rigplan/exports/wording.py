"""How a total says what it is (issue 19): with parts that have no price, a sum is a lower bound, and every place
that shows one (build panel, Costs tab, exports, CLI) says so the same way: "at least $1,234.00 (3 parts without a
price)". Plain strings, no imports: the build panel uses this before the cost model is loaded."""

from __future__ import annotations


def unpriced_text(unpriced: int, other: int = 0) -> str:
    """ "3 parts without a price"; with unpriced Other items (fans, an OS...) among the `unpriced` lines, which are
    not parts: "2 parts and 1 other item without a price", "1 other item without a price" (issue 29)."""
    parts = max(unpriced - other, 0)
    bits = [f"{parts} part{'s' if parts != 1 else ''}"] if parts or not other else []
    if other:
        bits.append(f"{other} other item{'s' if other != 1 else ''}")
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


# The one currency-sign table: the window's money formatter (gui.widgets.money) and the exported charts' axes use it.
SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥"}


def symbol(code: str) -> str:
    """ "$", "€", ... or the ISO code and a space ("CHF ") for the others."""
    return SYMBOLS.get(code, code + " ")
