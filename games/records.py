"""A game's record in the engine's text format (see ``docs/records.md``)."""

from __future__ import annotations

from .models import Game


def record_text(game: Game) -> str:
    """The record of ``game`` as :mod:`engine.records` writes it: the setup
    (variant, rules, seats, the seed or the typed-in deal), one line per
    move, and the result once the game is over. The state is rebuilt from
    the stream, not taken from the projection.

    :raises LookupError: the game's family keeps no records (no
        ``setup_tags``/``move_stack``).
    :raises replay.ReplayError: the stream does not replay.
    """
    from engine.records import write_game

    from .services import state_from_stream

    state = state_from_stream(game)
    if not hasattr(state, "setup_tags") or not hasattr(state, "move_stack"):
        raise LookupError(f"the {game.variant} engine writes no game records")
    names = {s.index: s.name or f"seat {s.index}" for s in game.seats.all()}
    tags = {"Event": str(game), "Game": str(game.pk), "Date": game.created_at.strftime("%Y.%m.%d")}
    return write_game(state, seats=names, tags=tags)
