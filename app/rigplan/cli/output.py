"""Shared output helpers for CLI commands."""

from __future__ import annotations

import json
import math
import sys
from typing import Any

from rigplan.printable import json_escaped


def finite_or_null(data: Any) -> Any:
    """A copy with every NaN or infinity replaced by null ("unknown"): json.dump would write NaN and Infinity,
    which are not JSON and break every strict parser (jq, JavaScript, Go)."""
    if isinstance(data, float):
        return data if math.isfinite(data) else None
    if isinstance(data, dict):
        return {k: finite_or_null(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [finite_or_null(v) for v in data]
    return data


def _stdout_is_utf8() -> bool:
    return (getattr(sys.stdout, "encoding", None) or "").lower().replace("-", "").replace("_", "") == "utf8"


def json_text(data: Any) -> str:
    """JSON for stdout. On a UTF-8 stream names stay readable; on any other (Windows cp1252 when redirected)
    non-ASCII characters are written as \\uXXXX escapes, so a JSON reader gets every name back intact."""
    # allow_nan=False: should a non-finite number ever slip past the cleaning, fail loudly rather than write it.
    # json_escaped: the C1, bidi and separator characters json.dumps leaves raw become \uNNNN (still exact JSON).
    text = json.dumps(finite_or_null(data), indent=2, ensure_ascii=not _stdout_is_utf8(), allow_nan=False)
    return json_escaped(text)


def print_json(data: Any) -> None:
    sys.stdout.write(json_text(data) + "\n")


def table(rows: list[list[str]], headers: list[str]) -> str:
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]
    line = "  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True))
    out = [line, "  ".join("-" * w for w in widths)]
    out += ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in rows]
    return "\n".join(out)
