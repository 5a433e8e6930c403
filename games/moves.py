"""A game's moves as the public may read them while it goes on, in words
(the live frames' and the pages' recent moves). Below the services and
the selectors, so that the live frames (:mod:`games.frames`) use it too."""

from __future__ import annotations

from typing import Any

from . import eventstore as es
from .models import Game

_HIDDEN_DRAW_WORDS = frozenset({"draw", "timeout", "penalty"})


def public_move_text(move: str) -> str:
    """A move's text as the public may read it while the game goes on: a
    draw, timeout or penalty that names the tiles drawn (games typed in from
    a real table) is shown without them, since those tiles went onto a
    hidden rack."""
    words = move.split()
    lead = 1 if words and words[0].isdigit() else 0  # families that write the seat first
    if len(words) > lead + 1 and words[lead].lower() in _HIDDEN_DRAW_WORDS:
        return " ".join(words[:lead + 1])
    return move


def family_of(game: Game):
    """The game's family description (:mod:`engine.family`), ``None`` for a
    variant the engine does not know."""
    from engine.registry import family_for, find_variant

    try:
        return family_for(find_variant(game.variant).family)
    except ValueError:
        return None


def said_moves(game: Game, moves: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``moves`` (each with its public ``move`` text), each with ``said``:
    the family's description of it in words (:mod:`games.words`)."""
    from .words import described

    family = family_of(game)
    return [{**m, "said": described(family, m["move"])} for m in moves]


def recent_moves(game: Game, count: int = 6) -> list[dict[str, Any]]:
    """The last ``count`` moves of the stream (``version``, ``seat``,
    ``move``, ``said``: the move in words), newest last, as the public may
    read them while the game goes on (:func:`public_move_text`)."""
    events = es.load(game.pk, after_version=max(0, game.version - 3 * count))
    return move_entries(game, [e for e in events if e.type == es.MOVE_RECORDED][-count:])


def move_entries(game: Game, events) -> list[dict[str, Any]]:
    """The entries of :func:`recent_moves` for ``events`` (its moves only)."""
    moves = [{"version": e.version, "seat": e.payload.get("seat"),
              "move": public_move_text(str(e.payload.get("move", "")))}
             for e in events if e.type == es.MOVE_RECORDED]
    return said_moves(game, moves)
