"""RigPlan: plan a deep-learning workstation, check it, and compare owning it with renting."""

__version__ = "0.1.0"
APP_ID = "io.github.rigplan.RigPlan"
# Build files are saved as NAME.rigplan (YAML inside): one extension, because Windows and macOS key file
# associations on the last part of a name only. Files saved as NAME.rigplan.yaml by earlier versions and any .yaml/.yml
# build still open. The MIME globs and the OS associations (resources/, packaging/) use both build suffixes.
BUILD_SUFFIX = ".rigplan"
OLD_BUILD_SUFFIX = ".rigplan.yaml"
OPEN_SUFFIXES = (BUILD_SUFFIX, OLD_BUILD_SUFFIX, ".yaml", ".yml")  # what the Open dialog lists as builds
