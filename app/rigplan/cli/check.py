"""`rigplan check BUILD [--json]`: exit 0 with no errors, 1 with errors, 2 for bad input."""

from __future__ import annotations

import argparse

from rigplan.cli.output import print_json
from rigplan.model.other import OtherItem
from rigplan.rules.findings import Report, Severity
from rigplan.rules.power import PSU_SIZES

MARK = {Severity.ERROR: "ERROR  ", Severity.WARNING: "WARNING", Severity.NOTE: "note   "}


def report_json(report: Report, notes: list[str], other: tuple[OtherItem, ...] = ()) -> dict[str, object]:
    assert report.power is not None
    return {
        "ok": report.ok,
        "findings": [f.to_json() for f in report.findings],
        "not_checked": [n.to_json() for n in report.not_checked],
        "power": report.power.to_json(),
        "catalog_notes": notes,
        # Issue 29: priced line items no rule reads (fans, OS, cables, UPS...); `rigplan cost` counts them.
        "other_items": [o.to_json() for o in other],
    }


def print_report(name: str, report: Report, notes: list[str], other: tuple[OtherItem, ...] = ()) -> None:
    print(f"{name}: {report.summary()}")
    for note in notes:
        print(f"  note     {note}")
    for f in report.findings:
        print(f"  {MARK[f.severity]}  [{f.rule}] {f.message}")
        if f.hint:
            print(f"           -> {f.hint}")
    if report.not_checked:
        print("Not checked:")
        for n in report.not_checked:
            print(f"  - [{n.rule}] {n.reason}")
    p = report.power
    assert p is not None
    psu = f"{p.psu_w} W PSU" if p.psu_w else "no PSU chosen"
    least = "at least " if p.unknown else ""
    rec = f"{p.recommended_psu_w} W" if p.recommended_psu_w <= PSU_SIZES[-1] else f"over {PSU_SIZES[-1]} W (two PSUs)"
    print(
        f"Power: {least}{p.load_w:.0f} W at full load ({p.sizing_w:.0f} W with GPU spikes, for PSU "
        f"sizing); at the wall {least}{p.wall_load_w:.0f} W training, {p.wall_idle_w:.0f} W idle; {psu}, "
        f"recommended {rec} (estimates)."
    )
    for line in p.notes:
        print(f"  ({line})")
    if other:
        print("Other items (no rule checks them; counted in the costs; case fans' watts in the PSU load):")
        for o in other:
            print(f"  - {o.describe()}")


def cmd_check(ns: argparse.Namespace) -> int:
    from rigplan.catalog import load_catalog
    from rigplan.files import load, missing_from_catalog
    from rigplan.opendb.findings import with_correction_notes
    from rigplan.rules import check

    build = load(ns.build)
    catalog = load_catalog()
    report = with_correction_notes(check(build), build, catalog.user_corrections)
    notes = missing_from_catalog(build, catalog)
    if ns.json:
        print_json(report_json(report, notes, build.other))
    else:
        print_report(build.name, report, notes, build.other)
    return 0 if report.ok else 1


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("check", help="check a build for compatibility and power problems")
    p.add_argument("build", help="a .rigplan build file")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_check)
