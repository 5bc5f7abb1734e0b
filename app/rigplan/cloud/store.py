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
from rigplan.files.safeio import write_atomic
from rigplan.model.offers import Offer

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


def load_cache(user_dir: Path | None) -> tuple[PriceSet | None, str | None]:
    """(the cache, None), (None, None) when there is none, or (None, the problem) when it cannot be read."""
    if user_dir is None:
        return None, None
    path = cache_file(user_dir)
    if not path.is_file():
        return None, None
    try:
        doc = json.loads(path.read_text("utf-8"))
        if doc.get("format") != CACHE_FORMAT:
            return None, f"{path}: cache format {doc.get('format')!r} unknown; using the bundled prices"
        offers = [Offer.model_validate(o) for o in doc["offers"]]
        return PriceSet(dt.datetime.fromisoformat(doc["saved"]), doc["origin"], doc["providers"], offers), None
    except (OSError, ValueError, KeyError, TypeError, ValidationError) as exc:
        return None, f"{path} is unreadable ({type(exc).__name__}); using the bundled prices"


def save(user_dir: Path, raw: list[dict[str, Any]], origin: str, providers: dict[str, dict[str, Any]]) -> PriceSet:
    """Validate every offer, keep cached providers this update did not cover, then replace the cache atomically."""
    offers = []
    for r in raw:
        try:
            offers.append(Offer.model_validate({k: v for k, v in r.items() if v is not None}))
        except ValidationError as exc:
            first = exc.errors()[0]
            raise PriceUpdateError(
                f"{origin}: offer {r.get('id')} is invalid ({'.'.join(map(str, first['loc']))}: {first['msg']})"
            ) from exc
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
    target = cache_file(user_dir)
    try:  # the project's atomic write: a complete file or the old one, the previous kept as cloud-prices.json.bak
        target.parent.mkdir(parents=True, exist_ok=True)
        data = json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        write_atomic(target, data, keep_backup=True, limit=MAX_CACHE_BYTES)
    except (OSError, BuildFileError) as exc:
        raise PriceUpdateError(f"cannot store the prices: {exc}") from None
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


def load_prices(user_dir: Path | None, folder: Path | None = None) -> OfferCatalog:
    """The offers the app uses: bundled, with the user's cached update applied when there is one."""
    cached, problem = load_cache(user_dir)
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
