"""Second sources for the PSU catalog (issue 36): the SPL PSU tier list against parts/psu.yaml, report only.

    python tools/second_sources.py --spl psu_tier.html [--out docs/second-sources.md]

The SPL PSU tier list (a Google-Sheets HTML export kept in FeikoWielsma/psu-tier-userscript, commit c9629db,
2026-01-04, file psu_tier.html) has no licence: RigPlan copies none of its values into parts/. It is read only to
find where the catalog disagrees with it, per unit matched by maker, series and wattage:
  * ATX version: the catalog says ATX 3.x (atx3 true) where SPL lists the series as ATX 2.x, or the reverse;
  * input range: SPL lists the series as 230 V-only where the catalog has no input range (the psu-input-voltage
    rule would then pass it on a 120 V circuit only if the unit is under 1,600 W).
Each disagreement is a value for a person to check against the maker, or to make unknown; the list is written to
--out. Matching is by name tokens and is conservative: a unit matching several series is left out.
"""

from __future__ import annotations

import argparse
import html
import re
import sys
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
CELL = re.compile(r"<t([dh])([^>]*)>(.*?)</t[dh]>", re.S)


def grid(text: str) -> list[list[str]]:
    """The sheet's table as rows of cells, with row and column spans filled in (the freeze-bar column dropped)."""
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", text, re.S)
    out: list[list[str]] = []
    carry: dict[int, tuple[int, str]] = {}  # column -> (rows left, value)
    for r in rows:
        row: list[str] = []
        cells = [(a, v) for _, a, v in CELL.findall(r) if "freezebar" not in a]
        it = iter(cells)
        col = 0
        while True:
            if col in carry:
                left, value = carry[col]
                row.append(value)
                carry[col] = (left - 1, value) if left > 1 else carry.pop(col)  # type: ignore[assignment]
                if left <= 1:
                    carry.pop(col, None)
                col += 1
                continue
            nxt = next(it, None)
            if nxt is None:
                break
            attrs, raw = nxt
            value = html.unescape(re.sub(r"<[^>]+>", "", raw)).strip()
            rs = int(m.group(1)) if (m := re.search(r'rowspan="(\d+)"', attrs)) else 1
            cs = int(m.group(1)) if (m := re.search(r'colspan="(\d+)"', attrs)) else 1
            for k in range(cs):
                row.append(value)
                if rs > 1:
                    carry[col + k] = (rs - 1, value)
            col += cs
        out.append(row)
    return out


def spl_rows(text: str) -> list[dict[str, str]]:
    g = grid(text)
    head = next(r for r in g if "Brand" in r and "ATX Ver." in r)
    pos = {name: head.index(name) for name in ("Brand", "Series", "Wattages + Links", "ATX Ver.", "Input Range")}
    out = []
    for r in g[g.index(head) + 1 :]:
        if len(r) <= max(pos.values()):
            continue
        rec = {k: r[i] for k, i in pos.items()}
        if rec["Brand"] and rec["Series"] and re.search(r"\d+\s*W", rec["Wattages + Links"]):
            out.append(rec)
    return out


def wattages(text: str) -> set[int]:
    """'550/650/750W' -> {550, 650, 750}; '550-750W' -> {550, ..., 750} in 50 W steps."""
    out: set[int] = set()
    for part in re.split(r"[/,]", text.replace("W", "")):
        nums = [int(n) for n in re.findall(r"\d{3,4}", part)]
        if len(nums) == 2 and "-" in part:
            out |= set(range(nums[0], nums[1] + 1, 50))
        else:
            out |= set(nums)
    return out


def tokens(s: str) -> set[str]:
    return {t for t in re.findall(r"[a-z0-9]+", s.lower()) if t not in {"series", "the", "v2", "v3"}}


def disagreements(psus: list[dict[str, Any]], spl: list[dict[str, str]]) -> list[tuple[str, str, str, str, str]]:
    out = []
    for p in psus:
        name, maker, w = p["name"], (p.get("manufacturer") or "").lower(), p.get("wattage")
        words = tokens(name)
        hits = [
            s
            for s in spl
            if maker.startswith(s["Brand"].lower().split()[0])
            and tokens(re.sub(r"\(.*?\)", "", s["Series"])) <= words
            and w in wattages(s["Wattages + Links"])
        ]
        if hits:  # the most specific series wins ('Dagger Pro' over 'Dagger')
            most = max(len(tokens(h["Series"])) for h in hits)
            hits = [h for h in hits if len(tokens(h["Series"])) == most]
        if len(hits) != 1:
            continue
        s = hits[0]
        atx, rng = s["ATX Ver."], s["Input Range"]
        mine = p.get("atx3")
        if (mine is True and atx.startswith("ATX 2")) or (mine is False and atx.startswith("ATX 3")):
            out.append((p["id"][:8], name, "atx3", str(mine), f"{s['Brand']} {s['Series']}: {atx}"))
        if rng.startswith("230") and p.get("input_voltage_min_v") is None:
            out.append((p["id"][:8], name, "input range", "unknown", f"{s['Brand']} {s['Series']}: {rng} only"))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--spl", type=Path, required=True, help="psu_tier.html from FeikoWielsma/psu-tier-userscript")
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "second-sources.md")
    a = ap.parse_args()
    try:
        spl = spl_rows(a.spl.read_text("utf-8"))
    except (OSError, StopIteration, UnicodeDecodeError) as exc:
        print(f"cannot read the SPL tier list {a.spl}: {exc}", file=sys.stderr)
        return 2
    psus = yaml.safe_load((ROOT / "parts" / "psu.yaml").read_text("utf-8"))["parts"]
    found = disagreements(psus, spl)
    lines = [
        "# Second sources: the SPL PSU tier list against the catalog (issue 36)",
        "",
        "Made by `python tools/second_sources.py --spl psu_tier.html` (FeikoWielsma/psu-tier-userscript @c9629db,",
        "2026-01-04). The tier list has no licence: none of its values is copied into `parts/`; it only flags",
        f"catalog values to check. {len(spl):,} series rows read; {len(psus):,} catalog PSUs; a unit is compared only",
        "when exactly one series matches its maker, series words and wattage.",
        "",
        f"{len(found)} disagreements:",
        "",
        "| Part | Name | Field | Catalog | SPL tier list says |",
        "|---|---|---|---|---|",
        *(f"| `{i}` | {n.replace('|', '/')} | {f} | {m} | {s.replace('|', '/')} |" for i, n, f, m, s in found),
        "",
    ]
    a.out.write_text("\n".join(lines), encoding="utf-8")
    print(f"{len(spl)} SPL rows, {len(found)} disagreements -> {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
