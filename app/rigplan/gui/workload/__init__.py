"""The Workload panel (issue 28): a self-contained widget the main window places beside the Costs chart."""

from rigplan.gui.workload.panel import WorkloadPanel

__all__ = ["WorkloadPanel"]
