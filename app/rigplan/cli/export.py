"""`rigplan export BUILD --format md|csv|costs-csv|pdf|png|svg [-o OUT]`: the same content as File > Export.

Text formats go to stdout without -o; PDF and images need a file (they are drawn by Qt, imported only for them).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

from rigplan.cli.main import UsageError
from rigplan.exports.text import TEXT_FORMATS, text_export

QT_FORMATS = ("pdf", "png", "svg")
CHARTS = ("breakeven", "breakdown", "sensitivity")


def chosen_offers(ns: argparse.Namespace, pricing: Any, catalog: Any) -> list[tuple[str, Any]] | None:
    """--instance TYPE|ID (repeatable) as (offer id, pricing); None: the build's own chart offers."""
    if not ns.instance:
        if ns.pricing or ns.region:
            raise UsageError("--pricing and --region choose the --instance offers: give --instance too")
        return None
    from rigplan.cli.cost import _pick_offer
    from rigplan.model.assumptions import Pricing

    if catalog.problem and not len(catalog):  # no offers at all (a broken install): say why, as `rigplan cost` does
        raise UsageError(catalog.problem)
    p = Pricing(ns.pricing) if ns.pricing else pricing
    return [(_pick_offer(catalog, name, ns.region, p, None).id, p) for name in ns.instance]


def load_plan(path: str, ns: argparse.Namespace, catalog: Any = None, build: Any = None) -> Any:
    """The plan of one build file, priced with the offers in use (bundled, or the user's updated prices); `build`:
    the file's build already loaded (and, for `compare`, converted to the comparison's currency)."""
    from rigplan.cloud.store import offers_in_use
    from rigplan.exports.plan import ExportError, make_plan
    from rigplan.files import load
    from rigplan.workload.describe import plan_lines

    catalog = offers_in_use() if catalog is None else catalog
    build = load(path) if build is None else build
    try:
        plan = make_plan(build, chosen_offers(ns, build.assumptions.pricing, catalog), catalog=catalog)
    except ExportError as exc:
        raise UsageError(str(exc)) from None
    offers = [(c.offer, c.pricing) for c in plan.offers]  # named as the rest of the export names them (issue 29)
    plan.workload_lines = plan_lines(build, offers, list(plan.offer_names().values()))  # issue 28
    return plan


def _write_drawn(plan: Any, fmt: str, out: Path, ns: argparse.Namespace) -> bytes:
    """PDF and images are drawn by Qt: the CLI hands them to rigplan.render (the core stays free of Qt). They are
    drawn into a private temporary folder and returned as bytes, so the target is written only by write_user_file
    (atomic, fsynced: a full disk fails with one line and leaves the old file whole)."""
    from rigplan.render.syslibs import check_frozen_linux

    if problem := check_frozen_linux(x11=False):  # the portable tarball without libGL (issue 18)
        raise UsageError(problem)
    from rigplan.render.drawn import write_drawn

    with tempfile.TemporaryDirectory(prefix="rigplan-export-") as tmp:
        drawn = Path(tmp) / f"export.{fmt}"
        write_drawn(plan, fmt, drawn, chart=ns.chart, width=ns.width, height=ns.height, dpi=ns.dpi)
        try:
            data = drawn.read_bytes()
        except OSError:
            data = b""
    if not data:
        raise UsageError(f"cannot write {out}: the {fmt.upper()} could not be drawn (is the temporary folder full?)")
    return data


def cmd_export(ns: argparse.Namespace) -> int:
    from rigplan.files.safeio import refuse_inputs, write_user_file

    if ns.output is not None:
        refuse_inputs(ns.output, (ns.build,), "export")  # before any work: `-o BUILD` used to replace the build
    plan = load_plan(ns.build, ns)
    if ns.format in TEXT_FORMATS:
        text = text_export(plan, ns.format)
        if ns.output is None:
            sys.stdout.write(text)
            return 0
        data = text.encode("utf-8")
    elif ns.output is None:
        raise UsageError(f"--format {ns.format} writes a file: give -o OUT.{ns.format}")
    else:
        data = _write_drawn(plan, ns.format, Path(ns.output), ns)
    result = write_user_file(ns.output, data, inputs=(ns.build,), what="export")
    if result.backup_error:
        print(f"rigplan: wrote {ns.output}, but {result.backup_error}", file=sys.stderr)
    return 0


def _size(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a whole number of pixels or dots per inch, not {text!r}") from None
    if not 16 <= v <= 10000:
        raise argparse.ArgumentTypeError(f"between 16 and 10000, not {v}")
    return v


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "export",
        help="share a build: Markdown parts list, CSV, PDF report, chart images",
        description="Export a build (docs/exports.md). Text formats print to stdout without -o.",
    )
    p.add_argument("build", help="a .rigplan build file")
    p.add_argument("--format", "-f", required=True, choices=TEXT_FORMATS + QT_FORMATS)
    p.add_argument("--output", "-o", help="file to write (required for pdf, png and svg)")
    p.add_argument(
        "--instance",
        action="append",
        metavar="TYPE",
        help="cloud offer on the chart (instance type or offer id); repeatable. Default: the build's chart offers",
    )
    p.add_argument("--region", help="region of the --instance offers (default: us-east-1 when offered)")
    p.add_argument("--pricing", choices=("on-demand", "spot", "reserved-1y", "reserved-3y"), help="for --instance")
    p.add_argument("--chart", choices=CHARTS, default="breakeven", help="which chart, for png and svg")
    p.add_argument("--width", type=_size, default=1200, help="image width in pixels (png, svg)")
    p.add_argument("--height", type=_size, default=700, help="image height in pixels (png, svg)")
    p.add_argument("--dpi", type=_size, default=96, help="dots per inch of the PNG (96: screen; 300: print)")
    p.set_defaults(func=cmd_export)
