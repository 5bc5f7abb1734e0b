"""The window's one money formatter (issue 29): every amount on screen is converted into the build's currency and
labelled with it here, and nowhere else. The window owns one Money, points it at the build's assumptions on every
refresh, and passes it down to the picker, the build panel and the Costs view; their charts ask it for axis text.

A catalog price is in USD (or the currency of its source); money(amount, "USD") converts it by the build's rate
(rigplan.costs.fx: the ECB reference rate, or the user's own), so "€402.74" is never a relabelled "$449.96". Without a
rate (a currency the ECB does not publish and no rate given) a foreign amount is shown in its own currency, labelled
with it, never with the build's sign.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QLocale

if TYPE_CHECKING:
    from rigplan.costs.fx import Rate
    from rigplan.model import Assumptions

from rigplan.wording import SYMBOLS, symbol  # noqa: F401 - one table for the screen and the exports


def money_locale() -> QLocale:
    """The user's locale for digits and separators; the "C" locale writes "449.96$", so US English there."""
    loc = QLocale()
    if loc.language() == QLocale.Language.C:
        return QLocale(QLocale.Language.English, QLocale.Country.UnitedStates)
    return loc


class Money:
    """Formats amounts in the build's currency; converts amounts given in another one first."""

    def __init__(self, currency: str = "USD") -> None:
        self.locale = money_locale()
        self.currency = currency
        self._rate: Rate | None = None
        self._rate_known = False  # rate looked up for self.currency (None after: no rate)
        self.listeners: list[object] = []  # callables run when the currency or rate changes (chart axes)

    # --- state ------------------------------------------------------------------------------------------------------

    def set_assumptions(self, a: Assumptions) -> bool:
        """Follow the build's currency and rate; True when either changed (callers repaint axes then)."""
        from rigplan.costs.fx import NoRate, rate_for

        try:
            rate: Rate | None = rate_for(a)
        except NoRate:
            rate = None
        old = (self.currency, self._rate.per_usd if self._rate else None)
        self.currency, self._rate, self._rate_known = a.currency, rate, True
        changed = old != (a.currency, rate.per_usd if rate else None)
        if changed:
            for fn in list(self.listeners):
                fn()  # type: ignore[operator]
        return changed

    @property
    def rate(self) -> Rate | None:
        if not self._rate_known:
            from rigplan.costs.fx import NoRate, Rate, load_fx

            self._rate_known = True
            try:
                per = 1.0 if self.currency == "USD" else load_fx().rates[self.currency]
                self._rate = Rate(self.currency, per, "ECB reference rate")
            except (KeyError, NoRate, OSError):
                self._rate = None
        return self._rate

    @property
    def sign(self) -> str:
        """The label of the build's currency in column headers: "€", "$", "CHF"."""
        return symbol(self.currency).strip()

    # --- conversion and text ----------------------------------------------------------------------------------------

    def convert(self, amount: float, currency: str) -> float | None:
        """`amount` in `currency` into the build's currency; None when no rate is known (never a relabel)."""
        if currency == self.currency:
            return float(amount)
        rate = self.rate
        if rate is None:
            return None
        from rigplan.costs.fx import convert

        return convert(float(amount), currency, rate)

    def __call__(self, amount: float, currency: str | None = None, decimals: int = 2) -> str:
        """`amount` (in the build's currency, or in `currency`) as build-currency text: "€402.74"."""
        if currency is not None and currency != self.currency:
            converted = self.convert(amount, currency)
            if converted is None:  # no rate: the amount in its own currency, labelled with it
                return self.locale.toCurrencyString(float(amount), symbol(currency), decimals)
            amount = converted
        return self.locale.toCurrencyString(float(amount), symbol(self.currency), decimals)

    def short(self, amount: float) -> str:
        """Whole units with the locale's thousands separators, for chart axes and the read-out: "-€5,000"."""
        text = self.locale.toCurrencyString(abs(float(amount)), symbol(self.currency), 0)
        return "-" + text if amount < 0 else text  # "-$5,000", not the accounting style "($5,000)"

    def per_hour(self, usd: float) -> str:
        """An hourly cloud price (offers are priced in USD) in the build's currency: "€2.05/h"."""
        return f"{self(usd, 'USD')}/h"
