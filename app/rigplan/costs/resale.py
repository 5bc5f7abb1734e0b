"""Resale value at the horizon: a depreciation curve by age (parts/resale.yaml), or the user's own share."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
import yaml

from rigplan.model.assumptions import Assumptions
from rigplan.paths import parts_dir

AGES = (1.0, 2.0, 3.0, 5.0)
FLOOR = 0.10


@cache
def default_curve(path: Path | None = None) -> tuple[tuple[float, float, float, float], str]:
    doc = yaml.safe_load((path or parts_dir() / "resale.yaml").read_text("utf-8"))
    c = doc["curve"]
    return (float(c[1]), float(c[2]), float(c[3]), float(c[5])), str(doc["basis"]).split(".")[0]


def retained(curve: tuple[float, ...], years: float) -> float:
    """Share kept after `years`: linear between (0, 1) and the curve's points; past 5 years the 3-to-5-year slope
    continues, never below FLOOR (or the curve's last point, if that is lower)."""
    xs, ys = (0.0, *AGES), (1.0, *curve)
    if years <= AGES[-1]:
        return float(np.interp(years, xs, ys))
    slope = (curve[3] - curve[2]) / (AGES[3] - AGES[2])
    return max(min(FLOOR, curve[3]), curve[3] + slope * (years - AGES[-1]))


def resale_share(a: Assumptions) -> tuple[float, str]:
    """(share of the parts cost recovered at the horizon, where it comes from)."""
    if a.resale_fraction is not None:
        return a.resale_fraction, "set by the user"
    if a.resale_curve is not None:
        return retained(a.resale_curve, a.horizon_years), "your depreciation curve at the horizon"
    curve, basis = default_curve()
    return retained(curve, a.horizon_years), f"RigPlan's depreciation curve at {a.horizon_years:g} years ({basis})"
