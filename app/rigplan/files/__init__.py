"""Build files: load, save, schema. No Qt."""

from rigplan.files.buildfile import SUFFIX, dumps, json_schema, load, loads, save
from rigplan.files.errors import BuildFileError
from rigplan.files.resolve import missing_from_catalog

__all__ = ["SUFFIX", "BuildFileError", "dumps", "json_schema", "load", "loads", "missing_from_catalog", "save"]
