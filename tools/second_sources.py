"""Second sources against the catalog (issue 36), report only: docs/second-sources.md.

    python tools/second_sources.py --spl psu_tier.html --dmi DMI.git --pcpp PCPP.git --fmp FMP.git [--out FILE]

Each source is read at a pinned commit from a git directory (a clone or `fetch` mirror; `git show <commit>:<path>`),
so the report is reproducible; none of them is a source of `make data` (tools/fetch_sources.py), because none is
read by the importer: what they justify goes into parts/corrections.yaml with its source.
  * SPL PSU tier list (FeikoWielsma/psu-tier-userscript @c9629db, psu_tier.html; no licence): ATX version and
    input range per PSU series (below);
  * linuxhw/DMI (CC BY 4.0): board slot tables, tools/dmi_slots.py and tools/dmi_compare.py;
  * the 2024 PCPartPicker scrape (N-O-U-R/PcPartPicker-Scraping; no licence): tools/pcpp_flags.py;
  * findmyprebuilt's chipset table (no licence): tools/fmp_chipsets.py.
The SPL tier list has no licence: RigPlan copies none of its values into parts/. It is read only to
find where the catalog disagrees with it, per unit matched by maker, series and wattage:
  * ATX version: the catalog says ATX 3.x (atx3 true) where SPL lists the series as ATX 2.x, or the reverse;
  * input range: SPL lists the series as 230 V-only where the catalog has no input range.
Matching is by name tokens and is conservative: a unit matching several series is left out.
"""

from __future__ import annotations

import argparse
import html
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]

sys.path.insert(0, str(Path(__file__).resolve().parent))
import dmi_slots  # noqa: E402
import fmp_chipsets  # noqa: E402
import pcpp_flags  # noqa: E402
import second_sources_report  # noqa: E402

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


SPL_REPO, SPL_PIN, SPL_PATH = "FeikoWielsma/psu-tier-userscript", "c9629db", "psu_tier.html"


def git_show(git_dir: Path, commit: str, path: str) -> str:
    return subprocess.run(
        ["git", f"--git-dir={git_dir}", "show", f"{commit}:{path}"], capture_output=True, text=True, check=True
    ).stdout


def load(kind: str) -> list[dict[str, Any]]:
    return yaml.safe_load((ROOT / "parts" / f"{kind}.yaml").read_text("utf-8"))["parts"]


def cell(v: Any) -> str:
    return str(v).replace("|", "/")


def spl_section(text: str) -> list[str]:
    spl = spl_rows(text)
    psus = load("psu")
    found = disagreements(psus, spl)
    return [
        "## SPL PSU tier list",
        "",
        f"{SPL_REPO} @{SPL_PIN} (2026-01-04), `{SPL_PATH}`; no licence: none of its values is copied into `parts/`.",
        f"{len(spl):,} series rows read; {len(psus):,} catalog PSUs; a unit is compared only when exactly one series",
        f"matches its maker, series words and wattage. {len(found)} disagreements:",
        "",
        "| Part | Name | Field | Catalog | SPL tier list says |",
        "|---|---|---|---|---|",
        *(f"| `{i}` | {cell(n)} | {f} | {m} | {cell(s)} |" for i, n, f, m, s in found),
        "",
    ]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--spl", type=Path, required=True, help=f"{SPL_PATH} from {SPL_REPO} @{SPL_PIN}")
    ap.add_argument("--dmi", type=Path, required=True, help=f"git dir of {dmi_slots.REPO}")
    ap.add_argument("--pcpp", type=Path, required=True, help=f"git dir of {pcpp_flags.REPO}")
    ap.add_argument("--fmp", type=Path, required=True, help=f"git dir of {fmp_chipsets.REPO}")
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "second-sources.md")
    a = ap.parse_args()
    try:
        spl = spl_section(a.spl.read_text("utf-8"))
        dmi = second_sources_report.dmi_section(dmi_slots.probes(a.dmi), load("motherboard"))
        pcpp = second_sources_report.pcpp_section(
            {k: git_show(a.pcpp, pcpp_flags.PIN, f) for k, f in pcpp_flags.FILES.items()}, load
        )
        fmp = second_sources_report.fmp_section(git_show(a.fmp, fmp_chipsets.PIN, fmp_chipsets.PATH), load)
    except (OSError, StopIteration, UnicodeDecodeError, subprocess.CalledProcessError) as exc:
        print(f"cannot read a second source: {exc}", file=sys.stderr)
        return 2
    head = [
        "# Second sources against the catalog (issue 36)",
        "",
        "Made by `python tools/second_sources.py --spl psu_tier.html --dmi DMI.git --pcpp PCPP.git --fmp FMP.git`,",
        "each source at the commit named in its section. Evidence to cross-check the catalog, never the catalog's",
        "truth: what a second source justifies is written to `parts/corrections.yaml` with its source, or listed here",
        "for a person to check.",
        "",
    ]
    a.out.write_text("\n".join(head + spl + dmi + pcpp + fmp), encoding="utf-8")
    print(f"-> {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
