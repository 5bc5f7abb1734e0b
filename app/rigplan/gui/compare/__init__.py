"""Compare builds: the side-by-side table and chart of several build files."""
