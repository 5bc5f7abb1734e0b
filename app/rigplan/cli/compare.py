"""`rigplan compare A B [C D] [--json]`: builds side by side, the same figures as the GUI's comparison view."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from rigplan.cli.main import UsageError
from rigplan.cli.output import json_text, table

PRECISION = {"throughput_v100": 3, "work_per_money": 4}


def _num(v: float | None, nd: int = 2) -> float | None:
    return None if v is None else round(float(v), nd) + 0.0


def _elide(text: str, n: int = 44) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def comparison_json(cmp: Any) -> dict[str, Any]:
    return {
        "currency": cmp.currency,
        # issue 40: builds in another currency converted, each with its rate (units of "to" per 1 "from") and date
        "conversions": [c.as_json() for c in cmp.conversions],
        "builds": [
            {
                **{
                    k: (_num(v, PRECISION.get(k, 2)) if isinstance(v, float) else v)
                    for k, v in f.items()
                    if k != "breakeven"
                },
                "breakeven": {k: {**v, "days": _num(v["days"])} for k, v in f["breakeven"].items()},
            }
            for f in cmp.figures
        ],
        "parts": [{"kind": r.kind.value, "parts": list(r.cells), "differs": r.differs} for r in cmp.parts],
        "chart": {
            "x": "work done, reference-GPU-hours (1x V100 16 GB = 1)",
            "curves": [
                {"label": c.label, "own": c.own, "end_work": _num(c.work[-1]), "end_cost": _num(c.cost[-1])}
                for c in cmp.curves
            ],
        },
        "notes": cmp.notes + [n for p in cmp.plans for n in p.notes],
    }


def cmd_compare(ns: argparse.Namespace) -> int:
    from rigplan.cli.export import load_plan
    from rigplan.cloud.store import offers_in_use
    from rigplan.costs.fx import NoRate
    from rigplan.exports.compare import MAX_BUILDS, compare, figure_rows
    from rigplan.exports.compare_currency import one_currency
    from rigplan.exports.plan import ExportError
    from rigplan.files import load
    from rigplan.model.common import KNOWN_CURRENCIES

    if len(ns.builds) > MAX_BUILDS:
        raise UsageError(f"compare 2 to {MAX_BUILDS} builds, not {len(ns.builds)}")
    currency = ns.currency.strip().upper() if ns.currency else None
    if currency is not None and currency not in KNOWN_CURRENCIES:
        known = ", ".join(sorted(KNOWN_CURRENCIES))
        raise UsageError(f"--currency {ns.currency}: unknown currency code; known: {known}")
    offers = offers_in_use()  # one catalog for every build
    try:  # issue 40: one currency, the first build's or --currency; a build in another is converted, never relabelled
        builds, conversions = one_currency([load(path) for path in ns.builds], currency)
    except NoRate as exc:
        raise UsageError(str(exc)) from None
    plans = [load_plan(path, ns, offers, build) for path, build in zip(ns.builds, builds, strict=True)]
    try:
        cmp = compare(plans, conversions)
    except ExportError as exc:
        raise UsageError(str(exc)) from None
    if ns.json:
        sys.stdout.write(json_text(comparison_json(cmp)) + "\n")
        return 0
    if ns.out is not None:  # issue 29: the whole comparison as Markdown or a PDF report
        return _write(cmp, ns.out, list(ns.builds))
    print(f"Amounts in {cmp.currency}.")
    for c in cmp.conversions:  # the rate and its date before the figures they change
        print(f"converted: {c.text()}")
    print()
    print(table(figure_rows(cmp), [""] + [_elide(n, 30) for n in cmp.names]))
    print()
    parts = [
        [("* " if r.differs else "  ") + r.kind.label] + [_elide(c) if c else "-" for c in r.cells] for r in cmp.parts
    ]
    print(table(parts, ["Part (* differs)"] + [_elide(n, 30) for n in cmp.names]))
    said = {c.text() for c in cmp.conversions}
    for n in comparison_json(cmp)["notes"]:
        if n not in said:
            print(f"note: {n}")
    return 0


def _write(cmp: Any, out: Path, builds: list[str]) -> int:
    """Issue 29: the whole comparison as Markdown or a PDF report; written atomically, never over a build file."""
    import tempfile

    from rigplan.files.safeio import refuse_inputs, write_user_file

    suffix = out.suffix.lower()
    if suffix not in (".md", ".pdf"):
        raise UsageError(f"--out {out}: give a .md or .pdf file name")
    refuse_inputs(out, tuple(builds), "compare")
    if suffix == ".md":
        from rigplan.exports.compare_text import compare_markdown

        data = compare_markdown(cmp).encode("utf-8")
    else:
        from rigplan.render.drawn import ensure_qt_app
        from rigplan.render.syslibs import check_frozen_linux

        if problem := check_frozen_linux(x11=False):
            raise UsageError(problem)
        _app = ensure_qt_app()  # noqa: F841 - must outlive the drawing
        from rigplan.render.compare_pdf import write_compare_pdf

        with tempfile.TemporaryDirectory(prefix="rigplan-compare-") as tmp:
            drawn = Path(tmp) / "compare.pdf"
            write_compare_pdf(cmp, drawn)
            data = drawn.read_bytes() if drawn.exists() else b""
        if not data:
            raise UsageError(f"cannot write {out}: the PDF could not be drawn")
    write_user_file(out, data, inputs=tuple(builds), what="comparison")
    print(f"wrote {out}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("compare", help="compare two to four builds side by side")
    p.add_argument("builds", nargs="+", metavar="BUILD", help="two to four .rigplan build files")
    p.add_argument("--instance", action="append", metavar="TYPE", help="cloud offer to compare with; repeatable")
    p.add_argument("--region", help="region of the --instance offers")
    p.add_argument("--pricing", choices=("on-demand", "spot", "reserved-1y", "reserved-3y"), help="for --instance")
    p.add_argument(
        "--currency",
        metavar="CODE",
        help="compare in this currency (default: the first build's); builds in others are converted at the ECB "
        "reference rates (parts/fx_rates.yaml) or a rate their owner set, and the output says at which",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--out", type=Path, metavar="FILE", help="write the comparison as Markdown (.md) or a PDF (.pdf)")
    p.set_defaults(func=cmd_compare)
