"""A comparison of builds as a Markdown document (issue 29): the same figures and part rows as `rigplan compare` and
the GUI's Compare window (rigplan.exports.compare), with the date and the notes, for a wiki, an e-mail or a grant
application. The PDF (rigplan.render.compare_pdf) writes the same tables and the chart."""

from __future__ import annotations

import datetime as dt

from rigplan.exports.compare import Comparison, figure_rows
from rigplan.exports.markdown import cell
from rigplan.printable import printable
from rigplan.wording import money


def _cell(text: str) -> str:
    return cell(text)  # the Markdown export's escaping: no HTML, no link, no table break


def _table(head: list[str], rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(_cell(h) for h in head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return out


def part_table(cmp: Comparison) -> tuple[list[str], list[list[str]]]:
    """Head and rows of the parts side by side; a row whose parts differ is marked with "*"."""
    head = ["Part (* differs)", *cmp.names]
    rows = [[("* " if r.differs else "") + r.kind.label, *[c or "-" for c in r.cells]] for r in cmp.parts]
    return head, rows


def compare_markdown(cmp: Comparison, today: dt.date | None = None) -> str:
    day = (today or dt.date.today()).isoformat()
    out = [f"## Builds compared: {', '.join(cell(n) for n in cmp.names)}", ""]
    out.append(f"*Made by RigPlan on {day}. Amounts in {cmp.currency}; estimates, not quotes.*")
    out += [f"*{d}*" for d in dict.fromkeys(p.data_dates for p in cmp.plans if p.data_dates)]
    out += ["", "### Figures", ""]
    out += _table(["", *cmp.names], figure_rows(cmp))
    out += ["", "### Parts", ""]
    out += _table(*part_table(cmp))
    if cmp.notes:
        out += ["", "### Notes", ""] + [f"- {cell(n)}" for n in cmp.notes]
    out += [
        "",
        "Throughput is in V100-equivalents (the speed of one NVIDIA V100 training the same models); work per "
        f"{money(cmp.currency, 1000, 0)} is the hours of such work that much money buys over the horizon.",
    ]
    return printable("\n".join(out) + "\n")
