"""The one set of rules for a number read from outside RigPlan (a shop's price, a price file, a cloud catalog, a
command-line flag), so nothing is stored that later breaks a computation.

Two forms, each with explicit rules:

* **machine numbers** (`parse_number`): what programs write in CSV and JSON. Python's float syntax (`0.526`,
  `1e-05`), but never NaN or infinity, never a sign unless the range allows negatives, never a thousands separator.
* **printed amounts** (`parse_printed`): what people and shops write. Digits with separators:
  - one kind of separator, once, followed by one or two digits is the decimal separator (`549,00`, `12.5`);
  - followed by exactly three digits it groups thousands (`1,234` and `1.234` are 1234; prices have at most two
    decimals);
  - a separator used twice or more groups thousands, and every group after the first holds exactly three digits
    (`1,234,567`; `1,2,3` is refused as ambiguous). Indian grouping (`1,23,456`) is read when the currency is INR;
  - both `,` and `.`: the last one is the decimal separator and the other groups thousands (`1.234,56`, `1,234.56`);
  - spaces, no-break spaces and `'` group thousands only (`1 234,56`, `1'234.50`);
  - a minus sign, brackets, exponents (`1e308`), `nan`, `inf` and anything else are refused.

Both then check the caller's range (the model's bounds, e.g. 0 to 1e9 for money). Every refusal is a NumberError
with one line saying what was read and why.
"""

from __future__ import annotations

import math
import re

from rigplan.model.common import MAX_AMOUNT


class NumberError(ValueError):
    """A number that cannot be taken as given: one line for the user."""


_MACHINE = re.compile(r"[+-]?(?:\d{1,30}(?:\.\d{0,30})?|\.\d{1,30})(?:[eE][+-]?\d{1,4})?")
_GROUPING = " '\u00a0\u202f\u2009"  # spaces and the Swiss apostrophe: never a decimal separator
_NEGATIVE = ("-", "\u2212", "(")
_MAX_LEN = 40  # far more than any real amount; longer text is refused before any work


def check_range(value: float, lo: float, hi: float, shown: str, what: str) -> float:
    if not math.isfinite(value):
        raise NumberError(f"{what} {shown!r} is not a finite number")
    if value < lo:
        raise NumberError(f"{what} {shown!r} is below the lowest allowed, {lo:g}")
    if value > hi:
        raise NumberError(f"{what} {shown!r} is above the largest allowed, {hi:g}")
    return value + 0.0  # -0.0 becomes 0.0


def parse_number(text: str, lo: float = 0.0, hi: float = MAX_AMOUNT, what: str = "number") -> float:
    """A number as a program writes it (`3.06`, `1e-05`): finite and within [lo, hi]."""
    t = text.strip()
    if not t:
        raise NumberError(f"{what}: empty")
    if len(t) > _MAX_LEN or not _MACHINE.fullmatch(t):
        raise NumberError(f"{what} {t[:_MAX_LEN]!r} is not a number")
    return check_range(float(t), lo, hi, t, what)


def parse_printed(
    text: str, lo: float = 0.0, hi: float = MAX_AMOUNT, what: str = "price", currency: str | None = None
) -> float:
    """A printed amount without its currency sign ('1,234.56', '549,00', '1 234,56'), by the rules above."""
    t = text.strip().strip(_GROUPING)
    shown = t[:_MAX_LEN]
    if not t:
        raise NumberError(f"{what}: empty")
    if t.startswith(_NEGATIVE):
        raise NumberError(f"{what} {shown!r} is negative")
    if len(t) > _MAX_LEN or not re.fullmatch(r"[0-9.,' \u00a0\u202f\u2009]+", t) or not t[0].isdigit():
        raise NumberError(f"{what} {shown!r} is not a plain number (digits, with , or . between them)")
    if not t[-1].isdigit():
        raise NumberError(f"{what} {shown!r} ends in a separator")
    whole, frac = _split_decimal(t, shown, what)
    groups = re.split(r"[,.' \u00a0\u202f\u2009]", whole)
    if len(groups) > 1 and not _grouped(groups, currency):
        raise NumberError(f"{what} {shown!r} is ambiguous: thousands are grouped by three, e.g. 1,234,567.89")
    value = float("".join(groups) + ("." + frac if frac else ""))
    return check_range(value, lo, hi, shown, what)


def _split_decimal(t: str, shown: str, what: str) -> tuple[str, str]:
    """The whole part (with its grouping separators) and the decimals, by the rules in the module's text."""
    marks = [c for c in t if c in ",."]
    if not marks:
        return t, ""
    last = max(t.rfind(","), t.rfind("."))
    after = t[last + 1 :]
    if len(set(marks)) == 2:  # both: the last is the decimal separator and appears once
        if t.count(t[last]) != 1:
            raise NumberError(f"{what} {shown!r} is ambiguous: {t[last]!r} both groups thousands and ends it")
        if not after.isdigit():
            raise NumberError(f"{what} {shown!r} is not a plain number")
        return t[:last], after
    if len(marks) == 1 and after.isdigit() and len(after) in (1, 2):
        return t[:last], after
    if len(marks) == 1 and (not after.isdigit() or len(after) != 3):
        raise NumberError(f"{what} {shown!r} is ambiguous: a decimal separator takes one or two digits")
    return t, ""  # a separator before three digits, or used more than once: thousands


def _grouped(groups: list[str], currency: str | None) -> bool:
    head, rest = groups[0], groups[1:]
    if not head.isdigit() or not 1 <= len(head) <= 3 or head.startswith("0") or not all(g.isdigit() for g in rest):
        return False
    if all(len(g) == 3 for g in rest):
        return True
    # Indian grouping: lakh and crore, 1,23,45,678
    return currency == "INR" and len(rest[-1]) == 3 and all(len(g) == 2 for g in rest[:-1]) and len(head) <= 2
