"""Reading a price as printed by a shop or PCPartPicker: "$1,234.56", "£549.99", "€549,00", "549,00 €".

PCPartPicker's US site prints "$549.00"; its regional sites print their own currency. The position of the euro sign
and the decimal comma on the euro sites could not be checked against a live export (no internet here), so both
"€549,00" and "549,00 €" (and a decimal point) are read; a "$" is USD unless the list's address says which regional
site it came from (ca. -> CAD, au. -> AUD, nz. -> NZD).
"""

from __future__ import annotations

import re

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
SYMBOLS = {"£": "GBP", "€": "EUR", "₹": "INR", "kr": "SEK", "CHF": "CHF"}

_HOST = re.compile(r"https?://(?:([a-z]{2})\.)?pcpartpicker\.com", re.IGNORECASE)
# Grouped thousands ("1,579.00", "2.542,90") first, then plain digits ("1599.99", "549,00").
_AMOUNT = r"\d{1,3}(?:[,.\s]\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?"
_PRICE = re.compile(rf"(?P<pre>[$£€₹]|kr|CHF|[A-Z]{{3}})?\s?(?P<amt>{_AMOUNT})\s?(?P<post>[$£€₹]|kr|CHF|[A-Z]{{3}}\b)?")


def region_currency(text: str) -> str | None:
    """The currency of the PCPartPicker site a list's address names, or None when there is no address."""
    m = _HOST.search(text)
    if not m:
        return None
    return REGION_CURRENCY.get((m.group(1) or "").lower())


def parse_amount(text: str) -> float | None:
    """'1,234.56' -> 1234.56, '1.234,56' -> 1234.56, '549,00' -> 549.0, '1,234' -> 1234.0."""
    t = text.strip().replace("\u00a0", " ").replace(" ", "")
    if not t or not re.fullmatch(r"[\d.,]+", t):
        return None
    last = max(t.rfind(","), t.rfind("."))
    if last >= 0 and len(t) - last - 1 in (1, 2):  # a decimal separator: one or two digits after it
        whole, frac = t[:last], t[last + 1 :]
        t = whole.replace(",", "").replace(".", "") + "." + frac
    else:
        t = t.replace(",", "").replace(".", "")
    try:
        return float(t)
    except ValueError:
        return None


def parse_price(text: str, dollar: str = "USD") -> tuple[float, str] | None:
    """An amount and its ISO code from printed text; None if there is no price. `dollar` is what "$" means."""
    for m in _PRICE.finditer(text):
        sign = m.group("pre") or m.group("post")
        if not sign:
            continue
        amount = parse_amount(m.group("amt"))
        if amount is None:
            continue
        code = dollar if sign == "$" else SYMBOLS.get(sign, sign)
        return amount, code
    return None
