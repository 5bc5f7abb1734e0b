"""Build OpenDB archives for the catalog-update tests from what the repository ships (never ../shared): the shipped
catalog's records written back in OpenDB's layout (rigplan.opendb.layout), as GitHub lays out its archive
(`<top>/open-db/<Category>/<id>.json`, the commit in the pax header), with changes the test knows."""

from __future__ import annotations

import io
import json
import tarfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from rigplan.catalog import Catalog
from rigplan.model.parts import Kind
from rigplan.opendb import supplement
from rigplan.opendb.layout import category, to_opendb

COMMIT = "0123456789abcdef0123456789abcdef01234567"
MTIME = 1_790_000_000  # 2026-09-21: the archive's commit time


def shipped_records(catalog: Catalog) -> dict[Kind, list[dict[str, Any]]]:
    """The shipped catalog's OpenDB parts as OpenDB records: the workstation supplement's parts (ids "ws-...",
    parts/workstation.yaml) are not OpenDB's, and the update adds them itself, as `make data` does."""
    return {
        k: [
            to_opendb(k, t.row(i))
            for t in (catalog.table(k),)
            for i in range(len(t))
            if not t.ids[i].startswith(supplement.PREFIX)
        ]
        for k in Kind
    }


def add(tar: tarfile.TarFile, name: str, data: bytes, mtime: int = MTIME, **kw: Any) -> None:
    info = tarfile.TarInfo(name)
    info.size, info.mtime = len(data), mtime
    for k, v in kw.items():
        setattr(info, k, v)
    tar.addfile(info, io.BytesIO(data))


def build(
    path: Path,
    records: dict[Kind, list[dict[str, Any]]],
    edit: Callable[[Kind, dict[str, Any]], dict[str, Any] | None] | None = None,
    extra: Iterable[tuple[Kind, dict[str, Any]]] = (),
    commit: str = COMMIT,
    hostile: Callable[[tarfile.TarFile], None] | None = None,
) -> Path:
    top = f"buildcores-open-db-{commit}"
    with tarfile.open(path, "w:gz", compresslevel=1, format=tarfile.PAX_FORMAT, pax_headers={"comment": commit}) as tar:
        # As `git archive` writes GitHub's: one pax global header with the commit (written on opening, PAX_FORMAT
        # only), then ustar members whose path over 100 characters is split into the prefix field. PAX_FORMAT would
        # give every such member a pax header of its own, which GitHub's archives do not have.
        tar.format = tarfile.USTAR_FORMAT
        add(tar, f"{top}/README.md", b"# OpenDB\n")
        for kind, recs in records.items():
            for rec in recs:
                out = edit(kind, rec) if edit else rec
                if out is not None:
                    add(tar, f"{top}/open-db/{category(kind)}/{out['opendb_id']}.json", json.dumps(out).encode())
        for kind, rec in extra:
            add(tar, f"{top}/open-db/{category(kind)}/{rec['opendb_id']}.json", json.dumps(rec).encode())
        if hostile:
            hostile(tar)
    return path
