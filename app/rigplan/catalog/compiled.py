"""The compiled catalog: one JSON file that loads in milliseconds, tied to the YAML by content hash.

YAML is the source of truth people edit; parsing 26,000 records of it takes seconds even with libyaml, while
json.loads of the same data takes tens of milliseconds. So the importer (and the app, after an edit) writes
`catalog.json`, which records the SHA-256 of every YAML file it was built from.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rigplan.kinds import Kind
from rigplan.paths import own_folder

COMPILED_NAME = "catalog.json"
COMPILED_FORMAT = 3


@dataclass(frozen=True)
class CatalogProblem:
    file: str
    part_id: str | None
    message: str

    def __str__(self) -> str:
        where = f"{self.file}: {self.part_id}" if self.part_id else self.file
        return f"{where}: {self.message}"


@dataclass
class CompileResult:
    records: list[dict[str, Any]]
    hashes: dict[str, str]
    problems: list[CatalogProblem] = field(default_factory=list)


def yaml_files(parts_dir: Path) -> list[Path]:
    known = {f"{k.value}.yaml" for k in Kind}
    return sorted(p for p in parts_dir.glob("*.yaml") if p.name in known)


def hash_files(files: list[Path]) -> dict[str, str]:
    out = {}
    for p in files:
        h = hashlib.sha256()
        with p.open("rb") as fh:
            for chunk in iter(lambda: fh.read(1 << 20), b""):
                h.update(chunk)
        out[p.name] = h.hexdigest()
    return out


def compile_yaml(parts_dir: Path, progress: Callable[[str], None] | None = None) -> CompileResult:
    """Parse and validate every YAML file; broken files and entries are skipped and reported."""
    from pydantic import ValidationError  # here, not at the top: loading the compiled file needs neither

    from rigplan.catalog.yamlio import load_parts_yaml
    from rigplan.model.parts import PART_ADAPTER

    files = yaml_files(parts_dir)
    records: list[dict[str, Any]] = []
    problems: list[CatalogProblem] = []
    seen: set[str] = set()
    for n, path in enumerate(files, 1):
        if progress:
            progress(f"Reading {path.name} ({n}/{len(files)})")
        try:
            doc = load_parts_yaml(path)
        except Exception as exc:  # a corrupt file must not take the rest of the catalog down
            problems.append(CatalogProblem(path.name, None, f"file skipped: {exc}"))
            continue
        expected = path.stem
        for i, raw in enumerate(doc["parts"]):
            pid = raw.get("id") if isinstance(raw, dict) else None
            label = str(pid) if pid else f"entry #{i + 1}"
            if not isinstance(raw, dict):
                problems.append(CatalogProblem(path.name, label, "entry is not a mapping"))
                continue
            raw = {"kind": expected, **raw}
            if raw["kind"] != expected:
                problems.append(CatalogProblem(path.name, label, f"kind {raw['kind']!r} in the {expected} file"))
                continue
            try:
                part = PART_ADAPTER.validate_python(raw)
            except ValidationError as exc:
                first = exc.errors()[0]
                loc = ".".join(str(x) for x in first["loc"][1:]) or "entry"
                problems.append(CatalogProblem(path.name, label, f"{loc}: {first['msg']}"))
                continue
            if part.id in seen:
                problems.append(CatalogProblem(path.name, label, "duplicate id; later entry skipped"))
                continue
            seen.add(part.id)
            records.append(part.model_dump(mode="json", exclude_none=True))
    return CompileResult(records, hash_files(files), problems)


def write_compiled(parts_dir: Path, target: Path | None = None, progress: Callable[[str], None] | None = None) -> Path:
    result = compile_yaml(parts_dir, progress)
    target = target or parts_dir / COMPILED_NAME
    write_compiled_result(result, target)
    return target


def to_columns(records: list[dict[str, Any]]) -> dict[str, dict[str, list[Any]]]:
    """Column-major tables per kind: far fewer JSON objects to build at load than one dict per part."""
    by_kind: dict[str, list[dict[str, Any]]] = {k.value: [] for k in Kind}
    for r in records:
        by_kind[r["kind"]].append(r)
    tables = {}
    for kind, rows in by_kind.items():
        names = sorted({f for r in rows for f in r if f != "kind"} | {"id", "name"})
        tables[kind] = {f: [r.get(f) for r in rows] for f in names}
    return tables


_OWN_KEY = frozenset({str, int, bool, type(None)})


def _pool(column: list[Any]) -> list[Any] | dict[str, list[Any]]:
    """Store a column with many repeats (sockets lists, sources, form factors) as distinct values + indices:
    half the bytes, and about a third less time in json.loads."""
    keys: dict[object, int] = {}
    pool: list[Any] = []
    idx: list[int] = []
    for value in column:
        # A string, int, bool or None is its own key beside its type (1, 1.0 and True stay three values, as in JSON);
        # floats (-0.0 == 0.0), lists and mappings by their JSON text. json.dumps of every value took 2-3 s of the
        # compiled catalog's ~4 s.
        kind = type(value)
        key = (kind, value) if kind in _OWN_KEY else json.dumps(value, sort_keys=True)
        if key not in keys:
            keys[key] = len(pool)
            pool.append(value)
        idx.append(keys[key])
    return {"pool": pool, "idx": idx} if column and len(pool) <= len(column) // 2 else column


def _unpool(column: Any) -> list[Any] | None:
    if isinstance(column, list):
        return column
    if isinstance(column, dict) and isinstance(column.get("pool"), list) and isinstance(column.get("idx"), list):
        pool = column["pool"]
        try:
            return [pool[i] for i in column["idx"]]
        except (IndexError, TypeError):
            return None
    return None


def write_compiled_result(result: CompileResult, target: Path) -> None:
    tables = to_columns(result.records)
    doc = {
        "format": COMPILED_FORMAT,
        "yaml_sha256": result.hashes,
        "problems": [[p.file, p.part_id, p.message] for p in result.problems],
        "tables": {kind: {f: _pool(col) for f, col in cols.items()} for kind, cols in tables.items()},
    }
    data = json.dumps(doc, ensure_ascii=False, separators=(",", ":"), sort_keys=False).encode("utf-8")
    own_folder(target.parent)  # the user's own cache folder, never another user's (rigplan.paths)
    fd, tmp = tempfile.mkstemp(prefix=".catalog-", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)  # mkstemp makes 0600; the catalog is not secret and ships in packages
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def read_compiled(path: Path) -> dict[str, Any] | None:
    """The compiled document, or None if missing, unreadable or of another format (it is then rebuilt)."""
    try:
        doc = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None
    if (
        not isinstance(doc, dict)
        or doc.get("format") != COMPILED_FORMAT
        or not isinstance(doc.get("tables"), dict)
        or not isinstance(doc.get("yaml_sha256"), dict)
    ):
        return None
    tables = doc["tables"]
    for kind in Kind:
        table = tables.get(kind.value)
        ids = _unpool(table.get("id")) if isinstance(table, dict) else None
        if ids is None:
            return None
        n = len(ids)
        for name, raw in table.items():
            col = _unpool(raw)
            if col is None or len(col) != n:
                return None
            table[name] = col
    return doc
