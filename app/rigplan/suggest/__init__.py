"""Suggest the best build under a budget, exactly (docs/suggest.md). Pure Python, no Qt."""

from rigplan.suggest.question import Goal, Question, SuggestError

__all__ = ["Goal", "Question", "SuggestError"]
