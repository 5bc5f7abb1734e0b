"""What an answer takes as given and says so (issue 37): which PSU figure binds (the GPU maker's or RigPlan's own),
whether tax is in a non-USD budget, the older platform it falls back to (a cooler's capacity is the cooler-capacity
rule's, rules/cooling.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rigplan.model.build import Build
from rigplan.model.parts import Gpu, Kind, Psu
from rigplan.rules.platforms import platforms
from rigplan.rules.power import estimate_power, recommended_psu, spike_rated
from rigplan.suggest.found import CURRENT_PLATFORMS, WORKSTATION_SOCKETS, current_names, platform_key
from rigplan.suggest.gpu_facts import psu_floor_w, required_system_w
from rigplan.wording import money

if TYPE_CHECKING:
    from rigplan.suggest.found import Found
    from rigplan.suggest.search import Search


def psu_line(found: Found, build: Build) -> str:
    """The PSU beside both figures that size it, and which of them binds."""
    psu = build.first(Kind.PSU)
    gpu = found.option.part
    if not isinstance(psu, Psu) or not psu.wattage:
        return ""
    est = estimate_power(build)
    rec = None if est.unknown else recommended_psu(est.load_w, est.gpu_w, spike_rated(psu))
    maker = psu_floor_w(gpu, found.option.count) if isinstance(gpu, Gpu) else None
    parts = []
    if maker is not None:
        one = required_system_w(gpu)
        more = f" plus {found.option.count - 1}x {gpu.tdp_w} W board power" if found.option.count > 1 else ""
        parts.append(f"the GPU maker's figure asks >= {maker:,.0f} W ({one:,} W for one {gpu.chipset}{more})")
    else:
        parts.append(f"the GPU maker's figure is not in RigPlan's table for the {gpu.chipset}")
    if rec is not None:
        parts.append(f"RigPlan's estimate asks >= {rec:,} W")
    figures = [(maker, "the GPU maker's figure"), (float(rec) if rec is not None else None, "RigPlan's estimate")]
    known = [(w, who) for w, who in figures if w is not None]
    binds = f": {max(known)[1]} binds" if known else ""
    return f"PSU {psu.wattage:,} W: " + ", ".join(parts) + binds


def tax_line(s: Search) -> str:
    """Non-USD budgets: the catalog's prices are US retail before sales tax, converted; say whether VAT is in."""
    cur = s.q.currency
    if cur == "USD":
        return ""
    tax = s.a.tax_fraction
    vat = (
        f"the assumptions add {tax:.0%} tax in the Costs tab, not in this budget"
        if tax
        else "no VAT or sales tax is included (set the tax in the assumptions to cost it)"
    )
    return f"prices: the catalog's US prices before sales tax, converted to {cur} at the {s.budget.rate.basis}; {vat}"


def inferred_lines(build: Build) -> list[str]:
    """Each value the answer relies on that the data inferred (a builder's default), with the part it belongs to."""
    return [
        f"{i.part.name}: {field} {why} (inferred, not a source's statement)"
        for i in build.items
        for field, why in (getattr(i.part, "inferred", None) or {}).items()
    ]


def said(s: Search, found: Found, build: Build) -> list[str]:
    return [line for line in (psu_line(found, build), tax_line(s)) if line] + inferred_lines(build)


def older_socket(found: Found) -> str:
    board = found.parts[0][0] if found.parts else None
    sock = platforms().socket(getattr(board, "socket", None))
    return sock.name if sock else str(getattr(board, "socket", "") or "unknown socket")


def workstation_prices(s: Search) -> str:
    """Per current workstation platform (WORKSTATION_SOCKETS), how many of the catalog's CPUs and boards on it carry
    a price the search can use (the user's own prices included): the datum an older-platform answer lacks. Puget
    Systems names Threadripper PRO or Xeon W for 3+ GPUs (docs/suggest.md); a platform none of whose CPUs or boards
    is priced cannot be searched, and saying how many are there tells the buyer what to price (--prices-from)."""
    tally: dict[str, list[str]] = {key: [] for key in WORKSTATION_SOCKETS}
    for kind, label in ((Kind.CPU, "CPU"), (Kind.MOTHERBOARD, "board")):
        prices = s.pricing.prices(kind)
        keys = [platform_key(sock) for sock in s.catalog.table(kind).column("socket")]
        for key, said_of in tally.items():
            rows = [i for i, k in enumerate(keys) if k == key]
            priced = sum(1 for i in rows if prices[i] is not None)
            said_of.append(f"{priced} of {len(rows)} {label}{'' if len(rows) == 1 else 's'}" if rows else f"no {label}")
    counts = [f"{CURRENT_PLATFORMS[key]}: {' and '.join(said_of)}" for key, said_of in tally.items()]
    return (
        f"priced in the catalog: {'; '.join(counts)}; your own prices for a CPU and a board of one of them "
        "(--prices-from BUILD or --my-prices) let the search weigh it"
    )


def older_fallback(s: Search, found: Found) -> str:
    return (
        f"no build on a current platform ({current_names()}) in the priced catalog passes the checks and the "
        f"expert's minimums for this question: it is on an older platform ({older_socket(found)}); "
        + workstation_prices(s)
    )


@dataclass(frozen=True)
class ListPrice:
    part: str
    amount: float
    currency: str
    source: str
    date: str | None
    listing: bool = False  # a dated retail listing outside the US snapshot, not a maker's list price

    def text(self) -> str:
        return f"{self.part} ({money(self.currency, self.amount)}, {self.source}, {self.date or 'date unknown'})"


def list_prices(build: Build) -> list[ListPrice]:
    """The build's parts priced from parts/list-prices.yaml, not the US street-price snapshot: at a maker's list price
    or at a dated retail listing of another market. The answer names each (issue 37)."""
    out = []
    for item in build.items:
        p = item.unit_price
        if p is not None and (p.is_list_price or p.is_listing):
            date = p.date.isoformat() if p.date else None
            out.append(ListPrice(item.part.name, p.amount, p.currency, p.source or "", date, p.is_listing))
    return out


def list_price_line(prices: list[ListPrice]) -> str:
    """'priced at a maker's list price, not a street price: ...; priced at a dated retail listing ...' ("" when no
    part is)."""
    listed = [p for p in prices if not p.listing]
    seen = [p for p in prices if p.listing]
    out = []
    if listed:
        out.append("priced at a maker's list price, not a street price: " + "; ".join(p.text() for p in listed))
    if seen:
        out.append(
            "priced at a dated retail listing outside RigPlan's US price snapshot (another market's price with its"
            " sales tax, converted at the ECB rate): " + "; ".join(p.text() for p in seen)
        )
    return "; ".join(out)
