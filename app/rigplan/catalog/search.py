"""Text search and field filters over parts, shared by the CLI, the GUI's proxy model and tests."""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

_OPS: dict[str, Callable[[Any, Any], bool]] = {
    ">=": operator.ge,
    "<=": operator.le,
    "!=": operator.ne,
    ">": operator.gt,
    "<": operator.lt,
    "=": operator.eq,
}
_COND = re.compile(r"^\s*([a-z_0-9.]+)\s*(>=|<=|!=|>|<|=)\s*(.+?)\s*$")


class QueryError(ValueError):
    pass


@dataclass(frozen=True)
class Condition:
    field: str
    op: str
    value: Any

    def test_value(self, columns: dict[str, list[Any]], row: int) -> bool:
        head, *rest = self.field.split(".")
        col = columns.get(head)
        actual: Any = None if col is None else col[row]
        for name in rest:
            actual = actual.get(name) if isinstance(actual, dict) else None
        if actual is None:
            return False  # unknown never satisfies a filter
        if isinstance(actual, (tuple, list)):  # e.g. sockets=AM5 means "includes AM5"
            return self.op == "=" and any(str(a).lower() == str(self.value).lower() for a in actual)
        if isinstance(self.value, float) and isinstance(actual, (int, float)) and not isinstance(actual, bool):
            return _OPS[self.op](float(actual), self.value)
        if isinstance(actual, bool):
            return _OPS[self.op](actual, str(self.value).lower() in {"1", "true", "yes"})
        return _OPS[self.op](str(actual).lower(), str(self.value).lower())


@dataclass(frozen=True)
class Query:
    words: tuple[str, ...]
    conditions: tuple[Condition, ...]

    @classmethod
    def parse(cls, text: str, where: list[str]) -> Query:
        conds = []
        for w in where:
            m = _COND.match(w)
            if not m:
                raise QueryError(f"cannot read filter {w!r}; write it like vram_gb>=24 or socket=AM5")
            field, op, raw = m.groups()
            value: Any
            try:
                value = float(raw)
            except ValueError:
                value = raw
            conds.append(Condition(field, op, value))
        return cls(tuple(text.lower().split()), tuple(conds))


def haystack_of(values: tuple[Any, ...]) -> str:
    return " ".join(str(v) for v in values if v).lower()
