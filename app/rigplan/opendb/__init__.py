"""BuildCores OpenDB into RigPlan's catalog: the importer `make data` runs (tools/import_parts.py is its command line),
its data-quality layer and the corrections by part id, and the catalog update the app runs on a newer OpenDB archive.

Here rather than in tools/ because the installed app converts an archive with the very same code (issue 38)."""
