"""Build files: YAML with a format version, self-contained (each item keeps a snapshot of its part).

Reading is defensive: a size limit before parsing, strict UTF-8, the safe loader (no arbitrary tags), no aliases
(a "billion laughs" file is refused before it can expand), and every problem becomes a BuildFileError with one
clear line. Writing is atomic: a temporary file in the same folder, fsync, then os.replace; the previous version
is kept as <name>.bak.
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from rigplan import BUILD_SUFFIX
from rigplan.files.errors import BuildFileError
from rigplan.model.build import FORMAT_VERSION, Build

try:
    from yaml import CSafeDumper as _Dumper
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover
    from yaml import SafeDumper as _Dumper  # type: ignore[assignment]
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

MAGIC = "rigplan-build"
MAX_BYTES = 10 * 1024 * 1024
SUFFIX = BUILD_SUFFIX


def build_to_dict(build: Build) -> dict[str, Any]:
    body = build.model_dump(mode="json", exclude_none=True)
    return {"format": MAGIC, "format_version": FORMAT_VERSION, **body}


def dumps(build: Build) -> str:
    return yaml.dump(build_to_dict(build), Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=120)


def _describe_validation(exc: ValidationError) -> str:
    first = exc.errors()[0]
    loc = ".".join(str(x) for x in first["loc"] if not str(x).startswith("function-")) or "file"
    more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
    return f"{loc}: {first['msg']}{more}"


def _parse_yaml(text: str, path: Path) -> Any:
    try:
        # Build files never need anchors; refusing aliases stops exponential "billion laughs" expansion.
        for event in yaml.parse(text, Loader=_Loader):
            if isinstance(event, yaml.AliasEvent):
                mark = event.start_mark
                raise BuildFileError(
                    path, f"line {mark.line + 1}, column {mark.column + 1}: YAML aliases (*name) are not allowed"
                )
        return yaml.load(text, Loader=_Loader)  # noqa: S506 - the safe loader
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        problem = exc.problem or exc.context or "not valid YAML"
        if isinstance(exc, yaml.constructor.ConstructorError):
            problem = f"unsupported YAML tag or value ({problem})"
        raise BuildFileError(path, f"{where}{problem}") from None
    except yaml.YAMLError as exc:
        raise BuildFileError(path, f"not valid YAML ({exc})") from None


def migrate(doc: dict[str, Any], path: Path) -> dict[str, Any]:
    """Bring an older file up to FORMAT_VERSION, one step per version."""
    version = doc.get("format_version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise BuildFileError(path, "format_version is missing or not a whole number")
    if version > FORMAT_VERSION:
        raise BuildFileError(
            path,
            f"this file is format version {version}, but this RigPlan reads up to version {FORMAT_VERSION}; "
            "update RigPlan to open it",
        )
    if version < 1:
        raise BuildFileError(path, f"format_version {version} is not a RigPlan version")
    if version == 1:
        doc = _v1_to_v2(doc)
    return doc


def _v1_to_v2(doc: dict[str, Any]) -> dict[str, Any]:
    """Version 2 added the optional `comparison` (the offers on the chart). A version 1 file has none, so RigPlan
    picks the comparison as it always did; nothing else changed."""
    return {**doc, "format_version": 2}


def loads(text: str, path: Path | str = "<text>") -> Build:
    path = Path(path)
    if not text.strip():
        raise BuildFileError(path, "the file is empty")
    doc = _parse_yaml(text, path)
    if not isinstance(doc, dict):
        raise BuildFileError(path, f"expected a RigPlan build (a mapping), found {type(doc).__name__}")
    if doc.get("format") != MAGIC:
        raise BuildFileError(path, f"not a RigPlan build file (missing 'format: {MAGIC}')")
    doc = migrate(doc, path)
    body = {k: v for k, v in doc.items() if k not in {"format", "format_version"}}
    try:
        return Build.model_validate(body)
    except ValidationError as exc:
        raise BuildFileError(path, _describe_validation(exc)) from None


def load(path: Path | str) -> Build:
    path = Path(path)
    try:
        st = path.stat()
    except FileNotFoundError:
        raise BuildFileError(path, "no such file") from None
    except OSError as exc:
        raise BuildFileError(path, f"cannot read it ({exc.strerror or exc})") from None
    if stat.S_ISDIR(st.st_mode):
        raise BuildFileError(path, "this is a folder, not a build file")
    if st.st_size > MAX_BYTES:
        raise BuildFileError(
            path, f"the file is {st.st_size / 1e6:.1f} MB; build files are limited to {MAX_BYTES // 2**20} MB"
        )
    try:
        with path.open("rb") as fh:
            raw = fh.read(MAX_BYTES + 1)
    except OSError as exc:
        raise BuildFileError(path, f"cannot read it ({exc.strerror or exc})") from None
    if len(raw) > MAX_BYTES:
        raise BuildFileError(path, f"the file is over the {MAX_BYTES // 2**20} MB limit")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BuildFileError(path, f"not UTF-8 text (bad byte at offset {exc.start})") from None
    return loads(text.removeprefix("\ufeff"), path)


def save(build: Build, path: Path | str, *, keep_backup: bool = True) -> None:
    """Write atomically. A symlink is written through to its real target (never replaced by a file elsewhere),
    and the target's permissions are kept."""
    path = Path(path)
    target = path.resolve() if path.is_symlink() else path
    data = dumps(build).encode("utf-8")
    folder = target.parent
    try:
        mode = stat.S_IMODE(target.stat().st_mode) if target.exists() else None
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise BuildFileError(path, f"cannot write here ({exc.strerror or exc})") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if mode is None:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        if keep_backup and target.exists():
            backup = target.with_name(target.name + ".bak")
            try:
                _copy_backup(target, backup)
            except OSError:
                pass  # a failed backup must not block the save itself
        os.replace(tmp, target)
        _fsync_dir(folder)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise BuildFileError(path, f"could not save ({exc.strerror or exc}); the previous file is unchanged") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _copy_backup(target: Path, backup: Path) -> None:
    # Copy rather than rename, so the target never disappears even for an instant.
    fd, tmp = tempfile.mkstemp(prefix=f".{backup.name}.", suffix=".tmp", dir=backup.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(target.read_bytes())
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, backup)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


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


def json_schema() -> dict[str, Any]:
    schema = Build.model_json_schema()
    schema["title"] = "RigPlan build file"
    props = schema.setdefault("properties", {})
    props = {
        "format": {"const": MAGIC, "description": "Marks the file as a RigPlan build."},
        "format_version": {"type": "integer", "minimum": 1, "maximum": FORMAT_VERSION},
        **props,
    }
    schema["properties"] = props
    schema["required"] = ["format", "format_version", *schema.get("required", [])]
    return schema


def schema_text() -> str:
    return json.dumps(json_schema(), indent=2)
