"""`rigplan catalog update|status|revert`: refresh the parts from BuildCores OpenDB (issue 38), the way
`rigplan prices update|status|revert` refreshes the cloud prices. The update is kept in the user's data folder; the
shipped catalog is never written to."""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

from rigplan.cli.main import UsageError
from rigplan.cli.output import print_json

SHOW = 8  # parts named per list in the plain summary (the JSON carries them all)


def _names(items: list[Any], more: int) -> str:
    shown = ", ".join(n for _, n in items[:SHOW])
    return shown + (f" and {more:,} more" if more > 0 else "")


def summary_lines(s: Any) -> list[str]:
    """The change summary shown before switching (the GUI shows the same lines)."""
    lines = []
    for kind, n_after in s.after.items():
        new, gone = s.new.get(kind, []), s.gone.get(kind, [])
        line = f"  {kind:12} {s.before[kind]:6,} -> {n_after:6,} parts"
        if new:
            line += f"; new: {_names(new, len(new) - SHOW)}"
        if gone:
            line += f"; gone: {_names(gone, len(gone) - SHOW)}"
        lines.append(line)
    if s.rule_fields:
        lines.append(f"Values the checks read changed on {len(s.rule_fields):,} parts, e.g.:")
        for r in s.rule_fields[:SHOW]:
            vals = "; ".join(f"{f} {a!r} -> {b!r}" for f, (a, b) in list(r["fields"].items())[:3])
            lines.append(f"  {r['name'][:60]} ({r['id']}): {vals[:160]} [{', '.join(r['rules'][:4])}]")
    else:
        lines.append("No value the checks read changed.")
    for c in s.stale_yours:
        now = "the part is gone" if c["gone"] else f"now {c['now']!r}"
        lines.append(f"Your correction of {c['field']} on {c['name'] or c['id']}: was {c['was']!r}, {now} (kept)")
    if s.stale_ours:
        lines.append(f"RigPlan's own corrections whose source value changed (not applied): {len(s.stale_ours)}")
    skipped = sum(s.skipped.values())
    if skipped or s.rejected:
        lines.append(f"Records left out: {skipped:,} not readable JSON, {len(s.rejected):,} refused by the model")
    lines += [f"STOP: {t}" for t in s.too_many_gone]
    return lines


def _progress(json_out: bool) -> Any:
    last = [-1]

    def progress(share: float, text: str) -> None:
        pct = int(share * 100)
        if not json_out and pct // 10 != last[0]:
            last[0] = pct // 10
            print(f"{pct:3d}%  {text}", file=sys.stderr)

    return progress


def cmd_update(ns: argparse.Namespace) -> int:
    from rigplan.opendb.store import install
    from rigplan.opendb.update import UpdateError, fetch_archive, prepare

    progress = _progress(ns.json)
    if ns.commit and not re.fullmatch(r"[0-9a-fA-F]{7,40}", ns.commit):
        raise UsageError(f"--commit {ns.commit!r}: give a commit id (7 to 40 hex digits)")
    if ns.from_file and ns.commit:
        raise UsageError("--from and --commit: give one (the file is an archive of one commit already)")
    try:
        with tempfile.TemporaryDirectory(prefix="rigplan-opendb-") as tmp:
            if ns.from_file:
                archive = Path(ns.from_file).expanduser()
                origin = str(archive.resolve())
            else:
                archive = fetch_archive(ns.commit, Path(tmp), progress)
                from rigplan.opendb.update import archive_url

                origin = archive_url(ns.commit)
            prepared = prepare(archive, progress=progress, origin=origin)
        s = prepared.summary
        about = prepared.about
        head = f"OpenDB @{(about['commit'] or 'unknown')[:7]} of {about['date'] or 'unknown date'}"
        if ns.json:
            doc: dict[str, Any] = {"archive": head, **s.as_dict(), "switched": False}
        else:
            print(f"Catalog update from {head} ({origin}):")
            print("\n".join(summary_lines(s)))
        if s.too_many_gone:
            raise UpdateError("stopped: " + "; ".join(s.too_many_gone) + "; the catalog in use is unchanged")
        if ns.dry_run or not _confirmed(ns):
            if ns.json:
                print_json(doc)
            else:
                why = "--dry-run" if ns.dry_run else "not confirmed"
                print(f"Nothing switched ({why}); the catalog in use is unchanged.")
            return 0
        folder = install(prepared)
    except UpdateError as exc:
        tail = "" if "unchanged" in str(exc) else "; the catalog in use is unchanged"
        raise UsageError(f"{exc}".rstrip(".") + tail) from exc
    if ns.json:
        print_json({**doc, "switched": True, "folder": folder})
    else:
        print(f"Switched to {head}. `rigplan catalog revert` goes back.")
    return 0


def _confirmed(ns: argparse.Namespace) -> bool:
    if ns.yes:
        return True
    if ns.json or not sys.stdin.isatty():
        print("Pass --yes to switch to it.", file=sys.stderr)
        return False
    return input("Switch to this catalog? [y/N] ").strip().lower() in ("y", "yes")


def cmd_status(ns: argparse.Namespace) -> int:
    from rigplan.opendb.store import status

    st = status()
    if ns.json:
        print_json(st)
        return 0
    which = "the shipped catalog" if st["in_use"] == "shipped" else f"an update saved {st['saved']}"
    print(f"In use: {which}: BuildCores OpenDB @{(st['commit'] or 'unknown')[:7]} of {st['date'] or 'unknown date'}")
    print(f"  from {st['origin']}; part prices {st['price_date'] or 'unknown'}")
    print("  parts: " + ", ".join(f"{k} {n:,}" for k, n in st["counts"].items()))
    print(f"  your corrections in use: {st['your_corrections']}")
    print(f"  previous: {st['previous'] or 'none'}; shipped: {st['shipped']}")
    for p in st["problems"]:
        print(f"Note: {p}")
    print(f"Folder: {st['folder']}")
    return 0


def cmd_revert(ns: argparse.Namespace) -> int:
    from rigplan.opendb.store import revert
    from rigplan.opendb.update import UpdateError

    try:
        print(revert(to_shipped=ns.shipped))
    except UpdateError as exc:
        raise UsageError(str(exc)) from exc
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("catalog", help="update the parts from BuildCores OpenDB, or go back")
    csub = p.add_subparsers(dest="catalog_command", metavar="ACTION", required=True, parser_class=type(p))
    up = csub.add_parser("update", help="download OpenDB (or read --from FILE), show what changes, switch to it")
    up.add_argument("--from", dest="from_file", metavar="FILE", help="an OpenDB archive (.tar.gz) you downloaded")
    up.add_argument("--commit", help="OpenDB commit to download (default: the newest of main)")
    up.add_argument("--dry-run", action="store_true", help="show what would change; switch nothing")
    up.add_argument("--yes", action="store_true", help="switch without asking")
    up.add_argument("--json", action="store_true")
    up.set_defaults(func=cmd_update)
    st = csub.add_parser("status", help="which catalog is in use, of which commit and date")
    st.add_argument("--json", action="store_true")
    st.set_defaults(func=cmd_status)
    rv = csub.add_parser("revert", help="back to the previous catalog (or --shipped)")
    rv.add_argument("--shipped", action="store_true", help="back to the catalog shipped with RigPlan")
    rv.set_defaults(func=cmd_revert)
