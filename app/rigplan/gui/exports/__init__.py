"""File > Export: the dialogs and actions; the drawing itself is rigplan.render's."""
