"""What the search buys with: the budget in USD (`Budget`), each kind's priced candidates that meet the per-part
minimums, the user's own prices in the catalog's place (`Pricing`). Both are objects the search is given."""

from __future__ import annotations

from dataclasses import dataclass

from rigplan.catalog.loader import Catalog
from rigplan.costs.fx import Rate, convert, rate_for
from rigplan.imports.user_prices import bundled_prices
from rigplan.model.assumptions import Assumptions
from rigplan.model.common import Price
from rigplan.model.parts import Kind
from rigplan.suggest.cases import CaseClasses, case_classes
from rigplan.suggest.expert import Minimums
from rigplan.suggest.found import Stats
from rigplan.suggest.question import Question, SuggestError

USD = Rate("USD", 1.0, "catalog prices are in USD")


@dataclass(frozen=True)
class Budget:
    """The question's money: its budget and currency, and the rate between it and the catalog's USD."""

    amount: float | None  # in `currency`; None: no limit
    currency: str
    rate: Rate

    @classmethod
    def of(cls, q: Question, a: Assumptions) -> Budget:
        fx = a.fx_rate if a.currency == q.currency else None
        try:
            rate = rate_for(Assumptions(currency=q.currency, fx_rate=fx))
        except ValueError as exc:
            raise SuggestError(str(exc)) from exc
        return cls(q.budget, q.currency, rate)

    def to_usd(self, amount: float) -> float:
        return amount / self.rate.per_usd

    def from_usd(self, amount: float) -> float:
        return amount * self.rate.per_usd

    def usd(self) -> float:
        """The budget in USD (inf: no limit)."""
        return float("inf") if self.amount is None else self.to_usd(self.amount)


class Pricing:
    """Each kind's priced parts in USD, the user's own prices in the catalog's place."""

    def __init__(
        self,
        catalog: Catalog,
        a: Assumptions,
        q: Question,
        minimums: Minimums,
        stats: Stats,
        only: frozenset[str] | None = None,
    ) -> None:
        self.catalog, self.a, self.q, self.minimums, self.stats, self.only = catalog, a, q, minimums, stats, only
        self.own: dict[str, Price] = dict(q.own_prices)
        self.bundled = bundled_prices(catalog)
        # The asked case size as the catalog's classes (suggest.cases: "Mini-ITX", "SFF" -> "Mini ITX Tower").
        self.cases: CaseClasses | None = (
            case_classes(q.case_form, catalog.table(Kind.CASE).column("form_factor")) if q.case_form else None
        )

    def prices(self, kind: Kind) -> list[float | None]:
        out: list[float | None] = []
        table = self.catalog.table(kind)
        for pid, p in zip(table.ids, table.column("price"), strict=True):
            if pid in self.bundled:  # the user's price layer is applied in this catalog: the search starts from
                p = self.bundled[pid]  # the catalog's own prices, and the user's come in only as own_prices
            mine = self.own.get(pid)
            if mine is not None:  # the user's own price takes the catalog's place
                out.append(self._own_usd(mine))
            else:
                out.append(None if not p else convert(float(p["amount"]), p.get("currency", "USD"), USD))
        self.stats.unpriced[kind.value] = sum(1 for v in out if v is None)
        return out

    def _own_usd(self, price: Price) -> float | None:
        """A price of the user's in USD: at the user's own rate when it is in their currency (as the cost model
        does, rigplan.costs.analysis.parts_cost_usd), else at the reference rate."""
        if price.currency == self.a.currency and self.a.fx_rate is not None:
            return price.amount / self.a.fx_rate
        return convert(price.amount, price.currency, USD)

    def included(self, kind: Kind) -> set[int] | None:
        table = self.catalog.table(kind)
        rows = {i for i, pid in enumerate(table.ids) if pid in self.q.include}
        return rows or None

    def priced(self, kind: Kind) -> list[tuple[float, int]]:
        """(USD price, row) of the priced parts of a kind that meet the per-part constraints, cheapest first."""
        table = self.catalog.table(kind)
        prices = self.prices(kind)
        keep = [i for i, v in enumerate(prices) if v is not None and (self.only is None or table.ids[i] in self.only)]
        if kind in (Kind.MEMORY, Kind.STORAGE, Kind.CPU, Kind.CASE):
            keep = [i for i in keep if self.minimums.part_ok(table.part(i))]
        if kind is Kind.CASE and self.cases is not None:
            ff = table.column("form_factor")
            keep = [i for i in keep if ff[i] in self.cases.classes]
        forced = self.included(kind)
        if forced is not None:
            keep = [i for i in keep if i in forced]
            if not keep:
                raise SuggestError(f"the {kind.label.lower()} you asked for has no price in the catalog")
        out = [(price, i) for i in keep if (price := prices[i]) is not None]
        return sorted(out, key=lambda t: (t[0], t[1]))
