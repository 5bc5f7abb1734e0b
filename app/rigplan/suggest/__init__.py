"""Suggest the best build under a budget, exactly (docs/suggest.md). Pure Python, no Qt."""

from rigplan.suggest.explain import Alternative, Suggestion, suggest
from rigplan.suggest.question import FitNeed, Goal, Question, SuggestError
from rigplan.suggest.search import Cancelled

__all__ = ["Alternative", "Cancelled", "FitNeed", "Goal", "Question", "SuggestError", "Suggestion", "suggest"]
