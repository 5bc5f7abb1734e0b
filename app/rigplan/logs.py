"""A rotating log file in the app's data folder, for tracebacks the user should never see on screen."""

from __future__ import annotations

import logging
import logging.handlers
import os
from pathlib import Path
from typing import Any

from rigplan.paths import own_folder, private_temp_folder

LOG_NAME = "rigplan.log"


def fallback_folder(name: str) -> Path:
    """A private folder in the system's temporary folder, for when the data folder cannot be used (it is a file,
    read-only, on a full disk, or another user's): the log and the autosaves still have somewhere to go. Made by
    tempfile.mkdtemp (issue 35: the predictable `$TMPDIR/rigplan-<uid>` could be made first by another user)."""
    return private_temp_folder(name)


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


class _NoFollowHandler(logging.handlers.RotatingFileHandler):
    """Never writes through a symbolic link: a log file replaced by a link to another file is refused (ELOOP), so
    log lines cannot be appended to a file of the attacker's choosing. Created private (600)."""

    def _open(self) -> Any:
        fd = os.open(self.baseFilename, os.O_WRONLY | os.O_APPEND | os.O_CREAT | _NOFOLLOW, 0o600)
        return os.fdopen(fd, "a", encoding=self.encoding or "utf-8", errors=self.errors)


def setup_logging(folder: Path) -> Path:
    """Log to <folder>/rigplan.log (1 MB x 3 files); when that folder cannot be written, to a fallback folder in
    the temporary folder (never an exception: the log is set up before anything else). Returns the log's path."""
    root = logging.getLogger("rigplan")
    for h in root.handlers:
        if isinstance(h, logging.handlers.RotatingFileHandler):
            return Path(h.baseFilename)
    for where in (folder, None):
        try:
            where = own_folder(where) if where is not None else fallback_folder("logs")
            path = where / LOG_NAME
            handler = _NoFollowHandler(path, maxBytes=1_000_000, backupCount=3, encoding="utf-8")
        except OSError:  # a file, read-only, full, another user's folder, a log that is a symbolic link
            continue
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        root.addHandler(handler)
        root.setLevel(logging.INFO)
        return path
    root.addHandler(logging.StreamHandler())  # nowhere to write: stderr, still never a crash
    root.setLevel(logging.INFO)
    return Path(os.devnull)
