"""Numpy views of catalog columns for the vectorised compatibility filter, built once per table and cached."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from rigplan.catalog.loader import KindTable


class _TableCache(dict):  # type: ignore[type-arg]
    """Per-table caches live on the table itself, so a new table (even one reusing a dead table's id()) starts empty
    and a table's arrays go away with it."""

    def __init__(self) -> None:
        super().__init__()
        self.results: dict[tuple[str, object], np.ndarray] = {}


def _cache(table: KindTable) -> _TableCache:
    cache = table.__dict__.get("_rigplan_arrays")
    if cache is None:
        cache = table.__dict__["_rigplan_arrays"] = _TableCache()
    return cache


def col(cols: dict[str, list[Any]], field: str, i: int) -> Any:
    c = cols.get(field)
    return None if c is None else c[i]


def num(table: KindTable, field: str) -> np.ndarray:
    """Float column; NaN where unknown (every comparison with NaN is False, so unknown never fails a rule)."""
    cache = _cache(table)
    arr = cache.get(field)
    if arr is None:
        arr = cache[field] = np.array([np.nan if v is None else float(v) for v in table.column(field)], dtype=float)
    return arr


def derived(
    table: KindTable, name: str, fn: Callable[[dict[str, list[Any]], int], Any], dtype: Any = object
) -> np.ndarray:
    cache = _cache(table)
    key = f"derived:{name}"
    arr = cache.get(key)
    if arr is None:
        cols = table.columns
        if dtype is object:
            arr = np.empty(len(table), dtype=object)
            arr[:] = [fn(cols, i) for i in range(len(table))]
        else:
            arr = np.array([fn(cols, i) for i in range(len(table))], dtype=dtype)
        cache[key] = arr
    return arr


def sub(table: KindTable, field: str, key: str) -> np.ndarray:
    def get(cols: dict[str, list[Any]], i: int) -> float:
        v = col(cols, field, i)
        x = v.get(key) if isinstance(v, dict) else None
        return np.nan if x is None else float(x)

    return derived(table, f"{field}.{key}", get, float)


def not_in(values: np.ndarray, allowed: set[str] | frozenset[str] | None) -> np.ndarray:
    """True where the value is known, the allowed set is known, and the value is not in it."""
    if not allowed:
        return np.zeros(len(values), dtype=bool)
    verdict = {v: v is not None and v not in allowed for v in set(values.tolist())}
    return np.fromiter(map(verdict.__getitem__, values), dtype=bool, count=len(values))


def none_of(values: np.ndarray, target: str) -> np.ndarray:
    """True where a known set of values does not contain `target`."""
    verdict = {v: bool(v) and target not in v for v in set(values.tolist())}
    return np.fromiter(map(verdict.__getitem__, values), dtype=bool, count=len(values))


def by_value(
    table: KindTable, name: str, values: np.ndarray, fn: Callable[[Any], bool], memo: object = None
) -> np.ndarray:
    """fn applied once per distinct value of a column (or derived column) `name`, spread back over the rows.
    The distinct values and each row's index into them are built once per table and cached. With `memo` (a
    hashable that fully determines fn), the result itself is cached too: later calls cost one dict lookup."""
    cache = _cache(table)
    if memo is not None:
        done = cache.results.get((name, memo))
        if done is not None:
            return done
    cached = cache.get(f"codes:{name}")
    if cached is None:
        index: dict[Any, int] = {}
        codes = np.fromiter((index.setdefault(v, len(index)) for v in values), dtype=np.int64, count=len(values))
        uniq = list(index)  # a list, not an object array: tuples as values must stay whole
        cache[f"codes:{name}"] = cached = (codes, uniq)
    codes, uniq = cached
    result = np.fromiter((bool(fn(u)) for u in uniq), dtype=bool, count=len(uniq))[codes]
    if memo is not None:
        if len(cache.results) > 512:
            cache.results.clear()
        cache.results[(name, memo)] = result
    return result
