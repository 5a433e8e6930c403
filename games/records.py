"""A game's record in the engine's text format (see ``docs/records.md``)."""

from __future__ import annotations

from . import eventstore as es
from .models import Game


def record_text(game: Game) -> str:
    """The record of ``game`` written by :mod:`engine.records`.

    :raises LookupError: the engine offers no record writer.
    """
    try:
        from engine import records
    except ModuleNotFoundError:
        raise LookupError("the engine has no record writer (engine.records) yet") from None
    events = es.load(game.pk)
    raise LookupError(f"engine.records offers no writer this version of games knows ({dir(records)!r})")
