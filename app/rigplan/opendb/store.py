"""Where updated catalogs live and which one is in use: `<data folder>/catalog/` (rigplan.catalog.overlay reads it).

Each update is a folder of its own (catalog.json, about.json, opendb.jsonl.gz), complete before anything points at
it; `state.json` names the one in use and the previous one, and is replaced atomically under the folder's lock. So
the switch is one rename, a failed or cancelled update leaves the catalog in use as it was, and two updates at once
cannot mix: the second waits for the lock, then finds the state changed since it compared and stops. The shipped
catalog is never written to.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from rigplan.catalog.compiled import COMPILED_NAME, CompileResult, write_compiled_result
from rigplan.catalog.overlay import SHIPPED_ABOUT, catalog_home, read_about, read_state
from rigplan.files.errors import BuildFileError
from rigplan.files.oslock import LockTimeout, locked
from rigplan.files.safeio import write_atomic
from rigplan.opendb.update import Prepared, UpdateError, write_raw

LOCK_S = 10.0


def _state_file(data_dir: Path | None) -> Path:
    return catalog_home(data_dir) / "state.json"


def _write_state(data_dir: Path | None, current: str | None, previous: str | None) -> None:
    doc = {"format": 1, "current": current, "previous": previous}
    write_atomic(_state_file(data_dir), json.dumps(doc).encode(), keep_backup=False, limit=64_000, what="state")


def install(prepared: Prepared, data_dir: Path | None = None) -> str:
    """Write the prepared catalog into a folder of its own, then switch to it. Returns the folder's name."""
    s = prepared.summary
    if s.too_many_gone:
        raise UpdateError(
            "stopped: " + "; ".join(s.too_many_gone) + ". OpenDB may be broken at this commit; the catalog in use is"
            " unchanged"
        )
    home = catalog_home(data_dir)
    try:
        home.mkdir(parents=True, exist_ok=True)
        stage = Path(tempfile.mkdtemp(prefix=".staging-", dir=home))
    except OSError as exc:
        raise UpdateError(f"cannot write to {home}: {exc.strerror or exc}") from None
    try:
        write_compiled_result(CompileResult(prepared.records, {}, []), stage / COMPILED_NAME)
        (stage / "about.json").write_text(json.dumps(prepared.about, indent=1), encoding="utf-8")
        write_raw(prepared.raw, stage / "opendb.jsonl.gz")
        name = f"{(prepared.about.get('commit') or 'unknown')[:12]}-{prepared.about['saved'][:19].replace(':', '')}"
        with locked(_state_file(data_dir), LOCK_S):
            state, _ = read_state(data_dir)
            if state["current"] != prepared.base_folder:
                raise UpdateError("the catalog in use changed while this update ran (another update?); run it again")
            final = home / name
            n = 1
            while final.exists():
                n += 1
                final = home / f"{name}-{n}"
            os.replace(stage, final)
            _write_state(data_dir, final.name, state["current"])
            _prune(home, {final.name, state["current"]})
        return final.name
    except (OSError, BuildFileError) as exc:
        if isinstance(exc, LockTimeout):
            raise UpdateError(f"another catalog update holds {home}; try again when it is done") from None
        raise UpdateError(f"cannot store the catalog in {home}: {getattr(exc, 'strerror', None) or exc}") from None
    finally:
        if stage.exists():
            shutil.rmtree(stage, ignore_errors=True)


def _prune(home: Path, keep: set[str | None]) -> None:
    """Only the catalog in use and the previous one are kept (3-5 MB each)."""
    for p in home.iterdir():
        if p.is_dir() and not p.is_symlink() and p.name not in keep and not p.name.startswith("."):
            shutil.rmtree(p, ignore_errors=True)


def revert(data_dir: Path | None = None, to_shipped: bool = False) -> str:
    """Back to the previous catalog (or the shipped one). Returns a line saying which is in use now."""
    try:
        home = catalog_home(data_dir)
        home.mkdir(parents=True, exist_ok=True)
        with locked(_state_file(data_dir), LOCK_S):
            state, _ = read_state(data_dir)
            cur, prev = state["current"], state["previous"]
            if to_shipped or prev is None:
                if cur is None:
                    return "Already using the shipped catalog."
                _write_state(data_dir, None, cur)
                return "Using the shipped catalog (the update is kept as the previous one)."
            if not (home / prev / COMPILED_NAME).is_file():
                raise UpdateError(f"the previous catalog ({prev}) is gone; `rigplan catalog revert --shipped`")
            _write_state(data_dir, prev, cur)
            return f"Using the previous catalog ({describe(read_about(home / prev))})."
    except LockTimeout:
        raise UpdateError("a catalog update is running; try again when it is done") from None
    except (OSError, BuildFileError) as exc:
        raise UpdateError(f"cannot switch the catalog: {getattr(exc, 'strerror', None) or exc}") from None


def describe(about: dict[str, Any]) -> str:
    commit = str(about.get("commit") or "unknown")[:7]
    return f"BuildCores OpenDB @{commit} of {about.get('date') or 'unknown date'}"


def status(data_dir: Path | None = None) -> dict[str, Any]:
    from rigplan.catalog.loader import load_catalog

    state, problem = read_state(data_dir)
    cat = load_catalog(data_dir=data_dir)
    home = catalog_home(data_dir)
    prev = read_about(home / state["previous"]) if state["previous"] else None
    out: dict[str, Any] = {
        "in_use": cat.about.get("catalog", "shipped"),
        "commit": cat.about.get("commit"),
        "date": cat.about.get("date"),
        "saved": cat.about.get("saved"),
        "origin": cat.about.get("origin", "shipped with RigPlan"),
        "price_date": cat.about.get("price_date"),
        "counts": {k.value: n for k, n in cat.counts().items()},
        "your_corrections": len(cat.user_corrections),
        "previous": None if state["previous"] is None else (describe(prev) if prev else state["previous"]),
        "shipped": describe(SHIPPED_ABOUT),
        "folder": str(home),
        "problems": [str(p) for p in cat.problems if p.file in ("your corrections",) or problem],
    }
    if problem:
        out["problem"] = problem
    return out
