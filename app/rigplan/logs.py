"""A rotating log file in the app's data folder, for tracebacks the user should never see on screen."""

from __future__ import annotations

import logging
import logging.handlers
import os
import tempfile
from pathlib import Path

LOG_NAME = "rigplan.log"


def fallback_folder(name: str) -> Path:
    """A private folder in the system's temporary folder, for when the data folder cannot be used (it is a file,
    read-only, on a full disk): the log and the autosaves still have somewhere to go."""
    uid = getattr(os, "getuid", lambda: os.getpid())()
    return Path(tempfile.gettempdir()) / f"rigplan-{uid}" / name


def setup_logging(folder: Path) -> Path:
    """Log to <folder>/rigplan.log (1 MB x 3 files); when that folder cannot be written, to a fallback folder in
    the temporary folder (never an exception: the log is set up before anything else). Returns the log's path."""
    root = logging.getLogger("rigplan")
    for h in root.handlers:
        if isinstance(h, logging.handlers.RotatingFileHandler):
            return Path(h.baseFilename)
    for where in (folder, fallback_folder("logs")):
        path = where / LOG_NAME
        try:
            where.mkdir(parents=True, exist_ok=True)
            handler = logging.handlers.RotatingFileHandler(path, maxBytes=1_000_000, backupCount=3, encoding="utf-8")
        except OSError:
            continue
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        root.addHandler(handler)
        root.setLevel(logging.INFO)
        return path
    root.addHandler(logging.StreamHandler())  # nowhere to write: stderr, still never a crash
    root.setLevel(logging.INFO)
    return Path(os.devnull)
