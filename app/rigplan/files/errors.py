"""The error types file handling raises. Every message is written for the user, in one line."""

from __future__ import annotations

import re


class BuildFileError(ValueError):
    def __init__(self, path: object, message: str) -> None:
        self.path = str(path)
        # One line, always: messages can quote parser text or OS errors that carry line breaks.
        self.message = re.sub(r"\s*\n\s*", " ", str(message)).strip()
        super().__init__(f"{self.path}: {self.message}")


class FileChangedError(BuildFileError):
    """The file on disk is not the one this document last opened or saved: another window or program wrote it."""


class ReadOnlyFileError(BuildFileError):
    """The target is write-protected; the caller asks the user, then saves again with replace_read_only=True."""
