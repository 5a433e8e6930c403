"""The league's refusals: :class:`LeagueError`, something an official can
fix, and the refusals built from the seating's and the engine's errors in
the reader's language."""

from __future__ import annotations

from django.utils.translation import gettext

from .models import TableGame
from .seating import SeatingError


class LeagueError(ValueError):
    """Something an official can fix: the message says what."""


def seating_refusal(number: int, exc: SeatingError) -> LeagueError:
    """A seating the players cannot have, for round ``number``, in the
    reader's language (:mod:`league.seating` marks its sentences for the
    catalogues and keeps their values apart)."""
    text = gettext(exc.message) % exc.params if exc.params else gettext(exc.message)
    return LeagueError(gettext("round %(n)s: %(error)s") % {"n": number, "error": text})


def engine_refusal(game: TableGame, exc: Exception) -> LeagueError:
    """The engine's refusal about ``game``, in the reader's language where
    the catalogue has it (:func:`games.refusals.engine_error_text`)."""
    from games.refusals import engine_error_text

    return LeagueError(gettext("%(game)s: %(error)s") % {"game": game, "error": engine_error_text(exc)})
