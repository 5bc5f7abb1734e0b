"""What the catalog holds for the current workstation platforms an expert sells for 3+ GPUs (issue 37).

Puget Systems recommends Threadripper PRO or Xeon W for three or more GPUs (docs/suggest.md); RigPlan's suggester
can only answer on a platform whose CPU, board, cooler and memory all carry a price. This report counts, per current
platform, the catalog's parts of each kind a build needs and how many are priced, names the cheapest priced one with
its price's source, and says which kind has no priced part: that kind is the datum a 3+ GPU answer on the platform
is missing (docs/data.md, "Workstation platforms for 3+ GPUs"). Where a price was looked for and not found is in
docs/data-sources.md.

What a part must be to count (each from a maker's statement already in RigPlan's tables):
  * CPU: the platform's socket and product line (the CPU-name patterns of parts/platforms.yaml's chipset table and
    opendb/cpu_families.yaml: AMD sTR5 product pages, Intel ARK for Xeon W-2400/3400, AMD EPYC 9004/9005 pages).
  * board: the socket and, where the platform is a chipset, that chipset (AMD: TRX50 takes Threadripper 7000/9000
    and the PRO WX parts, WRX90 the PRO WX parts only, WRX80 the PRO 5000 WX; Intel: W790 for Xeon W-2400/3400).
    SP5 boards have no chipset: every SP5 board counts.
The platforms are the workstation ones of the suggester's current platforms (suggest/found.py: sTR5, sWRX8, LGA 4677,
SP5); the desktop ones (AM5, LGA 1700, LGA 1851) give 16 to 20 graphics lanes, too few for three GPUs at x8.
  * cooler: one that lists a socket with the platform socket's cooler mount (parts/platforms.yaml `mounts`: sTR5 keeps
    the TR4 / SP3 family mount, so a TR4-SP3 cooler counts for sTR5, as the cooler-socket rule accepts it).
  * memory: kits of the platform's DDR generation flagged registered (every platform here takes ECC RDIMMs only:
    parts/platforms.yaml `memory`; DDR4 on sWRX8, DDR5 on the others).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from rigplan.model.parts import Kind
from rigplan.rules.platforms import chipset_name, platforms


@dataclass(frozen=True)
class Platform:
    name: str
    socket: str
    cpu: re.Pattern[str]  # the product line's CPU names
    chipsets: frozenset[str]  # board chipsets (canonical, e.g. "TRX50"); empty: any board on the socket
    source: str
    ram: str = "DDR5"  # the registered memory the platform takes


PLATFORMS = (
    Platform(
        "Ryzen Threadripper 7000 / 9000 on TRX50",
        "sTR5",
        re.compile(r"Threadripper\s+(79|99)\d\dX\b", re.I),
        frozenset({"TRX50"}),
        "AMD sTR5 platform page and Threadripper 7000 launch (parts/platforms.yaml: non-PRO parts on TRX50 only)",
    ),
    Platform(
        "Ryzen Threadripper PRO 7000 / 9000 WX on WRX90 or TRX50",
        "sTR5",
        re.compile(r"Threadripper\s+(PRO\s+)?(79|99)\d\dWX\b", re.I),
        frozenset({"WRX90", "TRX50"}),
        "AMD sTR5 platform page (parts/platforms.yaml: PRO WX parts on WRX90, or on TRX50 with 4 channels)",
    ),
    Platform(
        "Ryzen Threadripper PRO 5000 WX on WRX80",
        "sWRX8",
        re.compile(r"Threadripper\s+(PRO\s+)?59\d\dWX\b", re.I),
        frozenset({"WRX80"}),
        "AMD Ryzen Threadripper PRO 5000 WX-Series pages (socket sWRX8, AMD WRX80 chipset, DDR4 RDIMM)",
        "DDR4",
    ),
    Platform(
        "Xeon W-2400 / W-3400 on W790",
        "LGA 4677",
        re.compile(r"Xeon\s+w[3579]-[23]4\d\d", re.I),
        frozenset({"W790"}),
        "Intel ARK, Xeon W-2400 / W-3400 (FCLGA4677, Intel W790 chipset)",
    ),
    Platform(
        "EPYC 9004 / 9005 on SP5",
        "SP5",
        re.compile(r"EPYC\s+9\d\d\dP?\b", re.I),
        frozenset(),
        "AMD EPYC 9004 / 9005 product pages (socket SP5, 12 channels of DDR5 RDIMM)",
    ),
)

NEEDED = (Kind.CPU, Kind.MOTHERBOARD, Kind.COOLER, Kind.MEMORY)
_LABEL = {Kind.CPU: "CPU", Kind.MOTHERBOARD: "board", Kind.COOLER: "cooler", Kind.MEMORY: "registered memory kit"}


@dataclass(frozen=True)
class Coverage:
    platform: Platform
    total: dict[Kind, int]
    priced: dict[Kind, int]
    cheapest: dict[Kind, dict[str, Any]]  # the cheapest priced part of each kind (a record)

    def missing(self) -> list[Kind]:
        """The kinds with no priced part: a priced build on the platform waits for one of each."""
        return [k for k in NEEDED if not self.priced[k]]


def _socket_ok(platform: Platform) -> Callable[[str | None], bool]:
    table = platforms()
    want = table.canonical_socket(platform.socket)
    return lambda s: s is not None and table.canonical_socket(s) == want


def _members(platform: Platform, kind: Kind, records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    table = platforms()
    on_socket = _socket_ok(platform)
    if kind is Kind.CPU:
        return [d for d in records if on_socket(d.get("socket")) and platform.cpu.search(d.get("name") or "")]
    if kind is Kind.MOTHERBOARD:
        return [
            d
            for d in records
            if on_socket(d.get("socket"))
            and (not platform.chipsets or chipset_name(d.get("chipset") or "") in platform.chipsets)
        ]
    if kind is Kind.COOLER:
        mount = table.mount(platform.socket)
        return [d for d in records if mount and any(table.mount(s) == mount for s in d.get("sockets") or ())]
    return [d for d in records if d.get("ram_type") == platform.ram and d.get("registered") is True]


def coverage(records: dict[Kind, list[dict[str, Any]]]) -> list[Coverage]:
    """Per platform of PLATFORMS: parts of each needed kind, how many are priced, and the cheapest priced one."""
    out = []
    for p in PLATFORMS:
        total: dict[Kind, int] = {}
        priced: dict[Kind, int] = {}
        cheapest: dict[Kind, dict[str, Any]] = {}
        for kind in NEEDED:
            members = _members(p, kind, records.get(kind, ()))
            with_price = [d for d in members if d.get("price")]
            total[kind], priced[kind] = len(members), len(with_price)
            if with_price:
                cheapest[kind] = min(with_price, key=lambda d: (float(d["price"]["amount"]), d["id"]))
        out.append(Coverage(p, total, priced, cheapest))
    return out


def section(records: dict[Kind, list[dict[str, Any]]]) -> list[str]:
    """docs/data.md: the table, the cheapest priced part of each kind, and each platform's missing datum."""
    cov = coverage(records)
    lines = [
        "## Workstation platforms for 3+ GPUs (issue 37)",
        "",
        "Parts of each kind a build on a current workstation platform needs, and how many carry a price (priced /",
        "in the catalog). A platform with no priced part of some kind cannot be suggested: that kind is the datum",
        "missing (`app/rigplan/opendb/platform_report.py` says what counts; docs/data-sources.md where prices were",
        "looked for and not found).",
        "",
        "| Platform | CPUs | Boards | Coolers (mount) | Registered memory kits | Missing for a priced build |",
        "|---|---|---|---|---|---|",
    ]
    for c in cov:
        cells = [f"{c.priced[k]:,} / {c.total[k]:,}" for k in NEEDED]
        gap = ", ".join(f"a priced {_LABEL[k]}" for k in c.missing()) or "nothing (a build can be priced)"
        name = f"{c.platform.name} ({c.platform.socket}, {c.platform.ram} RDIMM)"
        lines.append(f"| {name} | " + " | ".join(cells) + f" | {gap} |")
    lines += ["", "Cheapest priced part of each kind (the price's source as the catalog gives it):", ""]
    for c in cov:
        for k in NEEDED:
            d = c.cheapest.get(k)
            if d is None:
                continue
            pr = d["price"]
            lines.append(
                f"- {c.platform.name}, {_LABEL[k]}: {d['name']} ({float(pr['amount']):,.2f} {pr['currency']},"
                f" {pr.get('date') or 'date unknown'}, {pr.get('source') or 'source unknown'})"
            )
    return lines
