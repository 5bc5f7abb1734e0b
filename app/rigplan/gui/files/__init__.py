"""The build as a document (undo stack) and its file life: open, save, the changed-on-disk guard, autosave and recovery,
files handed over by the OS."""
