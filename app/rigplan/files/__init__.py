"""Build files: load, save, schema. No Qt."""

from rigplan.files.buildfile import (
    SUFFIX,
    dumps,
    is_build_name,
    json_schema,
    load,
    load_tracked,
    loads,
    save,
    with_build_suffix,
)
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
    "is_build_name",
    "json_schema",
    "load",
    "load_tracked",
    "loads",
    "missing_from_catalog",
    "save",
    "with_build_suffix",
]
