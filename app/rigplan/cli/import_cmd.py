"""`rigplan import`: bring a PCPartPicker list or a price file in (issue 19).

    rigplan import pcpartpicker LIST.txt -o BUILD.rigplan.yaml [--pick 3=PART_ID] [--json]
    rigplan import prices FILE.csv --build B.rigplan.yaml -o OUT.rigplan.yaml   (the build's own prices)
    rigplan import prices FILE.csv --catalog                                     (your price layer)
    rigplan import prices --list | --remove ID... | --remove-all

Uncertain matches of a list are not confirmed headless: they stay custom parts with the list's name and price, and
are listed with their candidates so `--pick LINE=ID` can confirm one. Exit 0, or 2 with one line for bad input.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from rigplan.cli.main import UsageError
from rigplan.cli.output import print_json, table

MAX_INPUT = 5_000_000


def register(sub: Any) -> None:
    p = sub.add_parser("import", help="import a PCPartPicker list or a price file")
    isub = p.add_subparsers(dest="what", metavar="WHAT", parser_class=type(p))
    pc = isub.add_parser("pcpartpicker", help="a PCPartPicker list exported as Text or Markup -> a build file")
    pc.add_argument("file", help="the saved export ('-' reads standard input)")
    pc.add_argument("-o", "--output", required=True, help="the build file to write")
    pc.add_argument("--name", help="the build's name (default: 'PCPartPicker list DATE')")
    pc.add_argument(
        "--pick",
        action="append",
        default=[],
        metavar="LINE=ID",
        help="confirm an uncertain line with a catalog part id (LINE as listed; ID=custom keeps it custom)",
    )
    pc.add_argument("--json", action="store_true", help="JSON output")
    pc.set_defaults(func=run_pcpartpicker)
    pr = isub.add_parser("prices", help="a CSV of 'name or id, price, currency, date, source'")
    pr.add_argument("file", nargs="?", help="the CSV file ('-' reads standard input)")
    pr.add_argument("--build", help="update this build's own prices (write the result with -o)")
    pr.add_argument("-o", "--output", help="where to write the updated build")
    pr.add_argument("--catalog", action="store_true", help="add to your own price layer for catalog parts")
    pr.add_argument("--list", action="store_true", help="list your own prices")
    pr.add_argument("--remove", nargs="+", metavar="ID", help="remove your own price for these part ids")
    pr.add_argument("--remove-all", action="store_true", help="remove all your own prices")
    pr.add_argument("--json", action="store_true", help="JSON output")
    pr.set_defaults(func=run_prices)
    p.set_defaults(func=lambda ns: (_ for _ in ()).throw(UsageError("import what? 'pcpartpicker' or 'prices'")))


def _read(name: str, what: str) -> str:
    """Standard input, or a regular file through the one safe reader (a FIFO is refused, never waited on)."""
    from rigplan.files.safeio import read_user_text

    if name == "-":
        text = sys.stdin.read(MAX_INPUT + 1)
        if len(text) > MAX_INPUT:
            raise UsageError(f"standard input: over {MAX_INPUT:,} characters; not a {what}")
        return text.removeprefix("\ufeff")
    return read_user_text(name, MAX_INPUT, what=what)


def _picks(items: list[str]) -> dict[int, str | None]:
    out: dict[int, str | None] = {}
    for item in items:
        line, sep, pid = item.partition("=")
        if not sep or not line.strip().isdigit() or not pid.strip():
            raise UsageError(f"--pick {item!r}: expected LINE=PART_ID, e.g. --pick 3=4fb54223-...")
        out[int(line) - 1] = None if pid.strip() == "custom" else pid.strip()
    return out


def _money(amount: float | None, currency: str | None) -> str:
    return f"{amount:,.2f} {currency}" if amount is not None and currency else "no price"


def run_pcpartpicker(ns: argparse.Namespace) -> int:
    from rigplan.catalog import load_catalog
    from rigplan.files import save
    from rigplan.imports.list_import import apply_picks, match_list, to_build
    from rigplan.imports.pcpartpicker import ListFormatError

    text = _read(ns.file, "part list")
    catalog = load_catalog()
    try:
        result = match_list(text, catalog)
        apply_picks(result, _picks(ns.pick), catalog)
    except (ListFormatError, ValueError) as exc:
        raise UsageError(f"{ns.file}: {exc}") from None
    build = to_build(result, catalog, ns.name)
    for problem in result.parts.problems:
        print(f"rigplan: {ns.file}: {problem}", file=sys.stderr)
    save(build, ns.output, inputs=(ns.file,))
    rows: list[dict[str, Any]] = []
    for n, ln in enumerate(result.lines, start=1):
        best = ln.match.best if ln.match else None
        chosen = catalog.get(ln.choice) if ln.choice else None
        rows.append(
            {
                "line": n,
                "type": ln.line.type_label,
                "listing": ln.line.name,
                "price": ln.line.amount,
                "currency": ln.line.currency,
                "status": "confirmed" if ln.status == "uncertain" and ln.choice else ln.status,
                "part_id": ln.choice,
                "part": chosen.name if chosen else None,
                "score": best.score if best else None,
                "candidates": [
                    {"part_id": c.part_id, "name": c.name, "score": c.score}
                    for c in (ln.match.candidates if ln.match and ln.status == "uncertain" and not ln.choice else ())
                ],
            }
        )
    if ns.json:
        print_json(
            {
                "output": str(ns.output),
                "list_url": result.parts.url,
                "list_date": result.parts.date.isoformat() if result.parts.date else None,
                "list_total": result.parts.total,
                "imported_total": result.imported_total,  # issue 29: Other items count, so this equals list_total
                "currency": result.parts.currency,
                "lines": rows,
            }
        )
        return 0
    extra = f" and {len(build.other)} Other item{'s' if len(build.other) != 1 else ''}" if build.other else ""
    print(f"Wrote {ns.output}: {len(build.items)} parts{extra} from {len(result.lines)} list lines.")
    if result.imported_total is not None:
        said = f" (the list says {result.parts.total:,.2f})" if result.parts.total is not None else ""
        print(f"Imported total: {result.imported_total:,.2f} {result.parts.currency}{said}.")
    show = [
        [str(r["line"]), r["type"], r["status"], _money(r["price"], r["currency"]), r["part"] or r["listing"]]
        for r in rows
    ]
    print(table(show, ["Line", "Type", "Match", "List price", "Part"]))
    open_rows = [r for r in rows if r["candidates"]]
    if open_rows:
        print("\nUncertain matches, kept as custom parts until confirmed with --pick LINE=ID:")
        for r in open_rows:
            print(f"  line {r['line']}: {r['listing']}")
            for c in r["candidates"]:
                print(f"    {c['score']:.2f}  {c['part_id']}  {c['name']}")
    return 0


def run_prices(ns: argparse.Namespace) -> int:
    from rigplan.imports.user_prices import UserPricesError, load_user_prices, remove_user_prices

    try:
        if ns.list:
            prices = load_user_prices()
            if ns.json:
                print_json({pid: p.model_dump(mode="json") for pid, p in prices.items()})
            else:
                for pid, p in sorted(prices.items()):
                    print(f"{pid}  {p.describe()}")
                if not prices:
                    print("No prices of your own yet.")
            return 0
        if ns.remove or ns.remove_all:
            gone = remove_user_prices(None if ns.remove_all else ns.remove)
            print(f"Removed {len(gone)} of your prices.")
            return 0
    except UserPricesError as exc:
        raise UsageError(str(exc)) from None
    if not ns.file:
        raise UsageError("import prices: give a CSV file, or --list / --remove ID / --remove-all")
    if bool(ns.build) == bool(ns.catalog):
        raise UsageError("import prices: say where the prices go, --build B -o OUT or --catalog")
    return _prices_into_build(ns) if ns.build else _prices_into_catalog(ns)


def _parse(ns: argparse.Namespace) -> Any:
    from rigplan.imports.price_file import PriceFileError, parse_price_file

    try:
        pf = parse_price_file(_read(ns.file, "price file"), default_source=f"price file {Path(ns.file).name}")
    except PriceFileError as exc:
        raise UsageError(f"{ns.file}: {exc}") from None
    for problem in pf.problems:
        print(f"rigplan: {ns.file}: {problem} (row skipped)", file=sys.stderr)
    return pf


def _prices_into_build(ns: argparse.Namespace) -> int:
    from rigplan.files import load_tracked
    from rigplan.files.tracked import save_after_read
    from rigplan.imports.price_file import apply_to_build

    if not ns.output:
        raise UsageError("import prices --build: give -o OUT for the updated build")
    pf = _parse(ns)
    read, fingerprint = load_tracked(ns.build)
    build, updated, unused = apply_to_build(pf, read)
    save_after_read(build, ns.output, (ns.build, fingerprint), inputs=(ns.file,))  # -o BUILD: only over what was read
    if ns.json:
        print_json({"output": ns.output, "updated": updated, "unused": unused, "skipped": pf.problems})
        return 0
    print(f"Wrote {ns.output}: {len(updated)} price{'s' if len(updated) != 1 else ''} set.")
    for u in unused:
        print(f"  not used: {u}")
    return 0


def _prices_into_catalog(ns: argparse.Namespace) -> int:
    from rigplan.catalog import load_catalog
    from rigplan.imports.price_file import resolve_catalog
    from rigplan.imports.user_prices import UserPricesError, add_user_prices

    pf = _parse(ns)
    resolved = resolve_catalog(pf, load_catalog())
    try:
        total = add_user_prices(resolved.prices) if resolved.prices else {}
    except UserPricesError as exc:
        raise UsageError(str(exc)) from None
    if ns.json:
        print_json(
            {
                "added": {pid: p.model_dump(mode="json") for pid, p in resolved.prices.items()},
                "unmatched": resolved.unmatched,
                "skipped": pf.problems,
                "your_prices": len(total),
            }
        )
        return 0
    print(f"Added {len(resolved.prices)} of your prices ({len(total)} in all); remove with --remove ID.")
    for u in resolved.unmatched:
        print(f"  not matched: {u}")
    return 0
