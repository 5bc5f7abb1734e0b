"""Issue 40: the Suggest answer said "4,141 GBP" above part prices in USD, each followed by its source; now every
amount is in the answer's currency with the app's sign, and the prices' source is said once."""

from __future__ import annotations

import re

from rigplan.catalog import Catalog
from rigplan.costs.fx import load_fx
from rigplan.gui.suggest.answer import explanation_html
from rigplan.model import Assumptions
from rigplan.suggest import Question, suggest


def test_a_gbp_answer_is_in_pounds_with_one_source_line(catalog: Catalog) -> None:
    a = Assumptions(currency="GBP")
    s = suggest(catalog, a, Question(budget=4000, currency="GBP", max_gpus=1))
    text = explanation_html(s)
    assert text.startswith(f"<h3>\u00a3{s.total:,.0f}: ")
    assert not re.search(r"\d GBP\b", text) and "USD" not in text
    per_usd = load_fx().rates["GBP"]
    for item in s.build.items:
        p = item.unit_price
        if p is not None and p.currency == "USD":
            assert f"\u00a3{p.amount * per_usd:,.2f}</td>" in text
    assert text.count("Prices: ") == 1
    for item in s.build.items:
        if item.unit_price is not None and item.unit_price.source:
            assert text.count(item.unit_price.source) == 1  # said once, not after every part
