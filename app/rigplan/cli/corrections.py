"""`rigplan parts correct ID FIELD=VALUE... --source TEXT` and `rigplan parts corrections list|remove|export`: the
user's own corrections to the catalog (issue 38; rigplan.opendb.usercorr keeps them)."""

from __future__ import annotations

import argparse
from pathlib import Path

from rigplan.cli.main import UsageError
from rigplan.cli.output import print_json, table


def cmd_correct(ns: argparse.Namespace) -> int:
    from rigplan.opendb.usercorr import CorrectionRefused, add

    try:
        made = add(ns.id, ns.assignments, ns.source or "")
    except CorrectionRefused as exc:
        raise UsageError(f"{exc} (nothing was changed)") from exc
    for c in made:
        print(f"{c.name}: {c.field} {c.was!r} -> {c.value!r}, {c.label()}")
    return 0


def cmd_list(ns: argparse.Namespace) -> int:
    from rigplan.opendb.usercorr import CorrectionRefused, listing

    try:
        found = listing()
    except CorrectionRefused as exc:
        raise UsageError(str(exc)) from exc
    if ns.json:
        print_json({"corrections": [c.as_dict() for c in found]})
        return 0
    if not found:
        print("You have no corrections. Make one with: rigplan parts correct ID FIELD=VALUE --source TEXT")
        return 0
    rows = [[c.part_id, c.name[:40], c.field, repr(c.was), repr(c.value), c.source[:50], c.made] for c in found]
    print(table(rows, ["ID", "Part", "Field", "Was", "Now", "Source", "Made"]))
    return 0


def cmd_remove(ns: argparse.Namespace) -> int:
    from rigplan.opendb.usercorr import CorrectionRefused, remove

    try:
        gone = remove(ns.id, ns.field)
    except CorrectionRefused as exc:
        raise UsageError(str(exc)) from exc
    print(f"Removed your correction of {gone.field} on {gone.name or gone.part_id}; the catalog's value is used again.")
    return 0


def cmd_export(ns: argparse.Namespace) -> int:
    from rigplan.opendb.usercorr import CorrectionRefused, export_opendb

    target = Path(ns.opendb).expanduser()
    if target.exists() and not target.is_dir():
        raise UsageError(f"{target} is not a folder")
    try:
        written = export_opendb(target)
    except CorrectionRefused as exc:
        raise UsageError(str(exc)) from exc
    except OSError as exc:
        raise UsageError(f"cannot write to {target}: {exc.strerror or exc}") from exc
    print(
        f"Wrote {len(written)} record(s) in OpenDB's layout under {target / 'open-db'} and {target / 'CORRECTIONS.md'}."
    )
    print("Copy open-db/ over a clone of buildcores/buildcores-open-db and open a pull request with CORRECTIONS.md.")
    return 0


def register_under(psub: argparse._SubParsersAction) -> None:
    """Added to `rigplan parts` (rigplan.cli.parts.register)."""
    c = psub.add_parser("correct", help="correct a value of a part, with its source (kept across catalog updates)")
    c.add_argument("id")
    c.add_argument("assignments", nargs="+", metavar="FIELD=VALUE", help="e.g. length_mm=305 connectors.pcie8=4")
    c.add_argument("--source", required=True, help="where the right value is stated (maker's page, manual)")
    c.set_defaults(func=cmd_correct)
    cs = psub.add_parser("corrections", help="list, remove or export your corrections")
    csub = cs.add_subparsers(dest="corrections_command", metavar="ACTION", required=True, parser_class=type(cs))
    ls = csub.add_parser("list", help="your corrections")
    ls.add_argument("--json", action="store_true")
    ls.set_defaults(func=cmd_list)
    rm = csub.add_parser("remove", help="remove one of your corrections")
    rm.add_argument("id")
    rm.add_argument("field")
    rm.set_defaults(func=cmd_remove)
    ex = csub.add_parser("export", help="write the corrected records in OpenDB's layout, for a pull request")
    ex.add_argument("--opendb", required=True, metavar="DIR", help="folder to write open-db/<Category>/<id>.json into")
    ex.set_defaults(func=cmd_export)
