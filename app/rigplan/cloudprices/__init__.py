"""Current cloud prices: fetch gpuhunt's published catalog or import a price file, map it onto RigPlan's offers and
keep it as a dated cache in the user's data folder. Pure Python (no Qt); gpuhunt is imported only on this path."""
