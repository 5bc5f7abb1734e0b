"""The dated price cache in the user's data folder, and the offers the app uses: the bundled snapshot, with the
current offers of each provider in the cache replaced by the cached ones. Historic (dated 2017-2022) offers always
come from the bundle, and so do instance types the update does not list. "Revert to bundled prices" sets the cache
aside (kept as a .reverted file, never deleted)."""

from __future__ import annotations

import datetime as dt
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from rigplan.cloud.cachepath import cache_file, prices_home
from rigplan.cloud.fetch import PriceUpdateError
from rigplan.cloud.offers import OfferCatalog, load_offers
from rigplan.files.errors import BuildFileError
from rigplan.files.oslock import locked
from rigplan.files.safeio import move_aside, read_user_bytes, write_atomic
from rigplan.model.errors import one_line_validation
from rigplan.model.offers import Offer
from rigplan.paths import own_folder

__all__ = [
    "BUNDLED",
    "PriceSet",
    "cache_file",
    "load_cache",
    "load_prices",
    "merge",
    "offers_in_use",
    "revert",
    "save",
    "status",
]
CACHE_FORMAT = 1
BUNDLED = "bundled snapshot (SkyPilot catalog v9, prices from after 2025-06)"


@dataclass
class PriceSet:
    saved: dt.datetime  # when this machine stored it (UTC)
    origin: str  # the address or file it came from
    providers: dict[str, dict[str, Any]]  # RigPlan provider -> {"version", "date", "offers", "origin"}
    offers: list[Offer] = field(default_factory=list)

    def as_of(self) -> str:
        """The prices' own date(s), e.g. "2026-11-23 (aws, gcp)"; the save time when no source gives one."""
        dates: dict[str, list[str]] = {}
        for p, meta in sorted(self.providers.items()):
            dates.setdefault(meta.get("date") or "date unknown", []).append(p)
        return "; ".join(f"{d} ({', '.join(ps)})" for d, ps in sorted(dates.items()))


MAX_CACHE_BYTES = 200_000_000  # far above any real catalog (the whole gpuhunt set is a few MB of JSON)


def load_cache(user_dir: Path | None, move_bad: bool = False) -> tuple[PriceSet | None, str | None]:
    """(the cache, None), (None, None) when there is none, or (None, the problem) when it cannot be read: any
    content at all (`[]`, deep nesting, a FIFO, a wrong type) ends here, never in an exception. With `move_bad`
    (the window's start-up), an unreadable cache is moved aside as `.corrupt-<date>` so the next update starts anew."""
    if user_dir is None:
        return None, None
    path = cache_file(user_dir)
    if not os.path.lexists(path):
        return None, None
    try:
        doc = json.loads(read_user_bytes(path, MAX_CACHE_BYTES, what="price cache"))
        if not isinstance(doc, dict):
            raise TypeError(f"a JSON {type(doc).__name__}, not an object")
        if doc.get("format") != CACHE_FORMAT:
            return None, f"{path}: cache format {doc.get('format')!r} unknown; using the bundled prices"
        if not isinstance(doc.get("offers"), list) or not isinstance(doc.get("providers"), dict):
            raise TypeError("no offers list or providers table")
        offers = [Offer.model_validate(o) for o in doc["offers"]]
        return PriceSet(dt.datetime.fromisoformat(doc["saved"]), str(doc["origin"]), doc["providers"], offers), None
    except RecursionError:
        why = "nested too deeply"
    except ValidationError as exc:
        why = one_line_validation(exc)
    except BuildFileError as exc:
        why = exc.message
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        why = " ".join(f"{type(exc).__name__}: {exc}".split())[:200]
    moved = move_aside(path) if move_bad else None
    where = f"; moved aside to {moved.name}" if moved else ""
    return None, f"{path} is unreadable ({why}){where}; using the bundled prices"


def save(user_dir: Path, raw: list[dict[str, Any]], origin: str, providers: dict[str, dict[str, Any]]) -> PriceSet:
    """Validate every offer, then, holding the cache's lock, read the cache again, keep the providers this update
    did not cover and replace it atomically: two updates or imports at once never lose each other's providers."""
    offers = []
    for r in raw:
        try:
            offers.append(Offer.model_validate({k: v for k, v in r.items() if v is not None}))
        except ValidationError as exc:  # beyond the model's bounds (1e308 USD/h): the field and its limit
            raise PriceUpdateError(f"{origin}: offer {r.get('id')} is invalid ({one_line_validation(exc)})") from None
    target = cache_file(user_dir)
    try:
        own_folder(target.parent)  # the user's own folder, never another user's (rigplan.paths)
        with locked(target):
            return _merge_and_write(user_dir, target, offers, origin, providers)
    except (OSError, BuildFileError) as exc:
        raise PriceUpdateError(f"cannot store the prices: {exc}") from None


def _merge_and_write(
    user_dir: Path, target: Path, offers: list[Offer], origin: str, providers: dict[str, dict[str, Any]]
) -> PriceSet:
    old, _ = load_cache(user_dir)
    if old is not None:
        keep = [o for o in old.offers if o.provider not in providers]
        providers = {**{p: m for p, m in old.providers.items() if p not in providers}, **providers}
        offers = keep + offers
    ids: dict[str, int] = {}
    unique = []
    for o in offers:  # the same id twice would hide one offer from a build file that names it
        n = ids[o.id] = ids.get(o.id, 0) + 1
        unique.append(o if n == 1 else o.model_copy(update={"id": f"{o.id}#{n}"}))
    ps = PriceSet(dt.datetime.now(dt.UTC).replace(microsecond=0), origin, providers, unique)
    doc = {
        "format": CACHE_FORMAT,
        "saved": ps.saved.isoformat(),
        "origin": origin,
        "providers": providers,
        "offers": [o.model_dump(mode="json", exclude_none=True) for o in unique],
    }
    # the project's atomic write: a complete file or the old one, the previous kept as cloud-prices.json.bak
    data = json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    write_atomic(target, data, keep_backup=True, limit=MAX_CACHE_BYTES, what="price cache")
    return ps


def revert(user_dir: Path) -> bool:
    """Back to the bundled prices; the cache is renamed, not deleted. False: there was nothing to revert."""
    path = cache_file(user_dir)
    if not path.is_file():
        return False
    os.replace(path, path.with_suffix(".json.reverted"))
    return True


def merge(bundled: OfferCatalog, cached: PriceSet | None, problem: str | None = None) -> OfferCatalog:
    if cached is None:
        cat = OfferCatalog(bundled.offers, bundled.problem or problem)
        cat.origin = BUNDLED
        return cat
    covered = set(cached.providers)
    fresh = {(o.provider, o.instance_type) for o in cached.offers}
    # An instance type the update does not list at all stays with its bundled (older, dated) price: gpuhunt leaves
    # out AWS's previous generations (p3, g4ad), which are still rented and still compared against.
    kept = [
        o
        for o in bundled.offers
        if o.provider not in covered or o.snapshot != "current" or (o.provider, o.instance_type) not in fresh
    ]
    cat = OfferCatalog(kept + cached.offers, bundled.problem)
    cat.origin = f"updated {cached.saved.date().isoformat()} from {cached.origin}; prices as of {cached.as_of()}"
    return cat


def load_prices(user_dir: Path | None, folder: Path | None = None, move_bad: bool = False) -> OfferCatalog:
    """The offers the app uses: bundled, with the user's cached update applied when there is one."""
    cached, problem = load_cache(user_dir, move_bad)
    return merge(load_offers(folder), cached, problem)


def offers_in_use() -> OfferCatalog:
    """The one offer catalog every command and view uses: the bundled offers with the user's updated prices (in
    prices_home(), shared by the CLI and the GUI) applied. Read afresh on each call, so an update is seen at once."""
    return load_prices(prices_home())


def status(user_dir: Path) -> dict[str, Any]:
    cached, problem = load_cache(user_dir)
    out: dict[str, Any] = {"cache": str(cache_file(user_dir)), "in_use": "bundled" if cached is None else "updated"}
    if problem:
        out["problem"] = problem
    if cached is not None:
        out.update(
            saved=cached.saved.isoformat(),
            origin=cached.origin,
            prices_as_of=cached.as_of(),
            providers=cached.providers,
            offers=len(cached.offers),
        )
    else:
        out["prices_as_of"] = BUNDLED
    return out
