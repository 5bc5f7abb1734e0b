"""The PySide6 skin over the core. Only this package imports Qt."""
