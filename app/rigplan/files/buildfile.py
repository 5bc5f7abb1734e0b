"""Build files: YAML with a format version, self-contained (each item keeps a snapshot of its part).

Reading is defensive: only regular files (files.safeio), a size limit before parsing, strict UTF-8 (or UTF-16 with
its byte-order mark), the safe loader with nesting, aliases, duplicate keys and huge integers refused
(files.yamlsafe), and every problem becomes a BuildFileError with one clear line. Writing is atomic with a .bak of
the previous version, and refuses to overwrite a file another window changed (files.safeio).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from rigplan import BUILD_SUFFIX, OPEN_SUFFIXES
from rigplan.files import yamlsafe
from rigplan.files.errors import BuildFileError
from rigplan.files.safeio import Fingerprint, SaveResult, read_regular, refuse_inputs, write_atomic
from rigplan.model.build import FORMAT_VERSION, Build

try:
    from yaml import CSafeDumper as _Dumper
except ImportError:  # pragma: no cover
    from yaml import SafeDumper as _Dumper  # type: ignore[assignment]

MAGIC = "rigplan-build"
MAX_BYTES = 10 * 1024 * 1024
SUFFIX = BUILD_SUFFIX


def with_build_suffix(path: str | Path) -> Path:
    """Where a build given the name `path` is saved: NAME.rigplan, unless the name already ends in a suffix RigPlan
    opens (.rigplan, or an explicit .rigplan.yaml/.yaml/.yml, which the user chose and keeps)."""
    p = Path(path)
    return p if p.name.lower().endswith(OPEN_SUFFIXES) else p.with_name(p.name + SUFFIX)


def is_build_name(path: str | Path) -> bool:
    """True for the names RigPlan opens as builds (the Open dialog's filter, drops, the macOS open event)."""
    return Path(path).name.lower().endswith(OPEN_SUFFIXES)


def _clean(value: Any) -> Any:
    """-0.0 is written as 0.0 (a price of "-0" is nonsense); a non-finite number is never written."""
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{value} is not a finite number")
        return value + 0.0  # -0.0 + 0.0 == +0.0
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clean(v) for v in value]
    return value


def build_to_dict(build: Build) -> dict[str, Any]:
    body = _clean(build.model_dump(mode="json", exclude_none=True))
    if not body.get("other"):
        # No Other items: no `other` key, so the file stays the version an older RigPlan reads (their models forbid
        # unknown keys; format_version says 4 only when there are items)
        body.pop("other", None)
    return {"format": MAGIC, "format_version": build.format_version, **body}


def dumps(build: Build) -> str:
    return yaml.dump(build_to_dict(build), Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=120)


def _describe_validation(exc: ValidationError) -> str:
    first = exc.errors()[0]
    loc = ".".join(str(x) for x in first["loc"] if not str(x).startswith("function-")) or "file"
    more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
    return f"{loc}: {first['msg']}{more}"


def _parse_yaml(text: str, path: Path) -> Any:
    try:
        return yamlsafe.parse(text)
    except yamlsafe.YamlRefused as exc:
        raise BuildFileError(path, str(exc)) from None
    except yaml.reader.ReaderError as exc:
        char = f"U+{exc.character:04X}" if isinstance(exc.character, int) else repr(exc.character)
        problem = f"character {char} at offset {exc.position} is not allowed in a build file"
        raise BuildFileError(path, problem) from None
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
    if doc["format_version"] == 2:
        doc = {**doc, "format_version": 3}  # version 3 added the optional `workload`; nothing else changed
    if doc["format_version"] == 3:
        doc = {**doc, "format_version": 4}  # version 4 added the optional `other` line items; nothing else changed
    return doc


def _v1_to_v2(doc: dict[str, Any]) -> dict[str, Any]:
    """Version 2 added the optional `comparison` (the offers on the chart). A version 1 file has none, so RigPlan
    picks the comparison as it always did; nothing else changed."""
    return {**doc, "format_version": 2}


def loads(text: str, path: Path | str = "<text>") -> Build:
    path = Path(path)
    if not text.strip():
        raise BuildFileError(path, "the file is empty")
    if "\x00" in text:
        raise BuildFileError(path, f"NUL byte at offset {text.index(chr(0))}: this is not a text file")
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


def decode(raw: bytes, path: Path) -> str:
    """Text from bytes: UTF-8 (a byte-order mark is dropped) or UTF-16 with its byte-order mark."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return raw.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise BuildFileError(path, f"not valid UTF-16 text (bad bytes at offset {exc.start})") from None
    if len(raw) >= 4 and b"\x00" in raw[:4] and raw[:4].count(b"\x00") == 2:
        # ASCII text saved as UTF-16 without a byte-order mark: every other byte is 0.
        raise BuildFileError(path, "this looks like UTF-16 text without a byte-order mark; save it as UTF-8")
    try:
        return raw.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        raise BuildFileError(path, f"not UTF-8 text (bad byte at offset {exc.start})") from None


def load_tracked(path: Path | str) -> tuple[Build, Fingerprint]:
    """The build and the fingerprint of the very bytes it was read from (for FileChangedError on save)."""
    path = Path(path)
    raw, fingerprint = read_regular(path, MAX_BYTES)
    return with_workload_path(loads(decode(raw, path), path), path, absolute=True), fingerprint


def _is_config_path(model: str) -> bool:
    """A workload's model is a bundled id (llama-3.1-8b: no slash, no .json) or the path of a config.json."""
    return model.lower().endswith(".json") or "/" in model or "\\" in model


def with_workload_path(build: Build, path: Path, *, absolute: bool) -> Build:
    """A config.json path saved in a build is relative to the build file's folder (so the two travel together):
    made absolute on load (not resolved from the current directory), and written relative on save when the config
    is in the build's folder or below it (else absolute)."""
    w = build.workload
    if w is None or not _is_config_path(w.model):
        return build
    folder = path.absolute().parent
    model = Path(w.model).expanduser()
    if absolute:
        new = str(model if model.is_absolute() else folder / model)
    elif model.is_absolute() and model.is_relative_to(folder):
        new = model.relative_to(folder).as_posix()
    else:
        return build
    return build.model_copy(update={"workload": w.model_copy(update={"model": new})})


def load(path: Path | str) -> Build:
    return load_tracked(path)[0]


def save(
    build: Build,
    path: Path | str,
    *,
    keep_backup: bool = True,
    expected: Fingerprint | None = None,
    replace_read_only: bool = False,
    inputs: tuple[Path | str | None, ...] = (),
) -> SaveResult:
    """Write atomically (see files.safeio). A symlink is written through to its real target, whose permissions
    are kept. With `expected`, a file changed on disk since raises FileChangedError; a write-protected file raises
    ReadOnlyFileError unless `replace_read_only`. The result's backup_error must be shown to the user."""
    path = Path(path)
    refuse_inputs(path, inputs, "build")  # an import's output never replaces the list or price file it read
    try:
        data = dumps(with_workload_path(build, path, absolute=False)).encode("utf-8")
    except ValueError as exc:
        raise BuildFileError(path, f"not saved: {exc}") from None
    return write_atomic(
        path, data, keep_backup=keep_backup, expected=expected, replace_read_only=replace_read_only, limit=MAX_BYTES
    )


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
