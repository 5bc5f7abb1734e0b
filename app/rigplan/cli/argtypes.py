"""argparse types for numbers: every numeric flag goes through the one set of rules (rigplan.model.numbers), so
`--budget nan` or `--timeout inf` is one line and exit 2 at the command line, never a hang or an internal error."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from rigplan.model.numbers import NumberError, parse_number


def number(flag: str, lo: float, hi: float, *, above_lo: bool = False) -> Callable[[str], float]:
    """A finite number in [lo, hi] (or (lo, hi] with above_lo)."""

    def parse(text: str) -> float:
        try:
            value = parse_number(text, -sys.float_info.max, hi, flag)  # finite and not too large; then the floor
        except NumberError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
        if value < lo or (above_lo and value <= lo):
            floor = "positive" if lo == 0 and above_lo else f"above {lo:g}" if above_lo else f"at least {lo:g}"
            raise argparse.ArgumentTypeError(f"{flag} must be {floor}, not {text.strip()}")
        return value

    return parse


def whole(flag: str, lo: int, hi: int) -> Callable[[str], int]:
    """A whole number in [lo, hi]."""

    def parse(text: str) -> int:
        t = text.strip()
        if not t.isascii() or not t.isdigit():
            raise argparse.ArgumentTypeError(f"{flag} takes a whole number from {lo} to {hi}, not {t[:40]!r}")
        value = int(t[:12])
        if len(t) > 12 or not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"{flag} takes a whole number from {lo} to {hi}, not {t[:40]}")
        return value

    return parse
