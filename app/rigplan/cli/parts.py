"""`rigplan parts list|show`: browse the catalog."""

from __future__ import annotations

import argparse
from typing import Any

from rigplan.catalog.overlay import snapshot_line
from rigplan.cli.argtypes import whole
from rigplan.cli.main import UsageError
from rigplan.cli.output import print_json, table
from rigplan.model.parts import Kind, Part

# Key specs per kind for the plain listing (the JSON output carries every field).
KEY_SPECS: dict[Kind, list[tuple[str, str]]] = {
    Kind.CPU: [("socket", "Socket"), ("cores", "Cores"), ("tdp_w", "TDP W"), ("pcie_lanes", "Lanes")],
    Kind.COOLER: [("height_mm", "Height mm"), ("radiator_mm", "Radiator mm"), ("water_cooled", "Liquid")],
    Kind.MOTHERBOARD: [("socket", "Socket"), ("form_factor", "Form"), ("ram_type", "RAM"), ("memory_slots", "Slots")],
    Kind.MEMORY: [("ram_type", "Type"), ("speed_mts", "MT/s"), ("modules", "Modules"), ("module_gb", "GB each")],
    Kind.STORAGE: [("capacity_gb", "GB"), ("interface", "Interface"), ("form_factor", "Form")],
    Kind.GPU: [
        ("vram_gb", "VRAM GB"),
        ("tdp_w", "TDP W"),
        ("length_mm", "Length mm"),
        ("slot_width", "Slots"),
        ("power_connectors", "Power"),
    ],
    Kind.PSU: [("wattage", "W"), ("efficiency", "Efficiency"), ("form_factor", "Form")],
    Kind.CASE: [
        ("form_factor", "Form"),
        ("max_gpu_length_mm", "GPU mm"),
        ("max_cooler_height_mm", "Cooler mm"),
        ("expansion_slots", "Slots"),
    ],
}


def _fmt(value: Any) -> str:
    if value is None:
        return "?"
    if hasattr(value, "describe"):
        return str(value.describe())
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _price(part: Part) -> str:
    return f"${part.price.amount:,.2f}" if part.price else "no price"


def _kind(value: str) -> Kind:
    try:
        return Kind(value.lower())
    except ValueError:
        raise UsageError(f"unknown kind {value!r}; choose one of: {', '.join(k.value for k in Kind)}") from None


def _load():
    from rigplan.catalog import load_catalog

    return load_catalog()


def cmd_list(ns: argparse.Namespace) -> int:
    kind = _kind(ns.kind) if ns.kind else None
    catalog = _load()
    parts = catalog.search(kind, ns.search or "", ns.where or [])
    total = len(parts)
    if ns.limit and ns.limit > 0:
        parts = parts[: ns.limit]
    if ns.json:
        print_json({"count": total, "parts": [p.model_dump(mode="json") for p in parts]})
        return 0
    if not parts:
        print("No parts match.")
        return 0
    specs = KEY_SPECS[kind] if kind else []
    rows = [[p.id, p.name[:70], *(_fmt(getattr(p, f, None)) for f, _ in specs), _price(p)] for p in parts]
    print(table(rows, ["ID", "Name", *(h for _, h in specs), "Price (USD)"]))
    shown = f"{len(parts)} of {total}" if len(parts) < total else str(total)
    print(f"\n{shown} parts ({snapshot_line(catalog.about)}); '?' = not known.")
    return 0


def cmd_show(ns: argparse.Namespace) -> int:
    catalog = _load()
    part = catalog.get(ns.id)
    if part is None:
        raise UsageError(f"no part with id {ns.id!r}; find ids with 'rigplan parts list --search TEXT'")
    if ns.json:
        doc = part.model_dump(mode="json")
        mine = [c.as_dict() for (pid, _), c in catalog.user_corrections.items() if pid == part.id]
        print_json({**doc, "your_corrections": mine} if mine else doc)
        return 0
    print(f"{part.name}  [{part.kind.label}]")
    for field in part.model_dump(exclude={"name", "kind"}):
        if field == "price":
            shown = part.price.describe() if part.price else "no price"
        else:
            shown = _fmt(getattr(part, field))
        mine = catalog.correction(part.id, field)
        print(f"  {field:24} {shown}" + (f"  <- {mine.label()}" if mine else ""))
    print(f"\n{snapshot_line(catalog.about)}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    parts = sub.add_parser("parts", help="browse the parts catalog")
    psub = parts.add_subparsers(dest="parts_command", metavar="ACTION", required=True, parser_class=type(parts))
    lst = psub.add_parser("list", help="list parts")
    lst.add_argument("--kind", help=f"one of: {', '.join(k.value for k in Kind)}")
    lst.add_argument("--search", help="words that must all appear in the name, maker or chipset")
    lst.add_argument(
        "--where",
        action="append",
        metavar="FIELD<op>VALUE",
        help="filter such as vram_gb>=24 or socket=AM5 (repeatable; unknown values never match)",
    )
    lst.add_argument("--limit", type=whole("--limit", 0, 10_000_000), default=0, help="show at most this many")
    lst.add_argument("--json", action="store_true", help="machine-readable output")
    lst.set_defaults(func=cmd_list)
    show = psub.add_parser("show", help="show one part")
    show.add_argument("id")
    show.add_argument("--json", action="store_true")
    show.set_defaults(func=cmd_show)
    from rigplan.cli.corrections import register_under

    register_under(psub)
