"""The text exports by format name: what `rigplan export --format md|csv|costs-csv` prints and File > Export writes,
one function for both (the CLI and the window cannot drift apart)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the window's menu imports this before numpy and pydantic are loaded
    from rigplan.exports.plan import Plan

TEXT_FORMATS = ("md", "csv", "costs-csv")


def text_export(plan: Plan, fmt: str) -> str:
    """The export of `plan` in `fmt` (one of TEXT_FORMATS) as text."""
    from rigplan.exports.markdown import to_markdown
    from rigplan.exports.tables import costs_csv, parts_csv

    return {"md": to_markdown, "csv": parts_csv, "costs-csv": costs_csv}[fmt](plan)
