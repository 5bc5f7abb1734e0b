"""JSON from outside, read without recursion trouble: Python's json module recurses once per nesting level, so
200,000 nested brackets raise RecursionError (an "internal error" for the user). The nesting is measured first on a
flat scan (strings removed by one linear regular expression, then the brackets counted), and deep input is refused
with one line before json.loads sees it. No Qt."""

from __future__ import annotations

import json
import re
from typing import Any

# A JSON string: a quote, then any run of characters other than quote and backslash or escaped pairs. Linear (no
# nested quantifier can backtrack: each alternative starts with a different character).
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")


def nesting_depth(text: str, stop_above: int | None = None) -> int:
    """The deepest nesting of arrays and objects in `text` (strings ignored); stops counting past `stop_above`."""
    depth = deepest = 0
    for m in _BRACKET.finditer(_STRING.sub("", text)):
        if m.group() in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if stop_above is not None and deepest > stop_above:
                    break
        else:
            depth -= 1
    return deepest


def loads_bounded(text: str, max_depth: int) -> Any:
    """json.loads, refusing (ValueError, one line) input nested deeper than `max_depth`."""
    if nesting_depth(text, max_depth) > max_depth:
        raise ValueError(f"arrays or objects are nested more than {max_depth} levels deep")
    return json.loads(text)
