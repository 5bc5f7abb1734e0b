"""RigPlan: plan a deep-learning workstation, check it, and compare owning it with renting."""

__version__ = "0.1.0"
APP_ID = "io.github.rigplan.RigPlan"
BUILD_SUFFIX = ".rigplan.yaml"  # build files; also the MIME glob and the OS file associations
