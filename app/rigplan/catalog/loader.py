"""Load the parts catalog: the compiled JSON when it matches the YAML, else recompile (and cache) from YAML.

The catalog is held column-major per kind, the way it is stored: searching and filtering 26,000 parts reads plain
lists, and a pydantic `Part` is built only for the rows someone asks for (then kept).
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rigplan.catalog.compiled import (
    COMPILED_NAME,
    CatalogProblem,
    compile_yaml,
    hash_files,
    read_compiled,
    to_columns,
    write_compiled_result,
    yaml_files,
)
from rigplan.catalog.overlay import (
    SHIPPED_ABOUT,
    UserCorrection,
    check_correction,
    load_user_corrections,
    read_about,
    updated_dir,
)
from rigplan.catalog.search import Query, haystack_of
from rigplan.kinds import Kind
from rigplan.paths import default_cache_dir
from rigplan.paths import parts_dir as bundled_parts_dir

if TYPE_CHECKING:
    from rigplan.model.parts import Part

TEXT_FIELDS = ("name", "manufacturer", "chipset")


class KindTable:
    """All parts of one kind, as columns. Row i of every column is the same part."""

    def __init__(self, kind: Kind, columns: dict[str, list[Any]]) -> None:
        self.kind = kind
        self.columns = columns
        self.ids: list[str] = columns["id"]
        self._parts: list[Part | None] = [None] * len(self.ids)
        self._hay: list[str] | None = None
        self.corrected: dict[tuple[int, str], UserCorrection] = {}  # (row, top-level field): the user's correction
        # Caches of the layers above that live and die with this table, by owner (rules.rule.TableCache): no
        # cache keyed by a table's id() outlives the table, and no two catalogs share one.
        self.caches: dict[str, Any] = {}

    def __len__(self) -> int:
        return len(self.ids)

    def column(self, field: str) -> list[Any]:
        col = self.columns.get(field)
        return col if col is not None else [None] * len(self.ids)

    def row(self, i: int) -> dict[str, Any]:
        return {f: col[i] for f, col in self.columns.items() if col[i] is not None}

    def part(self, i: int) -> Part:
        part = self._parts[i]
        if part is None:
            from rigplan.model.parts import PART_ADAPTER  # pydantic is imported on the first part asked for

            part = PART_ADAPTER.validate_python({"kind": self.kind.value, **self.row(i)})
            self._parts[i] = part
        return part

    def forget(self, i: int) -> None:
        """Row i changed (a user's correction): build its Part and search text again."""
        self._parts[i] = None
        self._hay = None
        self.caches.clear()  # what the layers above derived from the rows (the rules' distinct facts) is stale

    def parts(self) -> list[Part]:
        return [self.part(i) for i in range(len(self.ids))]

    def haystacks(self) -> list[str]:
        if self._hay is None:
            cols = [self.column(f) for f in TEXT_FIELDS]
            self._hay = [haystack_of(vals) for vals in zip(*cols, strict=True)]
        return self._hay

    def find(self, query: Query) -> Iterator[int]:
        rows: Iterable[int] = range(len(self.ids))
        if query.words:
            hay = self.haystacks()
            rows = (i for i in rows if all(w in hay[i] for w in query.words))
        for i in rows:
            if all(c.test_value(self.columns, i) for c in query.conditions):
                yield i


class Catalog:
    def __init__(
        self,
        tables: dict[Kind, KindTable],
        problems: list[CatalogProblem] | None = None,
        source: str = "",
    ) -> None:
        self.tables = tables
        self.problems = problems or []
        self.source = source  # "bundled", "cache", "rebuilt", "updated" or "empty": how this load was served
        # Which data this is (issue 38): the shipped snapshot, or an update's about.json (commit, date, counts).
        self.about: dict[str, Any] = dict(SHIPPED_ABOUT)
        # The user's corrections applied over it, by (part id, field); shown as "your correction (source)".
        self.user_corrections: dict[tuple[str, str], UserCorrection] = {}
        self._index: dict[str, tuple[Kind, int]] = {}
        for kind, table in tables.items():
            for i, pid in enumerate(table.ids):
                self._index.setdefault(pid, (kind, i))

    @classmethod
    def from_parts(cls, parts: Iterable[Part], problems: list[CatalogProblem] | None = None) -> Catalog:
        records = [p.model_dump(mode="json", exclude_none=True) for p in parts]
        cols = to_columns(records)
        return cls({k: KindTable(k, cols[k.value]) for k in Kind}, problems, "memory")

    def __len__(self) -> int:
        return len(self._index)

    def __contains__(self, part_id: object) -> bool:
        return part_id in self._index

    def get(self, part_id: str) -> Part | None:
        hit = self._index.get(part_id)
        if hit is None:
            return None
        kind, i = hit
        return self.tables[kind].part(i)

    def table(self, kind: Kind) -> KindTable:
        return self.tables[kind]

    def of_kind(self, kind: Kind) -> list[Part]:
        return self.tables[kind].parts()

    def row_of(self, part_id: str) -> dict[str, Any] | None:
        """The stored record of a part (its non-None fields), without building a Part."""
        hit = self._index.get(part_id)
        return None if hit is None else self.tables[hit[0]].row(hit[1])

    def correction(self, part_id: str, field: str) -> UserCorrection | None:
        """The user's correction of this value, if any (a nested field counts for its parent: connectors.pcie8)."""
        hit = self.user_corrections.get((part_id, field))
        if hit is None and "." not in field:
            hit = next(
                (c for (pid, f), c in self.user_corrections.items() if pid == part_id and f.startswith(field + ".")),
                None,
            )
        return hit

    def apply_corrections(self, corrections: Iterable[UserCorrection]) -> None:
        """Apply the user's corrections over the loaded data, each checked by the model; one the model refuses, or
        whose part is not in this catalog, is kept in the file and listed in `problems`, never applied."""
        for c in corrections:
            hit = self._index.get(c.part_id)
            if hit is None:
                self.problems.append(CatalogProblem("your corrections", c.part_id, f"{c.field}: no such part here"))
                continue
            kind, i = hit
            table = self.tables[kind]
            try:
                fixed = check_correction(kind.value, table.row(i), c.field, c.value)
            except ValueError as exc:
                self.problems.append(CatalogProblem("your corrections", c.part_id, str(exc)))
                continue
            head = c.field.split(".")[0]
            table.columns.setdefault(head, [None] * len(table))[i] = fixed.get(head)
            table.forget(i)
            table.corrected[(i, head)] = c
            self.user_corrections[(c.part_id, c.field)] = c

    def counts(self) -> dict[Kind, int]:
        return {k: len(t) for k, t in self.tables.items()}

    def search(self, kind: Kind | None = None, text: str = "", where: Iterable[str] = ()) -> list[Part]:
        """Parts of `kind` whose name, maker or chipset contain every word of `text`, filtered by `where`
        conditions such as "vram_gb>=24" or "socket=AM5" (see rigplan.catalog.search). Raises QueryError."""
        query = Query.parse(text, list(where))
        kinds = list(Kind) if kind is None else [kind]
        return [self.tables[k].part(i) for k in kinds for i in self.tables[k].find(query)]


def _tables_from(doc: dict[str, Any]) -> dict[Kind, KindTable]:
    return {k: KindTable(k, doc["tables"][k.value]) for k in Kind}


def _read_without_gc(path: Path) -> dict[str, Any] | None:
    """read_compiled with the cyclic GC paused: json.loads makes ~500,000 acyclic lists and strings, and the
    collections they trigger cost ~15 ms of a ~85 ms load for nothing."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        return read_compiled(path)
    finally:
        if was_on:
            gc.enable()


def load_catalog(
    parts_dir: Path | None = None,
    cache_dir: Path | None = None,
    progress: Callable[[str], None] | None = None,
    data_dir: Path | None = None,
) -> Catalog:
    """The whole catalog. Broken entries and files are skipped and listed in `Catalog.problems`.

    Order: the compiled file beside the YAML (shipped in the wheel), then the user's cache, then a rebuild from
    YAML which is written to the cache (the bundled folder may be read-only). A folder with the compiled file and
    no YAML at all (the installers) uses the compiled file.

    Without `parts_dir` this is the catalog in use (issue 38), the same for the app, the CLI and the GUI: the
    user's update from OpenDB when there is one (rigplan.catalog.overlay), else the shipped catalog, with the user's
    corrections applied over it. `data_dir` is the user's data folder (default: rigplan.paths.default_data_dir()).
    """
    if parts_dir is None:
        catalog = _shipped_or_updated(cache_dir, progress, data_dir)
        corrections, problem = load_user_corrections(data_dir)
        if problem:
            catalog.problems.append(CatalogProblem("your corrections", None, problem))
        catalog.apply_corrections(corrections)
        return catalog
    return _load_folder(parts_dir, cache_dir, progress)


def load_base_catalog(cache_dir: Path | None = None, data_dir: Path | None = None) -> Catalog:
    """The catalog in use without the user's corrections: what an update compares with."""
    return _shipped_or_updated(cache_dir, None, data_dir)


def _shipped_or_updated(
    cache_dir: Path | None, progress: Callable[[str], None] | None, data_dir: Path | None
) -> Catalog:
    # RIGPLAN_PARTS_DIR (rigplan.paths.parts_dir) stands for the shipped folder only: an update in the user's data
    # folder is used over it as over the shipped one, so an update converted against that folder's files (the
    # update reads its corrections and inputs from parts_dir()) is also the one loaded after the switch.
    folder = updated_dir(data_dir)
    if folder is not None:
        doc = _read_without_gc(folder / COMPILED_NAME)
        if doc is not None:
            cat = Catalog(_tables_from(doc), [CatalogProblem(*p) for p in doc.get("problems", [])], "updated")
            cat.about = {**read_about(folder), "catalog": "updated", "folder": folder.name}
            return cat
        # An update that cannot be read (deleted by hand, a broken disk): the shipped catalog, and say so.
        shipped = _load_folder(bundled_parts_dir(), cache_dir, progress)
        shipped.problems.append(
            CatalogProblem(str(folder), None, "the updated catalog is unreadable; shipped one used")
        )
        return shipped
    return _load_folder(bundled_parts_dir(), cache_dir, progress)


def _load_folder(parts_dir: Path, cache_dir: Path | None, progress: Callable[[str], None] | None) -> Catalog:
    cache_dir = cache_dir or default_cache_dir()
    files = yaml_files(parts_dir)
    if not files:
        # An installed bundle ships the compiled catalog without its YAML sources (packaging/rigplan.spec): there
        # is nothing to compare it with, so it is used as it is.
        doc = _read_without_gc(parts_dir / COMPILED_NAME)
        if doc is not None:
            return Catalog(_tables_from(doc), [CatalogProblem(*p) for p in doc.get("problems", [])], "bundled")
        empty = {k: KindTable(k, {"id": [], "name": []}) for k in Kind}
        return Catalog(empty, [CatalogProblem(str(parts_dir), None, "no parts files found")], "empty")
    hashes = hash_files(files)
    cached = cache_dir / COMPILED_NAME
    for origin, candidate in (("bundled", parts_dir / COMPILED_NAME), ("cache", cached)):
        doc = _read_without_gc(candidate)
        if doc is not None and doc["yaml_sha256"] == hashes:
            problems = [CatalogProblem(*p) for p in doc.get("problems", [])]
            return Catalog(_tables_from(doc), problems, origin)
    if progress:
        progress("The parts files changed: rebuilding the catalog (once)...")
    result = compile_yaml(parts_dir, progress)
    try:
        write_compiled_result(result, cached)
    except OSError as exc:
        result.problems.append(CatalogProblem(str(cached), None, f"could not write the cache: {exc}"))
    tables = to_columns(result.records)
    return Catalog({k: KindTable(k, tables[k.value]) for k in Kind}, result.problems, "rebuilt")
