"""Errors a caller of the games services can provoke, each with the HTTP
status the API answers with and a short stable ``code``."""

from __future__ import annotations

from .eventstore import ConcurrencyConflict

__all__ = ["GameServiceError", "BadRequest", "MoveRefused", "NotYourSeat",
           "SeatTaken", "SeatNotOpen", "GameIsOver", "NotVisible", "ConcurrencyConflict"]


class GameServiceError(Exception):
    """Base of the errors a user can fix."""

    status = 400
    code = "bad-request"

    def __init__(self, message: str, code: str | None = None):
        super().__init__(message)
        if code:
            self.code = code


class BadRequest(GameServiceError):
    """Input that cannot start or describe a game (unknown variant, bad rule
    option, bad deal, bad seat list)."""


class MoveRefused(GameServiceError):
    """A move that does not parse or that the rules forbid; nothing stored.
    ``code`` is the engine's rule code (``"not-your-turn"``, ...) or
    ``"notation"``."""


class NotYourSeat(GameServiceError):
    """A credential acting for a seat it does not hold."""

    status = 403
    code = "not-your-seat"


class SeatTaken(GameServiceError):
    status = 409
    code = "seat-taken"


class SeatNotOpen(GameServiceError):
    """A seat no person may claim: an AI seat, or any seat of a game that is
    over (its names are part of the record)."""

    status = 409
    code = "seat-not-open"


class GameIsOver(GameServiceError):
    status = 409
    code = "game-over"


class NotVisible(GameServiceError):
    """Something only shown once the game is over (or to staff)."""

    status = 403
    code = "not-visible-yet"
