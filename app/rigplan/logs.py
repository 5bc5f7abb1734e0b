"""A rotating log file in the app's data folder, for tracebacks the user should never see on screen."""

from __future__ import annotations

import logging
import logging.handlers
from pathlib import Path

LOG_NAME = "rigplan.log"


def setup_logging(folder: Path) -> Path:
    """Log to <folder>/rigplan.log (1 MB x 3 files). Returns the log's path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / LOG_NAME
    root = logging.getLogger("rigplan")
    if not any(isinstance(h, logging.handlers.RotatingFileHandler) for h in root.handlers):
        handler = logging.handlers.RotatingFileHandler(path, maxBytes=1_000_000, backupCount=3, encoding="utf-8")
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        root.addHandler(handler)
        root.setLevel(logging.INFO)
    return path
