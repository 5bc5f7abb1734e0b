"""Small value types shared by parts, builds and offers."""

from __future__ import annotations

import datetime as dt
import math
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from rigplan.wording import money

# ISO 4217 codes the app knows how to show. An exchange rate comes from the user's assumptions,
# so a code outside this list is refused rather than shown with a made-up symbol.
_CODES = "USD EUR GBP JPY CNY CAD AUD CHF SEK NOK DKK PLN CZK INR KRW SGD HKD NZD BRL MXN ZAR TWD ILS"
KNOWN_CURRENCIES: frozenset[str] = frozenset(_CODES.split())


# The largest amount of money one price may hold, in any of the currencies above: 1e9 is about USD 6.7 million
# even in JPY, far above any workstation part (an 8-GPU server is about USD 0.5 million), yet small enough that
# 64 of each of thousands of items still sum to a finite total (never "$inf" or "$nan").
MAX_AMOUNT = 1e9


def _finite(value: float) -> float:
    if not math.isfinite(value):
        raise ValueError("must be a finite number")
    return value + 0.0  # -0.0 becomes 0.0: "-0" is not a value anyone means


def _currency(code: str) -> str:
    code = code.strip().upper()
    if code not in KNOWN_CURRENCIES:
        raise ValueError(f"unknown currency code {code!r}; known: {', '.join(sorted(KNOWN_CURRENCIES))}")
    return code


# For fields whose bounds are Field constraints: -0.0 passes ge=0, and would be saved and shown as "-0".
NoNegativeZero = AfterValidator(lambda value: value + 0.0)
Finite = Annotated[float, AfterValidator(_finite)]
NonNegative = Annotated[float, AfterValidator(_finite), Field(ge=0)]
Amount = Annotated[float, AfterValidator(_finite), Field(ge=0, le=MAX_AMOUNT)]
CurrencyCode = Annotated[str, AfterValidator(_currency)]


class Frozen(BaseModel):
    """Base for value objects: immutable, unknown keys refused so typos in files surface."""

    model_config = ConfigDict(frozen=True, extra="forbid")


# How the source of a maker's list price begins (parts/list-prices.yaml, rigplan.opendb.list_prices): not a street
# price, and every answer that uses one says so (rigplan.suggest.said).
LIST_PRICE = "list price: "
# How the source of a dated retail listing from that file begins (basis `retail`: a listing outside RigPlan's US price
# snapshot, e.g. a Swiss price comparison's lowest price, quoted with its URL): a street price, but another market's,
# and every answer that uses one says so too.
LISTING_PRICE = "retail listing: "
SOURCED_PRICES = (LIST_PRICE, LISTING_PRICE)  # a price the hand-written price file gives, not the PCPartPicker join


class Price(Frozen):
    """An amount of money with where and when it was seen."""

    amount: Amount
    currency: CurrencyCode = "USD"
    date: dt.date | None = None
    source: str = ""

    @property
    def is_list_price(self) -> bool:
        """A maker's list price (LIST_PRICE), not a price seen at a retailer."""
        return self.source.startswith(LIST_PRICE)

    @property
    def is_listing(self) -> bool:
        """A dated retail listing outside the US snapshot (LISTING_PRICE), quoted by parts/list-prices.yaml."""
        return self.source.startswith(LISTING_PRICE)

    def describe(self) -> str:
        when = self.date.isoformat() if self.date else "date unknown"
        src = self.source or "source unknown"
        return f"{money(self.currency, self.amount)} ({src}, {when})"
