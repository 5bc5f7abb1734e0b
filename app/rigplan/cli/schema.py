"""`rigplan schema build`: the JSON Schema of build files."""

from __future__ import annotations

import argparse

from rigplan.files.buildfile import schema_text


def cmd_schema(ns: argparse.Namespace) -> int:
    print(schema_text())
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("schema", help="print a JSON Schema")
    p.add_argument("what", choices=["build"], help="which schema")
    p.set_defaults(func=cmd_schema)
