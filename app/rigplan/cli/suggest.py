"""`rigplan suggest --budget 5000 --gpus 2 --min-vram 24 [--json] [-o FILE]`: the best build under a budget.

Exit 0 with an answer, 2 for bad input or impossible constraints (one line: "no priced 2-GPU build fits $1,500: the
cheapest is $1,912").
"""

from __future__ import annotations

import argparse
from typing import Any

from rigplan.cli.assumption_flags import add_assumption_flags, apply_assumption_flags
from rigplan.cli.output import print_json


def _alt(alt: Any, s_currency: str, rate: float) -> dict[str, Any]:
    f = alt.found
    return {
        "why": alt.why,
        "total": round(f.total_usd * rate, 2),
        "throughput": round(f.option.throughput, 4),
        "vram_gb": f.option.vram_gb,
        "gpus": f.option.count,
        "gpu": f.option.part.name,
        "currency": s_currency,
    }


def cmd_suggest(ns: argparse.Namespace) -> int:
    from rigplan.catalog import load_catalog
    from rigplan.cli.main import UsageError
    from rigplan.files import save, with_build_suffix
    from rigplan.files.buildfile import build_to_dict
    from rigplan.model.assumptions import Assumptions
    from rigplan.suggest import Goal, Question, SuggestError, suggest
    from rigplan.suggest.explain import money

    try:
        a = apply_assumption_flags(ns, Assumptions())
        q = Question(
            budget=ns.budget,
            currency=a.currency,  # --currency (an assumption flag) sets the budget's currency too
            goal=Goal(ns.goal),
            target=ns.target,
            gpus=ns.gpus,
            max_gpus=ns.max_gpus,
            min_vram_gb=ns.min_vram,
            min_ram_gb=ns.min_ram,
            min_storage_gb=ns.min_storage,
            case_form=ns.case,
            include=tuple(ns.include or ()),
        )
        sug = suggest(load_catalog(), a, q)
    except (SuggestError, ValueError) as exc:
        raise UsageError(str(exc)) from None
    rate = sug.total / sug.found.total_usd if sug.found.total_usd else 1.0
    if ns.output:
        ns.output = str(with_build_suffix(ns.output))  # `-o mybuild` writes mybuild.rigplan (issue 18)
        try:
            save(sug.build, ns.output)
        except OSError as exc:
            raise UsageError(f"cannot write {ns.output}: {exc.strerror or exc}") from None
    o = sug.found.option
    if ns.json:
        print_json(
            {
                "total": round(sug.total, 2),
                "currency": sug.currency,
                "throughput": round(o.throughput, 4),
                "throughput_unit": "V100-equivalents",
                "vram_gb": o.vram_gb,
                "binding": sug.binding,
                "binding_text": sug.binding_text,
                "next_steps": [
                    {"extra": extra, "buys": _alt(alt, sug.currency, rate) if alt else None}
                    for extra, alt in sug.next_steps
                ],
                "runners_up": [_alt(r, sug.currency, rate) for r in sug.runners_up],
                "notes": sug.notes,
                "seconds": round(sug.seconds, 3),
                "build": build_to_dict(sug.build),
            }
        )
        return 0
    print(
        f"Suggested: {money(sug.total, sug.currency)}, {o.throughput:.2f} V100-equivalents, {o.vram_gb:g} GB GPU memory"
    )
    for item in sug.build.items:
        price = item.part.price
        each = f"{price.amount:,.2f} {price.currency}" if price else "no price"
        print(f"  {item.quantity}x {item.part.kind.label:<12} {item.part.name}  ({each})")
    print(f"Binding: {sug.binding}: {sug.binding_text}")
    for extra, alt in sug.next_steps:
        buys = (
            f"{alt.found.option.count}x {alt.found.option.part.name}, {alt.found.option.throughput:.2f}"
            if alt
            else "nothing better"
        )
        print(f"{money(extra, sug.currency)} more buys: {buys}")
    for r in sug.runners_up:
        f = r.found
        print(
            f"Runner-up ({r.why}): {money(f.total_usd * rate, sug.currency)}, "
            f"{f.option.count}x {f.option.part.name}, {f.option.throughput:.2f}"
        )
    for note in sug.notes:
        print(f"  note: {note}")
    if ns.output:
        print(f"Written to {ns.output} (passes every check with no errors)")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("suggest", help="the best build under a budget (exact search over the priced catalog)")
    p.add_argument("--budget", type=float, help="the most to spend on parts, in --currency (default USD)")
    p.add_argument(
        "--goal",
        default="throughput",
        choices=["throughput", "vram", "cheapest-throughput", "cheapest-vram"],
        help="what to maximise, or the cheapest build reaching --target",
    )
    p.add_argument("--target", type=float, help="V100-equivalents or GB of GPU memory, for the cheapest-... goals")
    p.add_argument("--gpus", type=int, help="exactly this many GPUs (default: 1 to --max-gpus)")
    p.add_argument("--max-gpus", type=int, default=4, help="the most GPUs to consider (default 4)")
    p.add_argument("--min-vram", type=float, default=0.0, help="GB of memory per GPU, at least")
    p.add_argument("--min-ram", type=float, default=0.0, help="GB of system memory, at least (one kit)")
    p.add_argument("--min-storage", type=float, default=0.0, help="GB of storage, at least (one drive)")
    p.add_argument("--case", help="case size class as the catalog names it, e.g. 'ATX Mid Tower'")
    p.add_argument("--include", action="append", metavar="PART_ID", help="a catalog part that must be in the build")
    p.add_argument("-o", "--output", help="write the suggested build to this build file")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    add_assumption_flags(p)
    p.set_defaults(func=cmd_suggest)
