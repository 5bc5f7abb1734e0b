"""The Costs workspace: the assumptions form, the cloud offers table, the break-even, breakdown and tornado charts, and
the summary text."""
