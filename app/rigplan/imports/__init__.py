"""Bringing outside lists into RigPlan: PCPartPicker part lists and price files (issue 19).

Pure Python, no Qt: the GUI and the CLI both call these modules.
"""
