"""Shared fixtures. The real catalog (the committed parts/) is loaded once per test session."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

# Qt tests run headless even when pytest is called directly (scripts/dev test sets this too).
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest

from rigplan.catalog import Catalog, load_catalog

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"


# Every per-user folder the app, Qt and the CLI could read or write (rigplan.paths, QStandardPaths): a test must never
# see the developer's own prices, settings, autosaves or caches, nor leave anything in them.
HOME_VARS = {
    "HOME": "",
    "XDG_DATA_HOME": ".local/share",
    "XDG_CONFIG_HOME": ".config",
    "XDG_CACHE_HOME": ".cache",
    "XDG_STATE_HOME": ".local/state",
    "APPDATA": "AppData/Roaming",
    "LOCALAPPDATA": "AppData/Local",
    "RIGPLAN_CACHE_DIR": ".cache/rigplan",
}


@pytest.fixture(autouse=True)
def own_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh, empty home for each test and every subprocess it starts (they inherit os.environ). Its own folder,
    not tmp_path, so a test that lists its tmp_path finds only its own files."""
    home = tmp_path_factory.mktemp("home")
    for var, sub in HOME_VARS.items():
        monkeypatch.setenv(var, str(home / sub))
    monkeypatch.delenv("RIGPLAN_PARTS_DIR", raising=False)  # the committed parts/, whatever the shell says
    return home


@pytest.fixture(scope="module")
def module_home(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201 - a generator fixture
    """own_home for a module-scoped fixture (one answer shared by the module's tests), which is set up before any
    function-scoped fixture: the same fresh, empty home until the module's last test ends."""
    home = tmp_path_factory.mktemp("home")
    with pytest.MonkeyPatch.context() as mp:
        for var, sub in HOME_VARS.items():
            mp.setenv(var, str(home / sub))
        mp.delenv("RIGPLAN_PARTS_DIR", raising=False)
        yield home


@pytest.fixture(scope="session")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    cat = load_catalog(ROOT / "parts", cache_dir=tmp_path_factory.mktemp("cache"))
    assert cat.source == "bundled", "parts/catalog.json is out of date: run python tools/import_opendb.py"
    return cat


@pytest.fixture
def cli_gets_the_session_catalog(catalog: Catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    """`rigplan` commands run in the test's process (run_cli) get the session's `catalog` where `load_catalog()`
    would load the same shipped catalog again: no parts folder given, no RIGPLAN_PARTS_DIR, and no catalog folder
    in the user's data folder (no update installed, no corrections: own_home's fresh home). Anything else loads for
    real. A suggest command on a freshly loaded catalog first builds the rules' per-table verdicts (0.6-1.1 s of
    CPU each time, 50-odd times in the suggester's CLI tests); the session's catalog has them. The command's
    parsing, question, search, output and exit code are the real command's; suggest() never changes the catalog."""
    import rigplan.catalog
    from rigplan.catalog.overlay import catalog_home

    real = rigplan.catalog.load_catalog

    def shipped(
        parts_dir: Path | None = None,
        cache_dir: Path | None = None,
        progress: object = None,
        data_dir: Path | None = None,
    ) -> Catalog:
        if parts_dir is None and not os.environ.get("RIGPLAN_PARTS_DIR") and not catalog_home(data_dir).exists():
            return catalog
        return real(parts_dir, cache_dir, progress, data_dir)  # type: ignore[arg-type]

    monkeypatch.setattr("rigplan.catalog.load_catalog", shipped)


@pytest.fixture(scope="session")
def reduced_dir(catalog: Catalog, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A reduced real shipped parts folder for the catalog-update tests (tests/reduced_parts.py)."""
    import reduced_parts

    return reduced_parts.build(catalog, tmp_path_factory.mktemp("reduced") / "parts")


@pytest.fixture(scope="session")
def reduced_catalog(reduced_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    cat = load_catalog(reduced_dir, cache_dir=tmp_path_factory.mktemp("cache"))
    assert cat.source == "bundled" and not cat.problems, cat.problems
    return cat


@pytest.fixture
def shipped_is_reduced(own_home: Path, reduced_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The reduced folder as the shipped catalog of this test and the processes it starts (after own_home)."""
    monkeypatch.setenv("RIGPLAN_PARTS_DIR", str(reduced_dir))
    return reduced_dir


@pytest.fixture(scope="session")
def examples_dir() -> Path:
    return EXAMPLES


@pytest.fixture
def full_disk(tmp_path: Path):  # noqa: ANN201 - a generator fixture
    """A real 256 KB tmpfs (needs root on Linux): the way to run out of space for real."""
    if not sys.platform.startswith("linux") or os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root on Linux")
    mnt = tmp_path / "small"
    mnt.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(mnt)], capture_output=True).returncode:
        pytest.skip("cannot mount a tmpfs here")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], check=False)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """With pytest-xdist (`bash scripts/dev test` on 2+ cores) the files that hold a test marked slow run first,
    each file kept whole (its module fixtures built once), the rest in their usual order: a minute-long test left for
    the end keeps one worker busy while the other idles. Without -n the order is untouched."""
    if not getattr(config.option, "numprocesses", None):
        return
    heavy = {item.path for item in items if item.get_closest_marker("slow") is not None}
    items.sort(key=lambda item: item.path not in heavy)  # a stable sort: the order inside each group is kept


def pytest_configure(config: pytest.Config) -> None:
    """Compile rigplan's bytecode once, before any test starts a `python -m rigplan` (hundreds per run). With
    PYTHONDONTWRITEBYTECODE set (CI sandboxes, this machine) no process writes it, so every subprocess compiled about
    110 modules from source again: 0.3-0.4 s of CPU each. Existing .pyc files are still read under that setting.
    Under xdist each worker runs this too; files already compiled are skipped, and each write is atomic."""
    import compileall

    import rigplan

    compileall.compile_dir(Path(rigplan.__file__).parent, quiet=2, workers=1)
