"""Small widgets shared by the workspaces (no feature logic)."""
