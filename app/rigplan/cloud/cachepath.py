"""Where the updated prices are kept. Its own module so the GUI's first stage can look without loading pydantic."""

from __future__ import annotations

from pathlib import Path

from rigplan.paths import default_data_dir


def prices_home() -> Path:
    """The folder the CLI and the GUI share for updated prices, so `rigplan prices update` shows in the app and the
    app's update in the CLI (Qt's AppDataLocation is another folder, RigPlan/RigPlan on Linux). Linux honours
    XDG_DATA_HOME; tests point it at a temporary folder."""
    return default_data_dir()


def cache_file(user_dir: Path) -> Path:
    return user_dir / "prices" / "cloud-prices.json"
