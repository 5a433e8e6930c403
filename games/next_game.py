"""The game after a finished one: the same table again (a rematch), or
what a registered source opens instead (the league: the next game of a
tournament round), made once and recorded on the finished game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction

from .errors import BadRequest
from .models import Game
from .services import game_create


@dataclass(frozen=True)
class NextGameSource:
    """Who decides the game after a finished one when it is not simply the
    same table again. An app above the games app (the league: the next game
    of a tournament round) registers one with :func:`register_next_game`;
    the games app never imports it.

    ``claims(game)`` says whether ``game`` is one of its own; ``open_next(game)``
    returns the next game's stream (made if need be), or ``None`` when
    there is none (the round's last game at that table)."""

    kind: str
    claims: Any
    open_next: Any


NEXT_GAME_SOURCES: list[NextGameSource] = []


def register_next_game(source: NextGameSource) -> None:
    if all(s.kind != source.kind for s in NEXT_GAME_SOURCES):
        NEXT_GAME_SOURCES.append(source)


def next_game_kind(game: Game) -> str:
    """``"rematch"`` (the same table again), or the kind of the source that
    claims ``game`` (the league's ``"round"``)."""
    for source in NEXT_GAME_SOURCES:
        if source.claims(game):
            return source.kind
    return "rematch"


def game_next(*, game: Game, actor: str = "") -> Game | None:
    """The game after ``game``, which is over: made by the first call and
    recorded on the finished game (``Game.next_game``), returned as it is by
    every later one. A rematch is the same table again: the same seats
    (names, people and computer levels), variant, rule options and title,
    a new deal from a fresh secret seed, the first seat moved on by one.
    A game claimed by a registered source (a tournament round's game)
    is followed by what that source opens instead, or by nothing (``None``).
    The seats of the new game are open: each person takes their own
    (:func:`seat_take`).

    :raises BadRequest: ``game`` is still in play.
    """
    with transaction.atomic():
        locked = Game.objects.select_for_update().defer("state").get(pk=game.pk)
        if not locked.is_over:
            raise BadRequest(f"game {game.pk} is still in play: finish it first", "not-over")
        if locked.next_game_id is not None:
            return Game.objects.defer("state").get(pk=locked.next_game_id)
        source = next((s for s in NEXT_GAME_SOURCES if s.claims(locked)), None)
        if source is not None:
            new = source.open_next(locked)
        else:
            seats = [{"name": s.name, "kind": s.kind, "ai_level": s.ai_level} for s in locked.seats.order_by("index")]
            new = game_create(variant=locked.variant, players=locked.players, rules=locked.rules, seats=seats,
                              first=(locked.first + 1) % locked.players, title=locked.title, actor=actor,
                              training=locked.training)
        if new is not None:
            Game.objects.filter(pk=locked.pk).update(next_game=new)
    return new
