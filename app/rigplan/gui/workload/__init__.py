"""The Workload panel (issue 28): rigplan.gui.workload.panel.WorkloadPanel, a tab of the Costs view beside the
break-even chart (rigplan.gui.workload.tab). Nothing is imported here, so the planner loads with the charts."""
