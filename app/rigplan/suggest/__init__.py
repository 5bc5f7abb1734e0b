"""Suggest the best build under a budget, exactly (docs/suggest.md). Pure Python, no Qt."""

from rigplan.suggest.answer import Suggestion, check_text, suggest
from rigplan.suggest.explain import Alternative
from rigplan.suggest.question import FitNeed, Goal, Question, SuggestError
from rigplan.suggest.search import Cancelled

__all__ = [
    "Alternative",
    "Cancelled",
    "FitNeed",
    "Goal",
    "Question",
    "SuggestError",
    "Suggestion",
    "check_text",
    "suggest",
]
