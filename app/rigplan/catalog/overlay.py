"""The user's side of the catalog (issue 38): which catalog is in use (the shipped one, or an update from OpenDB kept in
the user's data folder) and the user's own corrections, applied over it at every load.

Read-only here: the catalog layer sits below `files`, so writing (an update's switch, adding a correction) is
rigplan.opendb's, under its lock. What is read is bounded: a state file or corrections file that is too large, not a
mapping or of another format is ignored with a problem line, never an exception at start-up.
"""

from __future__ import annotations

import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rigplan.paths import default_data_dir

# The snapshot the shipped catalog was made from (tools/sources.lock.json pins it; a test holds the two together) and
# the date of the part prices joined to it (pc-part-dataset, PCPartPicker listings of one day).
SHIPPED_ABOUT: dict[str, Any] = {
    "catalog": "shipped",
    "source": "BuildCores OpenDB",
    "commit": "136a77aec16a30ba81a7cc6b448a8bace9a25359",
    "date": "2026-08-17",
    "price_date": "2025-07-23",
    "price_source": "pc-part-dataset (PCPartPicker)",
}
STATE_FORMAT = 1
CORRECTIONS_FORMAT = 1
MAX_STATE_BYTES = 64_000
MAX_CORRECTIONS_BYTES = 5_000_000  # thousands of corrections; a user writes a few


def catalog_home(data_dir: Path | None = None) -> Path:
    """`<data folder>/catalog`: the updates (one folder each), state.json naming the one in use and the previous
    one, and the user's corrections.yaml. The CLI and the GUI share it, like the cloud prices."""
    return (data_dir or default_data_dir()) / "catalog"


def corrections_file(data_dir: Path | None = None) -> Path:
    return catalog_home(data_dir) / "corrections.yaml"


def _read_small(path: Path, limit: int) -> bytes | None:
    """A regular file's bytes, or None when it is absent; ValueError when it is not a regular file or too big."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return None
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fh.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise ValueError("not a regular file")
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise ValueError(f"larger than {limit:,} bytes")
    return data


def read_state(data_dir: Path | None = None) -> tuple[dict[str, Any], str | None]:
    """({"current": folder name or None, "previous": ...}, a problem or None)."""
    empty: dict[str, Any] = {"format": STATE_FORMAT, "current": None, "previous": None}
    path = catalog_home(data_dir) / "state.json"
    try:
        raw = _read_small(path, MAX_STATE_BYTES)
        if raw is None:
            return empty, None
        doc = json.loads(raw)
        if not isinstance(doc, dict) or doc.get("format") != STATE_FORMAT:
            raise ValueError("not a catalog state of a known format")
        for key in ("current", "previous"):
            v = doc.get(key)
            if v is not None and (not isinstance(v, str) or "/" in v or "\\" in v or v.startswith(".")):
                raise ValueError(f"{key}: not a folder name")
        return {**empty, **{k: doc.get(k) for k in ("current", "previous")}}, None
    except (OSError, ValueError, RecursionError) as exc:
        return empty, f"{path}: {exc}; using the shipped catalog"


def updated_dir(data_dir: Path | None = None) -> Path | None:
    """The folder of the updated catalog in use, or None for the shipped one."""
    state, _ = read_state(data_dir)
    return catalog_home(data_dir) / state["current"] if state["current"] else None


def snapshot_line(about: dict[str, Any]) -> str:
    """'parts: BuildCores OpenDB @136a77a (2026-08-17), shipped; part prices 2025-07-23' for the About box, the
    status bar and every export."""
    commit = str(about.get("commit") or "")[:7] or "commit unknown"
    which = "shipped" if about.get("catalog", "shipped") == "shipped" else f"updated {about.get('saved', '')[:10]}"
    prices = about.get("price_date") or "unknown"
    return f"parts: BuildCores OpenDB @{commit} ({about.get('date') or 'date unknown'}), {which}; part prices {prices}"


def read_about(folder: Path) -> dict[str, Any]:
    """An update's about.json (commit, date, origin, counts); {} when unreadable."""
    try:
        raw = _read_small(folder / "about.json", MAX_STATE_BYTES)
        doc = json.loads(raw) if raw else {}
    except (OSError, ValueError, RecursionError):
        return {}
    return doc if isinstance(doc, dict) else {}


# --- the user's corrections -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class UserCorrection:
    part_id: str
    field: str  # a model field, dotted for a nested one (connectors.pcie8)
    value: Any
    was: Any  # the catalog's value when the correction was made
    source: str  # where the user read the right value
    name: str = ""
    made: str = ""  # ISO date

    def label(self) -> str:
        return f"your correction ({self.source})"

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.part_id,
            "name": self.name,
            "field": self.field,
            "value": self.value,
            "was": self.was,
            "source": self.source,
            "made": self.made,
        }


def parse_corrections(doc: Any) -> list[UserCorrection]:
    if not isinstance(doc, dict) or doc.get("format") != CORRECTIONS_FORMAT:
        raise ValueError("not a corrections file of a known format")
    entries = doc.get("corrections") or []
    if not isinstance(entries, list):
        raise ValueError("corrections: not a list")
    out = []
    for i, e in enumerate(entries, 1):
        if not isinstance(e, dict) or not all(isinstance(e.get(k), str) and e[k] for k in ("id", "field", "source")):
            raise ValueError(f"entry {i}: needs id, field and source")
        out.append(
            UserCorrection(
                e["id"], e["field"], e.get("value"), e.get("was"), e["source"], str(e.get("name") or ""),
                str(e.get("made") or ""),
            )
        )  # fmt: skip
    return out


def load_user_corrections(data_dir: Path | None = None) -> tuple[list[UserCorrection], str | None]:
    path = corrections_file(data_dir)
    try:
        raw = _read_small(path, MAX_CORRECTIONS_BYTES)
        if raw is None:
            return [], None
        import yaml  # only when the user has corrections

        return parse_corrections(yaml.safe_load(raw.decode("utf-8"))), None
    except (OSError, ValueError, RecursionError, UnicodeDecodeError) as exc:
        return [], f"{path}: {' '.join(str(exc).split())[:200]}; your corrections are not applied"
    except Exception as exc:  # yaml's own errors: one line, never a start-up failure
        return [], f"{path}: {type(exc).__name__}: {' '.join(str(exc).split())[:200]}; your corrections are not applied"


def get_field(d: dict[str, Any], field: str) -> Any:
    head, _, rest = field.partition(".")
    v = d.get(head)
    if rest:
        return v.get(rest) if isinstance(v, dict) else None
    return v


def with_field(d: dict[str, Any], field: str, value: Any) -> dict[str, Any]:
    """A copy of the record with `field` set (None: removed, i.e. unknown)."""
    out = dict(d)
    head, _, rest = field.partition(".")
    if rest:
        sub = dict(out.get(head) or {})
        if value is None:
            sub.pop(rest, None)
        else:
            sub[rest] = value
        out[head] = sub
    elif value is None:
        out.pop(head, None)
    else:
        out[head] = value
    return out


def check_correction(kind_value: str, row: dict[str, Any], field: str, value: Any) -> dict[str, Any]:
    """The part's record with the correction, as the model takes it (its JSON form). Raises ValueError with one
    line when the model refuses it: an unknown field or a value of the wrong type or out of bounds."""
    from pydantic import ValidationError

    from rigplan.model.errors import one_line_validation
    from rigplan.model.parts import PART_ADAPTER, PART_CLASSES, Kind

    head = field.split(".")[0]
    if head in ("id", "kind", "custom", "spec_source"):
        raise ValueError(f"{field}: cannot be corrected (it names the part, not a value of it)")
    fields = PART_CLASSES[Kind(kind_value)].model_fields
    if head not in fields:
        import difflib

        close = difflib.get_close_matches(head, list(fields), n=1)
        hint = f"did you mean {close[0]!r}? " if close else ""
        raise ValueError(f"{field}: a {kind_value} has no such field; {hint}see 'rigplan parts show ID' for its fields")
    try:
        part = PART_ADAPTER.validate_python({**with_field(row, field, value), "kind": kind_value})
    except ValidationError as exc:
        raise ValueError(one_line_validation(exc)) from None
    return part.model_dump(mode="json", exclude_none=True)
