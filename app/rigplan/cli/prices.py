"""`rigplan prices update|import FILE|revert|status`: current cloud prices from gpuhunt's published catalog or a
price file, kept as a dated cache in the user's data folder; the bundled snapshot stays the offline default."""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from pathlib import Path
from typing import Any

from rigplan.cli.argtypes import number
from rigplan.cli.main import UsageError
from rigplan.cli.output import print_json


def _user_dir() -> Path:
    from rigplan.cloud.cachepath import prices_home

    return prices_home()


def _summary(ps: Any) -> dict[str, Any]:
    return {
        "saved": ps.saved.isoformat(),
        "origin": ps.origin,
        "prices_as_of": ps.as_of(),
        "providers": ps.providers,
        "offers": len(ps.offers),
    }


def _done(ns: argparse.Namespace, ps: Any) -> int:
    if ns.json:
        print_json(_summary(ps))
    else:
        items = sorted(ps.providers.items())
        per = ", ".join(f"{p} {m['offers']:,} ({m.get('date') or 'date unknown'})" for p, m in items)
        print(f"Saved {len(ps.offers):,} offers: {per}. Prices as of {ps.as_of()}.")
    return 0


def cmd_update(ns: argparse.Namespace) -> int:
    from rigplan.cloud.fetch import DEFAULT_PROVIDERS, PriceUpdateError
    from rigplan.cloud.update import update

    providers = tuple(p.strip() for p in ns.providers.split(",") if p.strip()) if ns.providers else DEFAULT_PROVIDERS
    providers = tuple("lambdalabs" if p == "lambda" else p for p in providers)
    last = [-1]

    def progress(share: float, text: str) -> None:
        pct = int(share * 100)
        if not ns.json and pct // 10 != last[0]:  # a line per tenth: a log, not a flood
            last[0] = pct // 10
            print(f"{pct:3d}%  {text}", file=sys.stderr)

    try:
        ps = update(_user_dir(), providers, ns.url, progress, timeout=ns.timeout)
    except PriceUpdateError as exc:
        raise UsageError(f"{exc} (the prices in use are unchanged)") from exc
    return _done(ns, ps)


def cmd_import(ns: argparse.Namespace) -> int:
    from rigplan.cloud.fetch import PriceUpdateError
    from rigplan.cloud.update import import_file

    try:
        day = dt.date.fromisoformat(ns.date) if ns.date else None
    except ValueError as exc:
        raise UsageError(f"--date {ns.date!r} is not a date like 2026-11-23") from exc
    try:
        ps = import_file(_user_dir(), Path(ns.file), ns.provider, day)
    except PriceUpdateError as exc:
        raise UsageError(f"{exc} (the prices in use are unchanged)") from exc
    return _done(ns, ps)


def cmd_revert(ns: argparse.Namespace) -> int:
    from rigplan.cloud.store import BUNDLED, revert

    done = revert(_user_dir())
    print(f"Using the {BUNDLED}." if done else f"Already using the {BUNDLED}.")
    return 0


def cmd_status(ns: argparse.Namespace) -> int:
    from rigplan.cloud.store import status

    st = status(_user_dir())
    if ns.json:
        print_json(st)
        return 0
    if st["in_use"] == "bundled":
        print(f"In use: {st['prices_as_of']}.")
    else:
        print(f"In use: prices updated {st['saved']} from {st['origin']}; prices as of {st['prices_as_of']}.")
        for p, m in sorted(st["providers"].items()):
            print(f"  {p:8} {m['offers']:6,} offers  {m.get('date') or 'date unknown':12} {m.get('version', '')}")
    if "problem" in st:
        print(f"Note: {st['problem']}")
    print(f"Cache: {st['cache']}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("prices", help="update, import or revert the cloud prices")
    psub = p.add_subparsers(dest="prices_command", metavar="ACTION", required=True, parser_class=type(p))
    up = psub.add_parser("update", help="fetch current prices from gpuhunt's published catalog")
    up.add_argument("--providers", help="comma-separated gpuhunt providers (default aws,azure,gcp,lambdalabs)")
    up.add_argument("--url", help="catalog base address (default: $GPUHUNT_CATALOG_URL, else gpuhunt's)")
    up.add_argument(
        "--timeout",
        type=number("--timeout", 0, 3600, above_lo=True),
        default=30.0,
        help="seconds to wait for the server (default 30)",
    )
    up.add_argument("--json", action="store_true")
    up.set_defaults(func=cmd_update)
    im = psub.add_parser("import", help="import a SkyPilot vms.csv or a gpuhunt CSV")
    im.add_argument("file")
    im.add_argument("--provider", help="aws, gcp, azure, lambda, ... (default: from the file name)")
    im.add_argument("--date", help="the day the file's prices were read, if known (YYYY-MM-DD)")
    im.add_argument("--json", action="store_true")
    im.set_defaults(func=cmd_import)
    rv = psub.add_parser("revert", help="go back to the bundled prices (the cache is kept aside)")
    rv.set_defaults(func=cmd_revert)
    st = psub.add_parser("status", help="which prices are in use, from where and of when")
    st.add_argument("--json", action="store_true")
    st.set_defaults(func=cmd_status)
