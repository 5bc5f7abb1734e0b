"""One CLI flag per cost assumption, generated from the Assumptions model so the two cannot drift apart.

Flag name = the field name with dashes (plus the short names older versions documented); help = the field's
description (its default and source); type and limits = the field's annotation, checked by the model itself.
"""

from __future__ import annotations

import argparse
import math
import types
import typing
from enum import Enum
from typing import Any

from pydantic import ValidationError

from rigplan.model.assumptions import Assumptions

# Short names earlier versions documented; kept so scripts and docs keep working.
ALIASES: dict[str, tuple[str, ...]] = {
    "electricity_per_kwh": ("--electricity",),
    "idle_hours_per_day": ("--idle-hours",),
    "horizon_years": ("--horizon",),
    "resale_fraction": ("--resale",),
    "fx_rate": ("--rate",),
}
AUTO = "auto"  # an optional assumption back to its computed default


def flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def _number(name: str):  # noqa: ANN202 - argparse type factory
    def parse(text: str) -> float | str:
        if text.strip().lower() == AUTO:
            return AUTO
        try:
            v = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{flag(name)} must be a number, not {text!r}") from None
        if not math.isfinite(v):
            raise argparse.ArgumentTypeError(f"{flag(name)} must be a finite number, not {text}")
        return v

    return parse


def _curve(text: str) -> tuple[float, ...] | str:
    if text.strip().lower() == AUTO:
        return AUTO
    try:
        values = tuple(float(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--resale-curve takes 4 numbers like 0.65,0.52,0.42,0.28, not {text!r}"
        ) from None
    if len(values) != 4 or not all(math.isfinite(v) for v in values):
        raise argparse.ArgumentTypeError("--resale-curve takes 4 finite numbers: retained shares at 1, 2, 3, 5 years")
    return values


def _base_type(annotation: Any) -> Any:
    """float, str, an Enum or tuple, with Optional and Annotated peeled off."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _base_type(typing.get_args(annotation)[0])
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        return _base_type(args[0])
    return origin or annotation


def add_assumption_flags(p: argparse.ArgumentParser) -> None:
    group = p.add_argument_group(
        "assumptions (each overrides the build file's value; 'auto' puts an optional one back to its default)"
    )
    for name, field in Assumptions.model_fields.items():
        base = _base_type(field.annotation)
        kw: dict[str, Any] = {
            "dest": f"a_{name}",
            "help": (field.description or "").replace("%", "%%"),
            "default": None,
        }
        if isinstance(base, type) and issubclass(base, Enum):
            kw["choices"] = [e.value for e in base]
        elif base is tuple:
            kw.update(type=_curve, metavar="Y1,Y2,Y3,Y5")
        elif base is str:
            kw["metavar"] = "CODE"
        else:
            kw.update(type=_number(name), metavar="X")
        group.add_argument(flag(name), *ALIASES.get(name, ()), **kw)


def apply_assumption_flags(ns: argparse.Namespace, base: Assumptions) -> Assumptions:
    """The build's assumptions with the flags given; a value the model refuses is one line naming the flag."""
    upd: dict[str, Any] = {}
    for name in Assumptions.model_fields:
        v = getattr(ns, f"a_{name}", None)
        if v is not None:
            upd[name] = None if v == AUTO else v
    if "hours_per_day" in upd and "idle_hours_per_day" not in upd:
        # The default idle hours give way to the hours asked for (8 h at load + 4 idle; 24 at load -> 0 idle).
        upd["idle_hours_per_day"] = min(base.idle_hours_per_day, max(0.0, 24 - float(upd["hours_per_day"] or 0)))
    if "currency" in upd and "fx_rate" not in upd:
        upd["fx_rate"] = None  # a new currency takes its reference rate, not the old currency's
    if "currency" in upd and "electricity_per_kwh" not in upd and upd["currency"] != base.currency:
        upd["electricity_per_kwh"] = None  # and its own dated electricity price, never the old figure relabelled
    try:
        return Assumptions.model_validate({**base.model_dump(), **upd})
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = [str(x) for x in err["loc"] if isinstance(x, str)]
        where = flag(loc[0]) if loc else "assumptions"
        raise ValueError(f"{where}: {err['msg'].removeprefix('Value error, ')}") from None
