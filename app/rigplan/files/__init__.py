"""Build files: load, save, schema. No Qt."""

from rigplan.files.buildfile import SUFFIX, dumps, json_schema, load, load_tracked, loads, save
from rigplan.files.errors import BuildFileError, FileChangedError, ReadOnlyFileError
from rigplan.files.resolve import missing_from_catalog
from rigplan.files.safeio import Fingerprint, SaveResult

__all__ = [
    "SUFFIX",
    "BuildFileError",
    "FileChangedError",
    "Fingerprint",
    "ReadOnlyFileError",
    "SaveResult",
    "dumps",
    "json_schema",
    "load",
    "load_tracked",
    "loads",
    "missing_from_catalog",
    "save",
]
