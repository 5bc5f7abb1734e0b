"""Where the updated prices are kept. Its own module so the GUI's first stage can look without loading pydantic."""

from __future__ import annotations

from pathlib import Path


def cache_file(user_dir: Path) -> Path:
    return user_dir / "prices" / "cloud-prices.json"
