"""The price join's report for issue 19: coverage per kind before and after the attribute tie-breaks, the list of
rows they joined (for audits), and the hand audits' verdicts (docs/audit/price-audit-*.csv)."""

from __future__ import annotations

import collections
import csv
from pathlib import Path

from rigplan.model.parts import Kind

ROOT = Path(__file__).resolve().parents[3]  # the repository (docs/audit), when run from a checkout

# Parts priced by the join before issue 19 (names and token subsets only; docs/data.md at commit 1979232).
PRICED_BEFORE = {
    Kind.CPU: 274,
    Kind.COOLER: 324,
    Kind.MOTHERBOARD: 584,
    Kind.MEMORY: 1002,
    Kind.STORAGE: 1029,
    Kind.GPU: 596,
    Kind.PSU: 354,
    Kind.CASE: 232,
}
AUDITS = ROOT / "docs" / "audit"


def coverage_section(coverage: dict[Kind, tuple[int, int]]) -> list[str]:
    """Issue 19: price coverage per kind before and after the attribute tie-breaks, and the audits' verdicts."""
    lines = [
        "## Price coverage per kind (issue 19)",
        "",
        "Share of catalog parts with a price from the 2025-07-23 snapshot, before and after the attribute tie-breaks",
        "(`tools/price_attributes.py`): when several parts carry every token of a price row's name, the row's own",
        "attributes (colour, form factor, efficiency, modularity, GPU length and boost clock, CPU cores, clock and",
        "TDP, drive interface and form factor, radiator size, board memory slots) must rule out all but one, that one",
        "must state them itself, and its name may add no model word to the row's (so 'Vengeance' never lands on",
        "'Vengeance RGB').",
        "",
        "| Kind | Parts | Priced before | Priced after | Coverage before | Coverage after |",
        "|---|---|---|---|---|---|",
    ]
    all_parts = all_before = all_after = 0
    for kind, (n, priced) in coverage.items():
        before = PRICED_BEFORE[kind]
        all_parts, all_before, all_after = all_parts + n, all_before + before, all_after + priced
        lines.append(f"| {kind.value} | {n:,} | {before:,} | {priced:,} | {before / n:.1%} | {priced / n:.1%} |")
    lines.append(
        f"| all | {all_parts:,} | {all_before:,} | {all_after:,} | {all_before / all_parts:.1%} "
        f"| {all_after / all_parts:.1%} |"
    )
    lines += ["", "Every row joined by its attributes is listed in `docs/price-attribute-matches.csv`.", ""]
    for path in sorted(AUDITS.glob("price-audit-*.csv")) if AUDITS.is_dir() else []:
        with path.open(newline="", encoding="utf-8") as fh:
            verdicts = collections.Counter(r["verdict"] for r in csv.DictReader(fh))
        counts = ", ".join(f"{n} {v}" for v, n in sorted(verdicts.items()))
        what = (
            "price joins of the 100-part catalog sample" if "decided_by" not in fh_cols(path) else "random new matches"
        )
        lines.append(f"- `docs/audit/{path.name}`: {sum(verdicts.values())} {what} checked by hand: {counts}.")
    lines += [
        "",
        "Audit 1 (the first rule set) found three wrong products and one unproven one, all the same fault: the one",
        "candidate left was a sibling model whose name adds a word ('SKY TWO' -> 'SKY TWO GX', 'Vengeance' ->",
        "'Vengeance RGB', 'VENTUS 3X OC' -> 'VENTUS 3X E OC', 'XLR8' -> 'XLR8 Gaming'). That rule set was dropped and",
        "the name check above added; audit 2, a fresh sample of the rules as shipped, found no wrong product.",
        "",
    ]
    return lines


def write_matches(path: Path, rows: list[tuple[str, str, float, str, str, str]]) -> None:
    """Every row joined by its attributes (issue 19), for the audit: kind, price row name, price, part id and name,
    and the attributes that ruled the other candidates out."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["kind", "price_row", "price_usd", "part_id", "part_name", "decided_by"])
        w.writerows(sorted(rows))


def join_section(drops: collections.Counter[tuple[str, str]], joins: list[tuple[object, ...]]) -> list[str]:
    """Issue 25: how many joins the model-word checks (tools/price_checks.py) dropped, by kind, join type and reason,
    and where each part's price row is recorded."""
    by_how = collections.Counter(j[-1] for j in joins)
    lines = [
        "## Price joins checked for the right product (issue 25)",
        "",
        "Every join (exact name, name tokens and attributes alike) passes the model-word checks of",
        "`tools/price_checks.py`: a letter after digits is part of the model (i5-3550 is not i5-3550S);",
        "the same digits with other letters are another model (S300 is not X300); a bare number must be",
        "a word of the part's name (not the 4 of DDR4); the part may not add a variant word the row lacks",
        "(OC, Ultra, Pro, Plus, Ti, Super, XT, special editions); a drive's interface and form factor must",
        "agree with the row's. Which price row priced each part (its name, its attributes, the join type)",
        "is recorded in `parts/price_sources.csv`; every dropped",
        "join is listed in `docs/price-joins-dropped.csv`.",
        "",
        "Parts priced per join type: " + ", ".join(f"{how} {n:,}" for how, n in sorted(by_how.items())) + ".",
        "",
        f"Joins dropped: {sum(drops.values()):,}.",
        "",
        "| Kind | Join type: reason | Rows dropped |",
        "|---|---|---|",
        *(f"| {kind} | {why.removeprefix('dropped ')} | {n:,} |" for (kind, why), n in sorted(drops.items())),
        "",
    ]
    return lines


def write_joins(
    path: Path, joins: list[tuple[object, ...]], dropped_path: Path | None, dropped: list[tuple[str, ...]]
) -> None:
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["kind", "part_id", "part_name", "price_row", "price_row_attributes", "price_usd", "join"])
        w.writerows(sorted(joins, key=lambda j: (str(j[0]), str(j[1]))))
    if dropped_path is not None:
        with dropped_path.open("w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh, lineterminator="\n")
            w.writerow(["kind", "join", "price_row", "part_id", "part_name", "reason"])
            w.writerows(sorted(dropped))


def fh_cols(path: Path) -> list[str]:
    with path.open(newline="", encoding="utf-8") as fh:
        return next(csv.reader(fh), [])
