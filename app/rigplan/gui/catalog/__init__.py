"""Parts catalog: the update from OpenDB and the user's corrections (issue 38)."""
