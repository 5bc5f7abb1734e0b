"""`rigplan instances list`: the cloud GPU offers, with prices, dates and flagged quirks."""

from __future__ import annotations

import argparse

from rigplan.cli.output import print_json, table


def _usd(v: float | None) -> str:
    return "-" if v is None else f"{v:,.3f}"


def cmd_list(ns: argparse.Namespace) -> int:
    from rigplan.cloud.store import offers_in_use

    catalog = offers_in_use()  # bundled, or the user's updated prices
    offers = catalog.find(provider=ns.provider, gpu=ns.gpu, region=ns.region, current_only=ns.current)
    if ns.json:
        print_json(
            {
                "count": len(offers),
                "prices": catalog.origin,
                "offers": [{**o.model_dump(mode="json"), "price_date": o.date_text} for o in offers],
            }
        )
        return 0
    if not offers:
        print("No offers match.")
        return 0
    rows = [
        [
            o.id,
            o.gpus_text,
            _usd(o.ondemand_usd_h),
            _usd(o.spot_usd_h),
            _usd(o.reserved_1y_usd_h),
            o.date_text,
            "yes" if o.quirks else "",
        ]
        for o in offers
    ]
    print(table(rows, ["Offer", "GPUs", "On-demand $/h", "Spot $/h", "1y reserved", "Price date", "Quirks"]))
    print(
        f"\n{len(offers)} offers. Prices in use: {catalog.origin} ('rigplan prices status'). Historic rows: "
        "ec2instances.info 2017, dated quotes. 'rigplan instances list --json' shows each offer's source and quirks."
    )
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("instances", help="cloud GPU offers")
    psub = p.add_subparsers(dest="instances_command", metavar="ACTION", required=True, parser_class=type(p))
    lst = psub.add_parser("list", help="list offers")
    lst.add_argument("--provider", help="aws, gcp, azure, lambda (others after 'rigplan prices update --providers')")
    lst.add_argument("--gpu", help="GPU model contains this, e.g. V100, A100, H100")
    lst.add_argument("--region", help="exact region, e.g. us-east-1")
    lst.add_argument("--current", action="store_true", help="only current prices (no 2017-2022 snapshots)")
    lst.add_argument("--json", action="store_true")
    lst.set_defaults(func=cmd_list)
