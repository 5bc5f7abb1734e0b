"""A forum-ready parts list in Markdown (GitHub and Reddit both render pipe tables): parts with price and source
date, the total, power, findings one per line and the break-even against the offers on the chart."""

from __future__ import annotations

from urllib.parse import quote, urlsplit

from rigplan import __version__
from rigplan.costs.fx import electricity_price
from rigplan.exports.context import context_lines, hourly_price, line_price
from rigplan.exports.plan import Plan, breakeven_text, instance_text, job_lines, power_line, total_note
from rigplan.printable import printable
from rigplan.rules import Severity
from rigplan.wording import at_least, least, money

LABEL = {Severity.ERROR: "**Error**", Severity.WARNING: "**Warning**", Severity.NOTE: "Note"}


_ESCAPES = str.maketrans(
    {
        "\\": "\\\\",
        "|": "\\|",  # a pipe would end the table cell
        "[": "\\[",  # no link or image can open: `[x](javascript:...)`, `![x](file://...)`
        "]": "\\]",
        "`": "\\`",
        "&": "&amp;",  # no HTML: tags and entities show as typed (`<img src=...>` is text, never an image)
        "<": "&lt;",
        ">": "&gt;",
    }
)


def cell(text: str) -> str:
    """Data as Markdown text: HTML and link syntax escaped, pipes escaped, line breaks flattened, so a part name
    can neither break the table nor become markup."""
    return " ".join(str(text).translate(_ESCAPES).split())


def source(text: str) -> str:
    """A price source: an http(s) address becomes a link; any other scheme (`javascript:`, `file:`, `data:`) stays
    escaped text, never a link."""
    t = text.strip()
    parts = urlsplit(t) if " " not in t and len(t) < 2000 else None
    if parts is not None and parts.scheme.lower() in ("http", "https") and parts.netloc:
        shown = cell(parts.netloc + parts.path.rstrip("/"))
        return f"[{shown}]({quote(t, safe=_URL_SAFE)})"
    return cell(t)


_URL_SAFE = "/:?#&=%+@!$',;~*-._"  # everything else (brackets, spaces, quotes, <>) is percent-encoded


def to_markdown(plan: Plan) -> str:
    b, cost, cur = plan.build, plan.cost, plan.currency
    out = [f"## {cell(b.name)}", "", "| Part | Item | Qty | Unit price | Price date |", "|---|---|--:|--:|---|"]
    sources: dict[str, None] = {}
    for label, name, quantity, p in b.priced_lines():  # the parts, then the Other items (issue 29)
        price = line_price(plan, p)  # in the report's currency (issue 40)
        when = (p.date.isoformat() if p.date else "date unknown") if p else ""
        if p:
            sources[p.source or "source unknown"] = None
        out.append(f"| {cell(label)} | {cell(name)} | {quantity} | {price} | {when} |")
    n = len(plan.costing.own.unpriced)
    conv = " " + total_note(plan) if total_note(plan) else ""
    out.append(f"| **Total** |{conv} | | **{at_least(money(cur, cost.own_breakdown['parts']), *plan.unpriced)}** | |")
    out += ["", f"Prices: {'; '.join(source(s) for s in sources) or 'none'}."]
    for label, text in context_lines(plan):  # notes, electricity, use, currency and rate (issue 40)
        out += ["", f"**{label}:** {cell(text)}{'' if text.rstrip().endswith(('.', '!', '?')) else '.'}"]
    out += ["", f"**Power:** {power_line(plan)}."]
    r = plan.report
    out += ["", f"**Checks:** {r.summary()}."]
    out += [f"- {LABEL[f.severity]}: {cell(f.message)} `{f.rule}`" for f in r.findings]
    out += [f"- Not checked: {cell(n.reason)} `{n.rule}`" for n in r.not_checked]
    a = b.assumptions
    out += [
        "",
        f"**Owning vs renting** ({a.hours_per_day:g} h of training a day, {a.horizon_years:g} years, electricity "
        f"{money(cur, electricity_price(a)[0])}/kWh): {least(n)}{money(cur, cost.upfront)} up front, "
        f"{money(cur, cost.own_slope_per_day)} a day to run, "
        f"{least(n)}{money(cur, cost.own_breakdown['total'], 0)} at the horizon after resale.",
        "",
    ]
    if plan.offers:
        out += [
            "| Cloud offer | Instance | Pricing | Per hour | Speed ratio | Owning wins | Price date |",
            "|---|---|---|--:|--:|---|---|",
        ]
        names = plan.offer_names()  # the charts' names; the instance and region in a column of their own
        speed = {(o.id, o.pricing): o.speedup for o in cost.offers}
        est = {(o.id, o.pricing) for o in cost.offers if o.speedup_kind == "estimate"}
        for c in plan.offers:
            s = speed.get((c.offer.id, c.pricing))
            out.append(
                f"| {cell(names[(c.offer.id, c.pricing)])} | {cell(instance_text(c.offer))} | {c.pricing.value} | "
                f"{hourly_price(plan, c.offer, c.pricing)} | "
                f"{'unknown' if s is None else f'{s:.2f}'}{' (estimate)' if (c.offer.id, c.pricing) in est else ''} | "
                f"{breakeven_text(plan, c.offer.id, c.pricing)} | "
                f"{cell(c.offer.date_text)} |"
            )
        out.append("")
    if plan.notes:  # left-out offers, unpriced parts, power notes: one paragraph, apart from the findings list
        out += [f"*Notes:* {'; '.join(cell(n) for n in plan.notes)}.", ""]
    jobs = job_lines(plan)
    if jobs:
        out += ["**By the job:**"] + [f"- {cell(line)}" for line in jobs] + [""]
    if plan.workload_lines:
        out += ["**Workload (estimates, docs/workload.md):**"] + [f"- {cell(line)}" for line in plan.workload_lines]
        out.append("")
    # Plain emphasis, not <sub>: Reddit shows HTML tags as text.
    out.append(f"*Made with RigPlan {__version__} on {plan.made.isoformat()}. Estimates, not quotes.*")
    if plan.data_dates:
        out.append(f"*{cell(plan.data_dates)}*")
    return printable("\n".join(out) + "\n")  # ESC, C1 and bidi characters as visible escapes (rigplan.printable)
