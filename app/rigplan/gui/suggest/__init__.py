"""Build > Suggest: the dialog that runs the suggester and shows its builds."""
