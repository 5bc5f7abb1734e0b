"""What `rigplan suggest` prints: its JSON answer (--json) and its text, from the suggestion the search found."""

from __future__ import annotations

import math
from typing import Any

from rigplan.costs.fx import convert
from rigplan.suggest import Alternative
from rigplan.suggest.pricing import USD
from rigplan.suggest.said import list_price_line
from rigplan.wording import BreakEven, money


def _days(found: Any) -> float | None:
    sc = found.score
    return None if sc is None or math.isinf(sc.days) else round(sc.days, 1)


def _alt(alt: Any, s_currency: str, rate: float) -> dict[str, Any]:
    f = alt.found
    out = {
        "why": alt.why,
        "total": round(f.total_usd * rate, 2),
        "throughput": round(f.option.throughput, 4),
        "vram_gb": f.option.vram_gb,
        "gpus": f.option.count,
        "gpu": f.option.part.name,
        "platform": f.vendor or None,
        "currency": s_currency,
    }
    if f.score is not None:
        out["breakeven_days"] = _days(f)
    return out


def _older_json(sug: Any, rate: float) -> dict[str, Any] | None:
    """From $5,000: the older platform's best build named beside the answer (rigplan.suggest.older)."""
    old = sug.older
    if old is None:
        return None
    return {
        **_alt(Alternative(f"older platform ({old.socket})", old.found), sug.currency, rate),
        "socket": old.socket,
        "difference": round(old.difference_usd, 2),
        "throughput_difference": round(old.throughput_difference, 4),
        "text": old.text,
    }


def _fit_json(sug: Any) -> dict[str, Any] | None:
    q, o = sug.question, sug.found.option
    if q.fit is None:
        return None
    gb, how = q.fit.need(o.count)
    return {
        "workload": q.fit.label,
        "gpus": o.count,
        "memory_gb_per_gpu": round(gb, 2),
        "gpu_vram_gb": o.part.vram_gb,
        "strategy": how,
        "text": sug.fit_text,
    }


def _quote_json(sug: Any, rate: float) -> dict[str, Any] | None:
    """Answered on an older platform: the same GPUs on a current workstation platform whose CPU and board have no
    price (rigplan.suggest.quote): the parts, which to quote, what the others cost."""
    qt = sug.quote
    if qt is None:
        return None
    quoted = {p.id for p in qt.unpriced}
    return {
        "text": qt.text,
        "parts": [
            {
                "id": p.id,
                "kind": p.kind.value,
                "name": p.name,
                "price": None if p.id in quoted else round(usd * rate, 2),
            }
            for p, usd in qt.found.parts
        ],
        "gpus": {
            "id": qt.found.option.part.id,
            "count": qt.found.option.count,
            "price_each": round(qt.found.option.unit_usd * rate, 2),
        },
        "to_quote": sorted(quoted),
        "priced_total": round(qt.priced_usd * rate, 2),
    }


def _beat_json(sug: Any, q: Any, a: Any) -> dict[str, Any] | None:
    if q.beat is None:
        return None
    return {
        "offer": q.beat.id,
        "pricing": a.pricing.value,
        "hourly_usd": q.beat.hourly(a.pricing),
        "price_date": q.beat.date_text,
        "breakeven_days": _days(sug.found),
        "status": sug.found.score.status if sug.found.score else None,
    }


def json_out(sug: Any, q: Any, a: Any, rate: float) -> dict[str, Any]:
    from rigplan.files.buildfile import build_to_dict

    o, report = sug.found.option, sug.report
    return {
        "total": round(sug.total, 2),
        "currency": sug.currency,
        "throughput": round(o.throughput, 4),
        "throughput_unit": "V100-equivalents",
        "vram_gb": o.vram_gb,
        "platform": sug.found.vendor or None,
        "beat": _beat_json(sug, q, a),
        "own_prices_used": sorted(pid for pid in dict(q.own_prices) if pid in _ids(sug.build)),
        "binding": sug.binding,
        "binding_text": sug.binding_text,
        "next_steps": [
            {"extra": extra, "buys": _alt(alt, sug.currency, rate) if alt else None} for extra, alt in sug.next_steps
        ],
        "runners_up": [_alt(r, sug.currency, rate) for r in sug.runners_up],
        "runners_up_basis": sug.runners_up_basis,
        "older_platform": _older_json(sug, rate),
        "current_platform_quote": _quote_json(sug, rate),
        "list_priced": [
            {"part": p.part, "amount": p.amount, "currency": p.currency, "source": p.source, "date": p.date}
            for p in sug.list_priced
        ],
        "check": sug.check_text,
        "warnings": [f.to_json() for f in report.findings if f.severity == "warning"] if report else [],
        "not_checked": [n.to_json() for n in report.not_checked] if report else [],
        "minimums": sug.minimums,
        "spending": sug.spending,
        "assumed": sug.assumed,
        "fits_workload": _fit_json(sug),
        "notes": sug.notes,
        "seconds": round(sug.seconds, 3),
        "build": build_to_dict(sug.build),
    }


def print_text(sug: Any, q: Any, a: Any, rate: float, output: str | None) -> None:
    o, cur = sug.found.option, sug.currency
    print(f"Suggested: {money(cur, sug.total, 0)}, {o.throughput:.2f} V100-equivalents, {o.vram_gb:g} GB GPU memory")
    if q.beat is not None:
        print(f"  {_beat_line(sug, q, a)}")
    for item in sug.build.items:
        price = item.unit_price
        each = money(price.currency, price.amount) if price else "no price"
        if price and price.currency != cur:  # the answer's currency first, the price's own beside it
            usd = convert(price.amount, price.currency, USD)
            if usd is not None:
                each = f"{money(cur, usd * rate)}; {each} as listed"
        mine = " your price" if item.price_override else ""
        print(f"  {item.quantity}x {item.part.kind.label:<12} {item.part.name}  ({each}{mine})")
    print(f"Checks: {sug.check_text}")
    if sug.fit_text:
        print(f"Workload: {sug.fit_text}")
    if sug.minimums:
        print(f"Held to the expert's minimums: {'; '.join(sug.minimums)}")
    if sug.spending:
        print(f"Spending: {'; '.join(sug.spending)}")
    for line in sug.assumed:
        print(f"Taken as given: {line}")
    if sug.list_priced:
        print(f"List prices: {list_price_line(sug.list_priced)}")
    print(f"Binding: {sug.binding}: {sug.binding_text}")
    for extra, alt in sug.next_steps:
        step = alt.found.option if alt else None
        buys = f"{step.count}x {step.part.name}, {step.throughput:.2f}" if step else "nothing better"
        print(f"{money(cur, extra, 0)} more buys: {buys}")
    for r in sug.runners_up:
        f = r.found
        days = "" if f.score is None else f", break-even day {_days(f) or 'never'}"
        print(
            f"Runner-up ({r.why}): {money(cur, f.total_usd * rate, 0)}, "
            f"{f.option.count}x {f.option.part.name}, {f.option.throughput:.2f}{days}"
        )
    if sug.runners_up and sug.runners_up_basis:
        print(f"Runners-up: {sug.runners_up_basis}")
    if sug.older is not None:
        print(f"Older platform: {sug.older.text}")
    if sug.quote is not None:
        print(f"Current platform to quote: {sug.quote.text}")
    for note in sug.notes:
        print(f"  note: {note}")
    if output:
        print(f"Written to {output} (checks: {sug.check_text})")


def _ids(build: Any) -> set[str]:
    return {i.part.id for i in build.items}


def _beat_line(sug: Any, q: Any, a: Any) -> str:
    sc = sug.found.score
    offer = q.beat
    head = f"against {offer.id} at {money('USD', offer.hourly(a.pricing), 3)}/h {a.pricing.value} ({offer.date_text})"
    if sc is None or math.isinf(sc.days):
        return f"never breaks even {head}"
    if sc.status is BreakEven.AT_HORIZON_WITH_RESALE:
        return f"breaks even only at the {a.horizon_years:g}-year horizon, with resale, {head}"
    return f"breaks even after {sc.days:,.0f} days ({sc.days * a.hours_per_day:,.0f} hours of work) {head}"
