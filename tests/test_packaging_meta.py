"""pyproject lists every package, so the wheel never silently drops a module."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_package_is_listed() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    found = {
        ".".join(p.parent.relative_to(ROOT / "app").parts)
        for p in (ROOT / "app" / "rigplan").rglob("__init__.py")
        if "__pycache__" not in p.parts
    }
    assert found - listed == set(), f"add these packages to pyproject.toml: {sorted(found - listed)}"
    assert {"rigplan._parts", "rigplan._resources"} <= listed
