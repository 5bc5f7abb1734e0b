"""The file behind an open document, without Qt: its path and the fingerprint of what this document last read or
wrote there. Saving compares that fingerprint with the disk first, so a second window (or any other program) that
wrote the file since is never silently overwritten: the caller gets FileChangedError and asks the user whether to
overwrite, save elsewhere, or reload.
"""

from __future__ import annotations

import os
from pathlib import Path

from rigplan.files.buildfile import MAX_BYTES, load_tracked, save
from rigplan.files.errors import BuildFileError
from rigplan.files.safeio import Fingerprint, SaveResult, disk_fingerprint, same_file
from rigplan.model.build import Build


class TrackedFile:
    def __init__(self, path: Path | None = None, fingerprint: Fingerprint | None = None) -> None:
        self.path = path
        self.fingerprint = fingerprint

    def open(self, path: Path) -> Build:
        build, fingerprint = load_tracked(path)
        self.path, self.fingerprint = Path(path), fingerprint
        return build

    def reload(self) -> Build:
        if self.path is None:
            raise ValueError("nothing to reload: the build has no file yet")
        return self.open(self.path)

    def forget(self, path: Path | None = None, fingerprint: Fingerprint | None = None) -> None:
        """A new document (no file), or a recovered one whose file was at `fingerprint` when it was autosaved."""
        self.path, self.fingerprint = path, fingerprint

    def save(self, build: Build, *, overwrite: bool = False, replace_read_only: bool = False) -> SaveResult:
        """Save to the current file. Raises FileChangedError when the disk holds something this document did not
        read or write, unless `overwrite` (the user chose to)."""
        if self.path is None:
            raise ValueError("no file yet: use save_as")
        expected = None if overwrite else self.fingerprint
        result = save(build, self.path, expected=expected, replace_read_only=replace_read_only)
        self.fingerprint = result.fingerprint
        return result

    def save_as(self, build: Build, path: Path, *, replace_read_only: bool = False) -> SaveResult:
        """Save under a new name (the file dialog already asked before replacing an existing file)."""
        result = save(build, path, replace_read_only=replace_read_only)
        self.path, self.fingerprint = Path(path), result.fingerprint
        return result

    def disk_fingerprint(self) -> Fingerprint | None:
        """What the file holds now (None: no file). Raises BuildFileError when it is no longer a regular file."""
        return None if self.path is None else disk_fingerprint(self.path, MAX_BYTES)

    def changed_on_disk(self) -> bool:
        """True when the file now holds something other than what this document last read or wrote (including:
        it was deleted, or replaced by something that is not a regular file)."""
        if self.path is None or self.fingerprint is None:
            return False
        try:
            now = self.disk_fingerprint()
        except BuildFileError:
            return True
        return not self.fingerprint.same_content(now)


def save_after_read(
    build: Build,
    path: Path | str,
    read: tuple[Path | str, Fingerprint],
    *,
    inputs: tuple[Path | str | None, ...] = (),
) -> SaveResult:
    """The one save for a command that read a build and writes one (`workload B --save`, `import prices --build B
    -o OUT`): when the output is the very file it read, it is written only if it still holds what was read
    (FileChangedError, "changed since read", otherwise), as the GUI's save does. A new or other output is written
    as a save-as."""
    read_path, fingerprint = read
    expected = fingerprint if os.path.lexists(path) and same_file(path, read_path) else None
    return save(build, path, expected=expected, inputs=inputs)
