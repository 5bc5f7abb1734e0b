"""The PySide6 skin over the core, by feature (parts, costs, files, ...). Only this package and rigplan.render import
Qt."""
