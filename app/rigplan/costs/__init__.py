"""Costs of owning vs renting: GPU performance, the cost model, commitments, FX and resale. No Qt. (The cloud offers
themselves are rigplan.cloud's.)"""
