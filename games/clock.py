"""The turn clock of a digital game whose rules set one: how long the seat
on turn has left, from the projection's time of the last event."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from .models import Game
from .states import load_state


# the turn clock: how late a claim may come early (a browser's clock and
# the network), in seconds
CLOCK_GRACE = 0.3


def turn_clock(game: Game, state=None, *, now=None) -> dict[str, Any] | None:
    """The running turn clock of a digital game whose rules set one (the
    engine's ``turn_clock``): ``{"seat", "seconds", "started_at", "left"}``,
    the turn having started when the game's last event was recorded (the
    projection's ``updated_at``, written in the same transaction). ``None``
    for a game from a real table (its clock is the table's), a finished game,
    or rules without a limit."""
    if game.is_over or game.mode != Game.Mode.DIGITAL:
        return None
    return clock_running(game, clock_of(game, state if state is not None else load_state(game)), now=now)


def clock_of(game: Game, state) -> tuple[float, int] | None:
    """``(seconds, seat)`` of the turn clock at ``state`` (the game's
    position at its version), or ``None`` where no clock runs."""
    if game.is_over or game.mode != Game.Mode.DIGITAL:
        return None
    clock = state.turn_clock() if hasattr(state, "turn_clock") else None
    if clock is None or state.to_move is None:
        return None
    return clock[0], state.to_move


def clock_running(game: Game, clock: tuple[float, int] | None, *, now=None) -> dict[str, Any] | None:
    """:func:`turn_clock` from :func:`clock_of`'s ``(seconds, seat)``."""
    # the projection is written with every event, in its transaction: its
    # time is the last event's (no query on the hot path)
    started = game.updated_at
    if clock is None or started is None:
        return None
    now = now or timezone.now()
    seconds, seat = clock
    left = max(0.0, seconds - (now - started).total_seconds())
    return {"seat": seat, "seconds": seconds, "started_at": started.isoformat(), "left": round(left, 1)}
