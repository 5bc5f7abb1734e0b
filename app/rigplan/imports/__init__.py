"""Bringing outside lists into RigPlan: PCPartPicker part lists, price files and your own part prices (issue 19).

Pure Python, no Qt: the GUI and the CLI both call these modules.
"""
