"""The suggester's answer as the dialog shows it (HTML): the build, what check() shows, the minimums it was held
to, what binds, what more money buys, the runners-up."""

from __future__ import annotations

import html

from PySide6.QtWidgets import QDoubleSpinBox

from rigplan.costs.fx import Rate, convert
from rigplan.model import Price
from rigplan.model.build import Build
from rigplan.model.offers import Offer
from rigplan.suggest import Suggestion
from rigplan.suggest.said import list_price_line
from rigplan.wording import money, symbol


def _unit(price: Price | None, currency: str, rate: float) -> str:
    """A part's unit price in the answer's currency (`rate`: the answer's units per USD); its source is said once,
    under the table, not after every part."""
    if price is None:
        return "no price"
    if price.currency == currency:
        return f"{symbol(currency)}{price.amount:,.2f}"
    usd = convert(price.amount, price.currency, Rate("USD", 1.0, "prices are in USD"))
    return f"{price.currency} {price.amount:,.2f}" if usd is None else f"{symbol(currency)}{usd * rate:,.2f}"


def _day(found: object) -> str:
    score = getattr(found, "score", None)
    if score is None:
        return ""
    return ", never breaks even" if score.days == float("inf") else f", breaks even on day {score.days:,.0f}"


def explanation_html(s: Suggestion) -> str:
    o = s.found.option
    rate = s.total / s.found.total_usd if s.found.total_usd else 1.0
    rows = "".join(
        f"<tr><td>{i.quantity}x</td><td>{html.escape(i.part.kind.label)}</td><td>{html.escape(i.part.name)}</td>"
        f"<td align='right'>{'Your price: ' if i.price_override else ''}"
        f"{html.escape(_unit(i.unit_price, s.currency, rate))}</td></tr>"
        for i in s.build.items
    )
    sources = dict.fromkeys(
        f"{p.source or 'source unknown'}, {p.date.isoformat() if p.date else 'date unknown'}"
        for p in (i.unit_price for i in s.build.items)
        if p is not None
    )
    rows += f"<tr><td colspan='4'><small>Prices: {html.escape('; '.join(sources) or 'none')}</small></td></tr>"
    out = [
        f"<h3>{money(s.currency, s.total, 0)}: {o.throughput:.2f} V100-equivalents, {o.vram_gb:g} GB GPU memory</h3>",
    ]
    if s.question.beat is not None:
        out.append(f"<p><b>{html.escape(s.beat_text[:1].upper() + s.beat_text[1:])}</b></p>")
    out += [
        f"<table cellspacing='4'>{rows}</table>",
        f"<p><b>Checks:</b> {html.escape(s.check_text[:1].upper() + s.check_text[1:])}.</p>",
        *([f"<p><b>Workload:</b> {html.escape(s.fit_text[:1].upper() + s.fit_text[1:])}.</p>"] if s.fit_text else []),
        *(
            [f"<p><b>Held to:</b> {html.escape('; '.join(s.minimums))}.</p>"]
            if s.minimums
            else ["<p><b>Held to:</b> the checks only (the expert's minimums are off).</p>"]
        ),
        *([f"<p><b>Spending:</b> {html.escape('; '.join(s.spending))}.</p>"] if s.spending else []),
        *[f"<p><b>Taken as given:</b> {html.escape(line)}.</p>" for line in s.assumed],
        *([f"<p><b>List prices:</b> {html.escape(list_price_line(s.list_priced))}.</p>"] if s.list_priced else []),
        f"<p><b>What binds:</b> {html.escape(s.binding)}: {html.escape(s.binding_text)}</p>",
    ]
    for extra, alt in s.next_steps:
        buys = (
            f"{alt.found.option.count}x {html.escape(alt.found.option.part.name)} "
            f"({alt.found.option.throughput:.2f}, {money(s.currency, alt.found.total_usd * rate, 0)})"
            if alt
            else "nothing better"
        )
        out.append(f"<p><b>{money(s.currency, extra, 0)} more</b> buys: {buys}</p>")
    if s.runners_up:
        items = "".join(
            f"<li>{html.escape(r.why)}: {r.found.option.count}x {html.escape(r.found.option.part.name)}, "
            f"{r.found.option.throughput:.2f} V100-eq., {money(s.currency, r.found.total_usd * rate, 0)}"
            f"{_day(r.found)}</li>"
            for r in s.runners_up
        )
        basis = f" ({html.escape(s.runners_up_basis)})" if s.runners_up_basis else ""
        out.append(f"<p><b>Runners-up</b>{basis}</p><ul>{items}</ul>")
    if s.older is not None:
        out.append(f"<p><b>Older platform:</b> {html.escape(s.older.text)}.</p>")
    if s.quote is not None:
        out.append(f"<p><b>Current platform to quote:</b> {html.escape(s.quote.text)}.</p>")
    out.append("<p><small>" + "; ".join(html.escape(n) for n in s.notes) + f"; {s.seconds:.2f} s</small></p>")
    return "".join(out)


def _spin(maximum: float, suffix: str, value: float = 0.0, decimals: int = 0, special: str = "") -> QDoubleSpinBox:
    box = QDoubleSpinBox()
    box.setRange(0, maximum)
    box.setDecimals(decimals)
    box.setSuffix(suffix)
    box.setValue(value)
    if special:
        box.setSpecialValueText(special)
    return box


def offer_label(o: Offer, pricing: object) -> str:
    """An offer as the list shows it: id, GPUs and the hourly price, so it can be found by any of them."""
    gpu = f"{o.gpu_count}x {o.gpu_model or 'GPU'}"
    return f"{o.id}  |  {gpu}  |  ${o.hourly(pricing):.3f}/h"  # type: ignore[arg-type]


def suggested(s: Suggestion, quote: bool = False) -> Build:
    """The build the dialog opens, named for the question: the answer, or (quote) the current platform to quote
    (suggest.quote), its CPU and board with no price for the user's quotes."""
    q = s.question
    name = f"Suggested: {money(q.currency, q.budget, 0)} budget" if q.budget else "Suggested build"
    if quote and s.quote is not None:
        return s.quote.found.build(s.build.assumptions, name=f"{name}, to quote")
    return s.build.model_copy(update={"name": name})
