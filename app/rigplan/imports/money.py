"""Reading a price as printed by a shop or PCPartPicker: "$1,234.56", "£549.99", "€549,00", "549,00 €".

PCPartPicker's US site prints "$549.00"; its regional sites print their own currency. The position of the euro sign
and the decimal comma on the euro sites could not be checked against a live export (no internet here), so both
"€549,00" and "549,00 €" (and a decimal point) are read; a "$" is USD unless the list's address says which regional
site it came from (ca. -> CAD, au. -> AUD, nz. -> NZD).

The digits themselves are read by the one set of rules in rigplan.model.numbers (separators, no sign, no exponent,
the model's bounds). Finding the price in a line is a scan for a currency sign and a bounded look either side of
it, so the time is linear in the text (no regular expression here can backtrack over the whole line).
"""

from __future__ import annotations

import re

from rigplan.model.common import KNOWN_CURRENCIES, MAX_AMOUNT
from rigplan.model.numbers import NumberError, parse_printed

# Regional PCPartPicker hosts and their currency (pcpartpicker.com is the US site).
REGION_CURRENCY = {
    "": "USD",
    "uk": "GBP",
    "ca": "CAD",
    "au": "AUD",
    "nz": "NZD",
    "in": "INR",
    "se": "SEK",
    "de": "EUR",
    "fr": "EUR",
    "es": "EUR",
    "it": "EUR",
    "nl": "EUR",
    "be": "EUR",
    "ie": "EUR",
}
SYMBOLS = {"$": "USD", "£": "GBP", "€": "EUR", "₹": "INR", "kr": "SEK", "CHF": "CHF"}

_HOST = re.compile(r"https?://(?:([a-z]{2})\.)?pcpartpicker\.com", re.IGNORECASE)
# A sign, or a known ISO code standing as a word. Each match is a fixed, short length: linear over the text.
_SIGN = re.compile(r"[$£€₹]|(?<![A-Za-z])(?:kr|[A-Z]{3})(?![A-Za-z])")
_AFTER = re.compile(r" ?([-\u2212]?\d[\d.,' \u00a0\u202f\u2009]{0,30})")  # the amount after a sign
_BEFORE = re.compile(r"([-\u2212]?\d[\d.,' \u00a0\u202f\u2009]{0,30}?) ?$")  # before one, in a short window
_SPACES = " '\u00a0\u202f\u2009"
MoneyError = NumberError


def region_currency(text: str) -> str | None:
    """The currency of the PCPartPicker site a list's address names, or None when there is no address."""
    m = _HOST.search(text)
    if not m:
        return None
    return REGION_CURRENCY.get((m.group(1) or "").lower())


def parse_amount(text: str, currency: str | None = None) -> float:
    """'1,234.56' -> 1234.56, '1.234,56' -> 1234.56, '549,00' -> 549.0, '1,234' -> 1234.0. Raises MoneyError (one
    line) for anything else: '1,2,3', '-5', '1e308', 'nan', beyond the model's 0 to 1e9."""
    return parse_printed(text, 0.0, MAX_AMOUNT, "price", currency)


def _code(sign: str, dollar: str) -> str | None:
    if sign == "$":
        return dollar
    code = SYMBOLS.get(sign, sign)
    return code if code in KNOWN_CURRENCIES else None


def _negative(text: str, start: int) -> bool:
    before = text[max(0, start - 2) : start].rstrip(_SPACES)
    return before.endswith(("-", "\u2212"))


def parse_price(text: str, dollar: str = "USD") -> tuple[float, str] | None:
    """The first amount and its ISO code in printed text ('($549.00 @ Amazon)'); None if there is no price at all.
    `dollar` is what "$" means. A price that is there but cannot be taken (negative, '$1e308', '1,2,3', beyond the
    bounds) raises MoneyError: it is never read as some other number."""
    for m in _SIGN.finditer(text):
        code = _code(m.group(0), dollar)
        if code is None:
            continue
        after = _AFTER.match(text, m.end())
        if after:
            amount = after.group(1).rstrip(_SPACES).rstrip(".,")  # "$5." ending a sentence
            end = after.start(1) + len(amount)
            if text[end : end + 1].isalnum() and not _SIGN.match(text, end):  # "$1e308", "$12abc"
                raise MoneyError(f"price {text[m.start() : end + 12].split(' @')[0].strip()!r} is not a plain amount")
            if amount.startswith(("-", "\u2212")) or _negative(text, m.start()):
                raise MoneyError(f"price {text[max(0, m.start() - 1) : end].strip()!r} is negative")
            return parse_amount(amount, code), code
        window = text[max(0, m.start() - 32) : m.start()]
        before = _BEFORE.search(window)
        if before and not (before.start(1) > 0 and window[before.start(1) - 1].isalnum()):
            amount = before.group(1).strip(_SPACES)
            if amount.startswith(("-", "\u2212")) or _negative(window, before.start(1)):
                raise MoneyError(f"price {(amount + ' ' + m.group(0))!r} is negative")
            return parse_amount(amount, code), code
    return None
