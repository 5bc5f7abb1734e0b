"""`Update prices` and `Import a price file`: one path from the source to the dated cache (rigplan.cloud.store).
Any failure raises PriceUpdateError with one line, before the cache is touched: the old prices stay in use."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rigplan.cloud import gpuhunt_map, skypilot_file, store
from rigplan.cloud.fetch import DEFAULT_PROVIDERS, Cancelled, PriceUpdateError, Progress, base_url, fetch_catalogs
from rigplan.cloud.quirks import flag_estimated_speed
from rigplan.files.errors import BuildFileError
from rigplan.files.safeio import read_user_text

MAX_FILE_BYTES = 100_000_000  # a SkyPilot or gpuhunt CSV is a few MB
PRICE_KEYS = ("ondemand_usd_h", "spot_usd_h", "reserved_1y_usd_h", "reserved_3y_usd_h")


def update(
    user_dir: Path,
    providers: tuple[str, ...] = DEFAULT_PROVIDERS,
    url: str | None = None,
    progress: Progress | None = None,
    cancelled: Callable[[], bool] = lambda: False,
    timeout: float | None = None,
) -> store.PriceSet:
    report = progress or (lambda share, text: None)
    kw = {"timeout": timeout} if timeout else {}
    fetched = fetch_catalogs(providers, url, lambda s, t: report(0.9 * s, t), cancelled, **kw)
    raw, meta = [], {}
    for f in fetched:
        if cancelled():
            raise Cancelled()
        report(0.9, f"{f.provider}: reading the catalog")
        offers = priced_only(gpuhunt_map.offers_from_fetched(f), f.url)
        day = gpuhunt_map.version_date(f.version)
        meta[gpuhunt_map.rigplan_provider(f.provider)] = {
            "version": f.version,
            "date": day.isoformat() if day else None,
            "offers": len(offers),
            "origin": f.url,
        }
        raw += offers
    flag_estimated_speed(raw)
    report(0.95, "saving")
    if cancelled():  # the last moment a cancel can still leave the cache untouched
        raise Cancelled()
    ps = store.save(user_dir, raw, f"gpuhunt catalog at {base_url(url)}", meta)
    report(1.0, f"{len(raw):,} offers saved")
    return ps


def priced_only(raw: list[dict[str, Any]], where: str) -> list[dict[str, Any]]:
    """The offers with at least one usable hourly price. None at all: refused, so a file or catalog whose prices
    are all missing or unreadable never replaces a provider's offers with unpriced ones."""
    keep = [r for r in raw if any(r.get(k) for k in PRICE_KEYS)]
    if not keep:
        raise PriceUpdateError(f"{where}: no row has a usable price (on-demand or spot); nothing was replaced")
    return keep


def _provider_for(path: Path, given: str | None, kind: str) -> str:
    if given:
        return given
    # gpuhunt names its files <provider>.csv; SkyPilot keeps catalogs/vN/<cloud>/vms.csv
    guess = path.stem if kind == "gpuhunt" else path.parent.name
    known = {"aws", "gcp", "azure", "lambda", "lambdalabs", "runpod", "nebius", "oci", "verda", "cloudrift"}
    if guess.lower() in known:
        return guess.lower()
    raise PriceUpdateError(f"{path.name}: cannot tell the provider from the file name; give it (--provider aws)")


def import_file(user_dir: Path, path: Path, provider: str | None = None, date: dt.date | None = None) -> store.PriceSet:
    """A SkyPilot vms.csv or a gpuhunt CSV; `date` is the day its prices were read, when the user knows it."""
    path = path.expanduser().resolve()  # the cache records where its prices came from
    try:  # the one safe reader: a FIFO is refused at once, the size is capped
        text = read_user_text(path, MAX_FILE_BYTES, what="price file")
    except BuildFileError as exc:
        raise PriceUpdateError(str(exc)) from None
    head = text.split("\n", 1)[0]
    if "InstanceType" in head:
        prov = _provider_for(path, provider, "skypilot")
        prov = gpuhunt_map.rigplan_provider(prov)
        raw = skypilot_file.offers_from_vms_csv(text, prov, str(path))
        kind = "SkyPilot vms.csv"
    elif "instance_name" in head:
        prov = _provider_for(path, provider, "gpuhunt")
        gh = "lambdalabs" if prov == "lambda" else prov
        raw = gpuhunt_map.offers_from_csv_text(text, gh, str(path), date)
        prov = gpuhunt_map.rigplan_provider(gh)
        kind = "gpuhunt CSV"
    else:
        raise PriceUpdateError(
            f"{path}: neither a SkyPilot vms.csv (InstanceType, ...) nor a gpuhunt CSV (instance_name, ...)"
        )
    if not raw:
        raise PriceUpdateError(f"{path}: no GPU offers in it")
    raw = priced_only(raw, str(path))
    flag_estimated_speed(raw)
    today = dt.datetime.now(dt.UTC).date().isoformat()
    for r in raw:
        r["data_date"] = date.isoformat() if date else None
        r["data_date_note"] = (
            f"as given when imported on {today}"
            if date
            else f"imported {today} from {path.name}; the file does not say when its prices were read"
        )
    day = date.isoformat() if date else None
    meta = {prov: {"version": kind, "date": day, "offers": len(raw), "origin": str(path)}}
    return store.save(user_dir, raw, f"{kind} {path}", meta)
