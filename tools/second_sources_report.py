"""The linuxhw/DMI, PCPartPicker-2024 and findmyprebuilt sections of docs/second-sources.md."""

from __future__ import annotations

import csv
import sys
import textwrap
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(1, str(Path(__file__).resolve().parents[1] / "app"))  # rigplan, when not installed
import yaml

import dmi_compare as dc
import dmi_slots as ds
import fmp_chipsets as fc
import pcpp_flags as pf

ROOT = Path(__file__).resolve().parents[1]
CLASSES = [
    ("count", "Slot count differs"),
    ("width", "Electrical widths differ"),
    ("physical", "Physical size of a narrow-wired slot not stated, or another, in the catalog"),
    ("wiring", "CPU/chipset wiring differs"),
    ("wiring unstated", "Wiring not stated in the catalog, the bus address tells"),
]


def corrected() -> dict[str, tuple[Any, str]]:
    """'part id:field' -> (value, source) of its correction in parts/corrections.yaml (value None: made unknown)."""
    fixes = yaml.safe_load((ROOT / "parts" / "corrections.yaml").read_text("utf-8"))["corrections"]
    return {f"{f['id']}:{f['field']}": (f["value"], f["source"]) for f in fixes}


def expand(slots: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [s for s in slots for _ in range(s.get("count", 1))]


def cell(v: Any) -> str:
    return str(v).replace("|", "/")


def dmi_section(probes: list[ds.Probe], boards: list[dict[str, Any]]) -> list[str]:
    priced = [b for b in boards if b.get("price")]
    matched = dc.match(priced, probes)
    own = [b for b in matched if b.table]
    fixes = corrected()
    rows: dict[str, list[str]] = {k: [] for k, _ in CLASSES}
    for b in own:
        fixed = f"{b.part['id']}:pcie_slots" in fixes
        for k, what in dc.classify(b):
            src = fixes[f"{b.part['id']}:pcie_slots"][1] if fixed else ""
            action = "corrected" if src.startswith(ds.REPO) else "corrected (maker)" if fixed else "to check"
            rows[k].append(
                f"| `{b.part['id'][:8]}` | {cell(b.part['name'])} | {b.agree}/{b.usable} | {cell(what)} | "
                f"{cell(dc.slots_text(dc.catalog_slots(b.part)))} | {cell(dc.dmi_text(b))} | {action} |"
            )
    n_fix = sum(1 for k, (_, src) in fixes.items() if k.endswith(":pcie_slots") and src.startswith(ds.REPO))
    boards_n = len({(ds.vendor_key(p.board_vendor), p.board) for p in probes})
    out = [
        "## linuxhw/DMI slot tables",
        "",
        f"{ds.REPO} @{ds.PIN} (2025-01-06), CC BY 4.0 (values may be copied with attribution: each correction cites",
        "the probe path and commit). Read by `tools/dmi_slots.py` (parser) and `tools/dmi_compare.py` (matching).",
        f"{len(probes):,} probes with at least one PCIe slot record in the board makers' folders, {boards_n:,} board",
        f"names. **{len(matched)} of {len(priced)} priced catalog boards matched** (maker + the name's words once the",
        "words only one side writes are dropped: socket, memory type, form factor, ROG/GA/CSM, Wi-Fi generation, a",
        "repeated chipset prefix; Wi-Fi and non-Wi-Fi kept apart; exact word sets only, no fuzzy score).",
        f"{len(matched) - len(own)} of them have only template tables (not evidence): a table that names its slots by",
        "AMD's/AMI's reference-board designators (J6B2, J8D1, 'J3708 PCIE x4 slot from Promontory': MSI, Gigabyte,",
        "ASRock and Biostar AM4/AM5 BIOSes), a table shared by a Mini-ITX board and a larger one, or one with more",
        "slots than the form factor holds (Mini-ITX 1, Micro ATX 4, ATX 7).",
        f"{len(own)} boards have their own table; {sum(b.consistent for b in own)} of them give the same table in",
        "every probe.",
        "",
        *textwrap.wrap(
            "What is read: the slot Type gives the connector size ('PCI Express 4 x16'), the data bus width (a 'x4 '"
            " prefix before dmidecode 3.5, a 'Data Bus Width' line after) the electrical width. CPU or chipset from"
            " the Bus Address only on single-root desktop platforms: Intel LGA1150-1851 bus 00 device 01/06 = CPU,"
            " 1a-1d = PCH; AMD AM4/AM5 bus 00 device 01-03 function 1-7 = a CPU GPP bridge. A bus > 00 on AMD says"
            " nothing (the chipset's ports, a switch behind a CPU port, or the card's own address, which ASUS writes"
            " for slots in use); '1f.7' is 'not given'; HEDT/server sockets (several root complexes) are not read."
            " Limits: BIOSes often write the connector size as the data width (old ASUS tables give x16 for chipset"
            " x4 slots), so a DMI width *wider* than the catalog's is weak evidence and is never used alone; a"
            " narrower one, repeated in every probe, is strong.",
            115,
        ),
        "",
        f"Corrections written to `parts/corrections.yaml` from these tables: **{n_fix}**, each only where at least 4",
        "of 5 (here: all but the ProArt Z790's 5 of 6 and the X570 boards' 65/80 and 49/56) non-template probes agree",
        "and the platform's lane facts agree (a PCIe 5.0/x8 slot is CPU lanes, a chipset gives x4 at most).",
        "",
    ]
    done = [
        (k.split(":")[0], v) for k, (v, src) in fixes.items() if k.endswith(":pcie_slots") and src.startswith(ds.REPO)
    ]
    names = {b["id"]: b["name"] for b in boards}
    probes_of = {b.part["id"]: f"{b.agree}/{b.usable}" for b in own}
    out += [
        f"### Corrected from these tables: {len(done)}",
        "",
        "The classes below are what remains after these corrections (the catalog as shipped).",
        "",
        "| Part | Name | Probes agreeing | Now |",
        "|---|---|---|---|",
        *(
            f"| `{i[:8]}` | {cell(names.get(i, '?'))} | {probes_of.get(i, '?')} | {cell(dc.slots_text(expand(v)))} |"
            for i, v in done
        ),
        "",
    ]
    for k, title in CLASSES:
        out += [
            f"### {title}: {len(rows[k])}",
            "",
            "| Part | Name | Probes agreeing | Differs | Catalog | DMI | Action |",
            "|---|---|---|---|---|---|---|",
            *rows[k],
            "",
        ]
    return out


def _was(part_id: str, field: str) -> Any:
    fixes = yaml.safe_load((ROOT / "parts" / "corrections.yaml").read_text("utf-8"))["corrections"]
    return next(f["was"] for f in fixes if f["id"] == part_id and f["field"] == field)


def price_rows() -> dict[str, str]:
    with (ROOT / "parts" / "price_sources.csv").open(encoding="utf-8") as f:
        return {r["part_id"]: r["price_row"] for r in csv.DictReader(f)}


def pcpp_section(texts: dict[str, str], load: Callable[[str], list[dict[str, Any]]]) -> list[str]:
    names = price_rows()
    fixes = corrected()
    body: list[str] = []
    summary: list[str] = []
    for kind, text in texts.items():
        scrape = pf.by_name(pf.rows(text))
        parts = load(kind)
        n, found = pf.compare(kind, parts, scrape, names)
        per = Counter(f for _, _, f, _, _ in found)
        byid = {p["id"]: p for p in parts}
        for key, (_, src) in fixes.items():
            i, field = key.split(":")
            if "PcPartPicker-Scraping" in src and i in byid:
                per[field] += 1
                found.append((i, byid[i]["name"], field, "(source) " + str(_was(i, field)), "(disagrees)"))
        for field, *_ in pf.FIELDS[kind]:
            done = [fixes.get(f"{i}:{field}") for i, _, f, _, _ in found if f == field]
            unk = sum(1 for x in done if x and x[0] is None)
            third = sum(1 for x in done if x and x[0] is not None)
            summary.append(f"| {kind} | `{field}` | {n} | {per[field]} | {third} | {unk} |")
        for i, name, field, mine, theirs in found:
            fix = fixes.get(f"{i}:{field}")
            act = (
                "flag only: " + pf.why(kind, field, mine, theirs)
                if fix is None
                else "made unknown"
                if fix[0] is None
                else f"{fix[0]} from a third source: {fix[1].split(',')[0]}"
            )
            body.append(f"| `{i[:8]}` | {cell(name)} | {field} | {cell(mine)} | {cell(theirs)} | {act} |")
    return [
        "## PCPartPicker 2024 spec scrape",
        "",
        f"{pf.REPO} @{pf.PIN} (2024-10-18), `data/*_detailed.csv`; no licence: none of its values is copied into",
        "`parts/`. A part is compared when the scrape has exactly one row named as its PCPartPicker listing",
        "(`parts/price_sources.csv`), PSUs also of its wattage. The scrape holds few boards (93 rows), so few match.",
        "pc-part-dataset is PCPartPicker too, so it cannot decide between OpenDB and this scrape: where a rule reads",
        "the field and no maker's statement or platform fact decides, the value is made unknown (a",
        "`parts/corrections.yaml` entry with value null, naming both sources, not the scrape's value).",
        "",
        "| Kind | Field | Parts compared | Disagreements | Decided by a third source | Made unknown |",
        "|---|---|---|---|---|---|",
        *summary,
        "",
        "| Part | Name | Field | Catalog | Scrape says | Action |",
        "|---|---|---|---|---|---|",
        *body,
        "",
    ]


def fmp_section(text: str, load: Callable[[str], list[dict[str, Any]]]) -> list[str]:
    from rigplan.opendb.invariants_board import CHIPSET_PLATFORM

    gens = fc.chipsets(text)
    have = set(CHIPSET_PLATFORM)
    flags = fc.faster_than_chipset(load("motherboard"), gens)
    return [
        "## findmyprebuilt chipset table",
        "",
        f"{fc.REPO} @{fc.PIN} (2025-03-27), `{fc.PATH}` (`intelChipsets`); no licence, no socket column: names and",
        f"each chipset's PCIe generation only. {len(gens)} Intel chipsets; in RigPlan's chipset -> socket table",
        f"(`rigplan/opendb/invariants_board.py`): {', '.join(sorted(set(gens) & have))}. Of these, W880, W680, R680E,",
        "W580, W480 and W480E were added in issue 36 after this comparison, each with its socket and memory from",
        "Intel's or the press's statements (cited there), not from this table. The consumer chipsets "
        f"({len(set(gens) - have)}) have no row there: their socket is checked by the CPU-socket rule, not the table.",
        "",
        f"Flag: a chipset-wired slot of a newer PCIe generation than the chipset's own lanes per this table: "
        f"{len(flags)} boards, to check, not acted on: most are H410 boards, which this table gives PCIe 2 and every",
        "maker's listing PCIe 3.0 x1 slots; without Intel's datasheet to decide, the table is not a decider.",
        "",
        "| Part | Name | Chipset | What |",
        "|---|---|---|---|",
        *(f"| `{i[:8]}` | {cell(n)} | {c} | {w} |" for i, n, c, w in flags),
        "",
    ]
