"""Cloud prices > Update: fetching current cloud offers in a worker thread and showing the result."""
