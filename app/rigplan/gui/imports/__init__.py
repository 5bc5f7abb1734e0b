"""File > Import: pasting a parts list and reviewing the matches, and the user's own price files."""
