"""The render seam: the only Qt-using package outside rigplan.gui.

PDF reports and chart images (PNG, SVG) are drawn by Qt's painter and pyqtgraph. Both the GUI (File > Export,
Compare) and the CLI (`rigplan export --format pdf|png|svg`) draw through this package, so the CLI never imports
rigplan.gui. It reads the exports layer's Plan and Comparison and holds no window state. `syslibs` checks, before Qt
is imported, that a frozen Linux app has the system libraries Qt needs.
"""
