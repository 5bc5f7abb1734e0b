"""Cloud GPU offers and their caches, in one package: the bundled snapshot (offers.py), the dated cache of updated
prices in the user's data folder and the offers in use (store.py), updates from gpuhunt's published catalog and
imported SkyPilot or gpuhunt price files (update.py, fetch.py, gpuhunt_map.py, skypilot_file.py). The Offer type
itself is in rigplan.model.offers. Pure Python (no Qt); gpuhunt is imported only on the update/import path."""
