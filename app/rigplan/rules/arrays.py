"""Numpy views of catalog columns for the vectorised compatibility filter, built once per table and cached."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from rigplan.catalog.loader import KindTable

_CACHE: dict[tuple[int, str], np.ndarray] = {}
_RESULTS: dict[tuple[int, str, object], np.ndarray] = {}


def col(cols: dict[str, list[Any]], field: str, i: int) -> Any:
    c = cols.get(field)
    return None if c is None else c[i]


def num(table: KindTable, field: str) -> np.ndarray:
    """Float column; NaN where unknown (every comparison with NaN is False, so unknown never fails a rule)."""
    key = (id(table), field)
    arr = _CACHE.get(key)
    if arr is None:
        arr = np.array([np.nan if v is None else float(v) for v in table.column(field)], dtype=float)
        _CACHE[key] = arr
    return arr


def derived(
    table: KindTable, name: str, fn: Callable[[dict[str, list[Any]], int], Any], dtype: Any = object
) -> np.ndarray:
    key = (id(table), name)
    arr = _CACHE.get(key)
    if arr is None:
        cols = table.columns
        if dtype is object:
            arr = np.empty(len(table), dtype=object)
            arr[:] = [fn(cols, i) for i in range(len(table))]
        else:
            arr = np.array([fn(cols, i) for i in range(len(table))], dtype=dtype)
        _CACHE[key] = arr
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
    if memo is not None:
        done = _RESULTS.get((id(table), name, memo))
        if done is not None:
            return done
    key = (id(table), f"codes:{name}")
    cached = _CACHE.get(key)
    if cached is None:
        index: dict[Any, int] = {}
        codes = np.fromiter((index.setdefault(v, len(index)) for v in values), dtype=np.int64, count=len(values))
        uniq = np.empty(len(index), dtype=object)
        uniq[:] = list(index)
        _CACHE[key] = cached = np.array([codes, uniq], dtype=object)
    codes, uniq = cached
    result = np.fromiter((bool(fn(u)) for u in uniq), dtype=bool, count=len(uniq))[codes]
    if memo is not None:
        if len(_RESULTS) > 512:
            _RESULTS.clear()
        _RESULTS[(id(table), name, memo)] = result
    return result
