"""pydantic's ValidationError as one line for a user: the first field and what it must be (its limit), never the
multi-line report."""

from __future__ import annotations

from pydantic import ValidationError


def one_line_validation(exc: ValidationError) -> str:
    """'items.0.part.price.amount: Input should be less than or equal to 1000000000 (and 2 more)'."""
    errors = exc.errors()
    if not errors:
        return f"{exc.title}: not valid"
    first = errors[0]
    loc = ".".join(str(x) for x in first["loc"] if not str(x).startswith("function-")) or exc.title
    msg = " ".join(str(first["msg"]).removeprefix("Value error, ").split())
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"{loc}: {msg}{more}"
