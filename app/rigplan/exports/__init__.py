"""Exports: every shareable format from the Qt-free core (Markdown, CSV, comparison); PDF and images: rigplan.render."""
