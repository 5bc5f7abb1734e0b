"""Costs of owning vs renting: offers, GPU performance, cost model. No Qt."""
