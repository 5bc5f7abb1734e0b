"""Save a screenshot of an X display as PNG, with Qt (no ImageMagick needed):

DISPLAY=:118 QT_QPA_PLATFORM=xcb python packaging/linux/grab_screen.py OUT.png
"""

import sys

from PySide6.QtGui import QGuiApplication

app = QGuiApplication(sys.argv[:1])
shot = app.primaryScreen().grabWindow(0)  # window 0: the whole screen
sys.exit(0 if not shot.isNull() and shot.save(sys.argv[1]) else 1)
