"""The user's own price layer: prices they imported for catalog parts, kept in their data folder
(`user-prices.json`), shown as "your price" and removable. The bundled catalog files are never edited.

How it is applied:
  * the catalog: `apply_to_catalog(catalog, prices)` replaces the price of those parts in the loaded catalog (in
    memory only), with the source "your price: <source>", so the part picker, search and anything that reads
    `part.price` see it; removing a price and reloading the catalog brings back the bundled one;
  * a build: a part added from the catalog carries that price as its `part.price`; a build's own price
    (`price_override`) still wins over it, as over any catalog price.
The suggester's "my own prices too" option can call `load_user_prices()` and use the amounts in place of the
catalog's.
"""

from __future__ import annotations

import json
import os
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from rigplan.catalog.loader import Catalog
from rigplan.files.errors import BuildFileError
from rigplan.files.oslock import locked
from rigplan.files.safeio import read_user_bytes, write_atomic
from rigplan.model import Price
from rigplan.model.errors import one_line_validation
from rigplan.paths import default_data_dir, own_folder

FILE_NAME = "user-prices.json"
FORMAT_VERSION = 1
YOUR_PRICE = "your price"
MAX_BYTES = 20_000_000


class UserPricesError(ValueError):
    """The user's price file cannot be read: one line for the user (the file is left as it is)."""


def prices_path(data_dir: Path | None = None) -> Path:
    return (data_dir or default_data_dir()) / FILE_NAME


def load_user_prices(data_dir: Path | None = None) -> dict[str, Price]:
    """Part id -> the user's price (amount, currency, date, source). No file: no prices. A broken file raises
    UserPricesError rather than being taken for an empty one (which the next save would overwrite)."""
    path = prices_path(data_dir)
    if not os.path.lexists(path):
        return {}
    try:
        raw = read_user_bytes(path, MAX_BYTES, what="price file")  # a FIFO or a folder here is refused, not waited on
    except BuildFileError as exc:
        raise UserPricesError(str(exc)) from None
    try:
        doc = json.loads(raw.decode("utf-8"))
        if not isinstance(doc, dict) or doc.get("format") != FORMAT_VERSION:
            raise ValueError(f"expected format {FORMAT_VERSION}")
        if not isinstance(doc.get("prices"), dict):
            raise ValueError("no 'prices' table")
        out: dict[str, Price] = {}
        for pid, p in doc["prices"].items():
            try:
                out[str(pid)] = Price.model_validate(p)
            except ValidationError as exc:  # the part and the field, with its limit, in one line
                raise ValueError(f"prices.{str(pid)[:80]}.{one_line_validation(exc)}") from None
        return out
    except RecursionError:  # json recurses once per nesting level
        reason = "nested too deeply"
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        reason = str(exc).splitlines()[0]
    raise UserPricesError(f"{path} is not a RigPlan price file ({reason}); it was left as it is")


def save_user_prices(prices: dict[str, Price], data_dir: Path | None = None) -> Path:
    """Replace the whole file. Callers that change part of it go through add/remove (locked read-merge-write)."""
    path = prices_path(data_dir)
    try:
        own_folder(path.parent)  # the user's own folder, never another user's (rigplan.paths)
    except OSError as exc:
        raise UserPricesError(f"cannot create the data folder {path.parent} ({exc.strerror or exc})") from None
    doc: dict[str, Any] = {
        "format": FORMAT_VERSION,
        "prices": {pid: p.model_dump(mode="json") for pid, p in sorted(prices.items())},
    }
    data = (json.dumps(doc, indent=1, ensure_ascii=False) + "\n").encode("utf-8")
    try:
        write_atomic(path, data, keep_backup=True, limit=MAX_BYTES, what="price file")
    except BuildFileError as exc:
        raise UserPricesError(str(exc)) from None
    return path


@contextmanager
def _locked(data_dir: Path | None) -> Iterator[None]:
    path = prices_path(data_dir)
    try:
        own_folder(path.parent)  # the user's own folder, never another user's (rigplan.paths)
        with locked(path):
            yield
    except OSError as exc:  # the data folder is a file, read-only, or the lock waited too long
        raise UserPricesError(f"cannot change {path} ({exc.strerror or exc})") from None


def add_user_prices(new: dict[str, Price], data_dir: Path | None = None) -> dict[str, Price]:
    """Merge `new` into the file: under the lock, the file is read again, so prices another process added since
    are kept."""
    with _locked(data_dir):
        prices = load_user_prices(data_dir)
        prices.update(new)
        save_user_prices(prices, data_dir)
    return prices


def remove_user_prices(part_ids: list[str] | None, data_dir: Path | None = None) -> list[str]:
    """Remove these parts' prices (None: all of them). Returns the ids removed."""
    with _locked(data_dir):
        prices = load_user_prices(data_dir)
        gone = list(prices) if part_ids is None else [p for p in part_ids if p in prices]
        for pid in gone:
            del prices[pid]
        save_user_prices(prices, data_dir)
    return gone


# The bundled price of each part a user price replaced, per loaded catalog, so removing it brings that back.
_BUNDLED: weakref.WeakKeyDictionary[Catalog, dict[str, Any]] = weakref.WeakKeyDictionary()


def _set(catalog: Catalog, part_id: str, value: Any, remember: bool = True) -> bool:
    for table in catalog.tables.values():
        try:
            i = table.ids.index(part_id)
        except ValueError:
            continue
        col = table.columns.setdefault("price", [None] * len(table.ids))
        if remember:
            _BUNDLED.setdefault(catalog, {}).setdefault(part_id, col[i])
        col[i] = value
        table._parts[i] = None  # noqa: SLF001 - the cached Part must be rebuilt with the new price
        return True
    return False


def apply_to_catalog(catalog: Catalog, prices: dict[str, Price]) -> int:
    """Show the user's prices in the loaded catalog (memory only). Returns how many parts got one."""
    n = 0
    for pid, p in prices.items():
        shown = p.model_copy(update={"source": f"{YOUR_PRICE}: {p.source}" if p.source else YOUR_PRICE})
        n += _set(catalog, pid, shown.model_dump(mode="json"))
    return n


def bundled_prices(catalog: Catalog) -> dict[str, Any]:
    """The catalog's own price (as stored, None for none) of each part whose price the user's layer replaced in this
    loaded catalog: what "catalog prices only" means once the layer is applied (the build suggester uses it)."""
    return dict(_BUNDLED.get(catalog, {}))


def restore_in_catalog(catalog: Catalog, part_ids: list[str]) -> int:
    """Put the bundled prices back for these parts (after their user prices were removed)."""
    saved = _BUNDLED.get(catalog, {})
    n = 0
    for pid in part_ids:
        if pid in saved:
            n += _set(catalog, pid, saved.pop(pid), remember=False)
    return n
