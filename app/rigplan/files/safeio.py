"""Reading and writing build files on disk without losing data and without blocking. No Qt, no YAML.

Reading: only regular files. The type is checked with os.stat before opening, and the file is opened with
O_NONBLOCK and checked again with fstat, so a named pipe (FIFO) or a device swapped in between never blocks.

Writing (QSaveFile's recipe, plus a backup): a temporary file in the same folder, fsync, then os.replace, so the
target is always one complete version. The previous version becomes `<name>.bak` by a hard link to the old file
(no data copied, so it needs no free space and keeps the original's permissions); where hard links are not
supported it is copied. If the backup cannot be written the save still happens, the previous `.bak` stays as it
was, and the result says so: the caller must tell the user.

Each read and write returns a Fingerprint (size, modification time, SHA-256) so a document can tell whether
another window or program has written its file since (FileChangedError instead of silently overwriting).
"""

from __future__ import annotations

import errno
import hashlib
import os
import secrets
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

from rigplan.files.errors import BuildFileError, FileChangedError, ReadOnlyFileError

_NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # POSIX; Windows has no FIFOs to block on
_BINARY = getattr(os, "O_BINARY", 0)  # Windows


@dataclass(frozen=True)
class Fingerprint:
    """What a file held when it was read or written. Two fingerprints name the same version when size and
    content hash agree (a `touch` changes only the time, and is not a change)."""

    size: int
    mtime_ns: int
    sha256: str

    def same_content(self, other: Fingerprint | None) -> bool:
        return other is not None and (self.size, self.sha256) == (other.size, other.sha256)


@dataclass(frozen=True)
class SaveResult:
    path: Path  # the file written (a symlink's target)
    fingerprint: Fingerprint
    backup_error: str | None = None  # None: the previous version is in <name>.bak (or there was none)


def _fingerprint(data: bytes, mtime_ns: int) -> Fingerprint:
    return Fingerprint(len(data), mtime_ns, hashlib.sha256(data).hexdigest())


def _why(exc: OSError) -> str:
    if exc.errno == errno.ELOOP:
        return "its symbolic links form a loop"
    return exc.strerror or str(exc)


def _not_regular(mode: int) -> str | None:
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "this is a folder, not a build file"
    kind = (
        "a named pipe (FIFO)"
        if stat.S_ISFIFO(mode)
        else "a socket"
        if stat.S_ISSOCK(mode)
        else "a device"
        if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
        else "a special file"
    )
    return f"this is {kind}, not a regular file; RigPlan reads and writes only regular files"


def read_regular(path: Path, limit: int) -> tuple[bytes, Fingerprint]:
    """The bytes of a regular file of at most `limit` bytes, and their fingerprint."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise BuildFileError(path, "no such file") from None
    except OSError as exc:
        raise BuildFileError(path, f"cannot read it ({_why(exc)})") from None
    if (problem := _not_regular(st.st_mode)) is not None:
        raise BuildFileError(path, problem)
    if st.st_size > limit:
        size = f"{st.st_size / 1e6:.1f} MB"
        raise BuildFileError(path, f"the file is {size}; build files are limited to {limit // 2**20} MB")
    try:
        fd = os.open(path, os.O_RDONLY | _NONBLOCK | _BINARY)
    except OSError as exc:
        raise BuildFileError(path, f"cannot read it ({_why(exc)})") from None
    try:
        st = os.fstat(fd)  # the file actually opened, in case the path changed since the stat above
        if (problem := _not_regular(st.st_mode)) is not None:
            raise BuildFileError(path, problem)
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = fh.read(limit + 1)
    except OSError as exc:
        raise BuildFileError(path, f"cannot read it ({_why(exc)})") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise BuildFileError(path, f"the file is over the {limit // 2**20} MB limit")
    return data, _fingerprint(data, st.st_mtime_ns)


def disk_fingerprint(path: Path, limit: int) -> Fingerprint | None:
    """The fingerprint of what is on disk now; None when there is no file. Raises for a special file."""
    try:
        return read_regular(path, limit)[1]
    except BuildFileError:
        if not os.path.lexists(path):
            return None
        raise


def _is_read_only(path: Path, mode: int) -> bool:
    # os.access alone says yes to root for any file; the mode bits show what the owner meant.
    return not (mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH)) or not os.access(path, os.W_OK)


def write_atomic(
    path: Path,
    data: bytes,
    *,
    keep_backup: bool = True,
    expected: Fingerprint | None = None,
    replace_read_only: bool = False,
    limit: int,
) -> SaveResult:
    """Write `data` to `path` atomically. With `expected`, refuse (FileChangedError) when the file on disk holds
    something else. A write-protected file raises ReadOnlyFileError unless `replace_read_only`."""
    path = Path(path)
    try:
        st: os.stat_result | None = os.stat(path)  # follows symlinks: what would actually be replaced
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise BuildFileError(path, f"cannot save there ({_why(exc)})") from None
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    if st is not None:
        if (problem := _not_regular(st.st_mode)) is not None:
            raise BuildFileError(path, problem)
        if not replace_read_only and _is_read_only(target, st.st_mode):
            raise ReadOnlyFileError(path, "the file is write-protected")
        if expected is not None:
            now = disk_fingerprint(target, limit)
            if now is not None and not expected.same_content(now):
                raise FileChangedError(path, "the file was changed by another window or program since it was opened")
    folder = target.parent
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise BuildFileError(path, f"cannot write here ({_why(exc)})") from None
    backup_error = None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        mode = stat.S_IMODE(st.st_mode) if st is not None else _default_mode()
        os.chmod(tmp, mode)
        if st is not None and keep_backup:
            backup_error = _rotate_backup(target, mode)
        if st is not None and os.name == "nt" and not mode & stat.S_IWUSR:
            os.chmod(target, stat.S_IWRITE)  # Windows refuses to replace a read-only file; the user agreed
        os.replace(tmp, target)
        _fsync_dir(folder)
        mtime = os.stat(target).st_mtime_ns
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise BuildFileError(path, f"could not save ({_why(exc)}); the previous file is unchanged") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return SaveResult(target, _fingerprint(data, mtime), backup_error)


def _default_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def _rotate_backup(target: Path, mode: int) -> str | None:
    """Make `<target>.bak` the current file. None on success, else why not (the previous .bak is untouched)."""
    backup = target.with_name(target.name + ".bak")
    tmp = backup.with_name(f".{backup.name}.{secrets.token_hex(4)}.tmp")
    try:
        try:
            os.link(target, tmp)  # the old version's own inode: no space needed, permissions kept
        except OSError:
            _copy(target, tmp, mode)  # FAT, some network shares: no hard links
        os.replace(tmp, backup)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        return f"the backup {backup.name} could not be written ({_why(exc)}); the previous backup is kept"
    return None


def _copy(src: Path, dst: Path, mode: int) -> None:
    data = src.read_bytes()  # src was checked to be a regular file
    fd = os.open(dst, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _BINARY, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.chmod(dst, mode)


def _fsync_dir(folder: Path) -> None:
    if os.name != "posix":
        return
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
