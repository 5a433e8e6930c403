"""AI seats: the outbox handler that queues an AI seat's move, the service
the ``games.ai_move`` task calls, and the loop that plays a game's AI seats
in the calling process. Every AI seat of every game is played here, a lone
game or a tournament's table game, in every family: the league calls this
module, never the engine's AI players itself.

When a batch of events leaves a game with an AI seat to move, the handler
(:func:`queue_ai_turn`, registered with :func:`games.outbox.on_events`) writes
an outbox row ``games.ai_move(game_id, version)`` in the same transaction.
The task reloads the game and, if it is still at that version, computes the
seat's move with the engine's AI player of the seat's level and records it
through :func:`games.services.game_record_move` with that expected version.
A duplicate or late task finds the game at another version and does
nothing, so a move is never doubled; a lost task is re-queued by
:func:`requeue_stalled`.

The move a seat makes depends only on the game, the seat and the version
(the player is seeded from them), so two workers racing on one task would
choose the same move, and only one of them can store it.

**Playing in the calling process** (:func:`ai_seats_play`): a caller that
waits for a game to end (the league's ``table_game_play_ai``, the demo) has
the AI seats moved one after another through :func:`ai_seat_move`, the same
service as the task, at the version the game is at. A task queued for that
version (a worker, or the eager drain after a commit) chooses the same move;
whichever records it first wins and the other finds the game moved on.

**The buy window** (contract rummy): the top discard may be bought by the
seats off turn until the seat on turn draws. When that seat is an AI and a
person may still buy (or undo a discard), the AI seat waits
``GAMES_AI_BUY_WINDOW`` seconds after the last move before it moves (AI
seats off turn still buy at once). The task answers ``"waiting"`` with the
seconds left: with a worker it is sent again with that countdown; in the
embedded (eager) mode the seat view nudges the game once the window has
passed (:func:`nudge_if_due`; the seat page asks for it every 3 s).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta
from typing import Iterable

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from . import outbox
from .errors import GameIsOver, MoveRefused
from .eventstore import ConcurrencyConflict
from .lru import LRU
from .models import Game, OutboxMessage, Seat
from .services import STATE_CACHE, game_record_move, load_state

log = logging.getLogger(__name__)

TASK = "games.ai_move"
DEFAULT_LEVEL = "random"


class AISeatError(Exception):
    """An AI seat that cannot move: no player for its family or level, or a
    move the engine refused (a bug in the player)."""


def _levels(family: str) -> dict[str, type]:
    """The AI levels the engine offers for ``family`` (name -> class with
    ``choose(game) -> move``; in families where seats off turn may act,
    ``choose(game, seat) -> move or None``)."""
    from engine.ai import levels_for

    return levels_for(family)


def default_level(family: str) -> str:
    """The AI level seats of ``family`` play at when none is given (the
    family's ``default_ai_level``, :mod:`engine.family`)."""
    from engine.registry import family_for

    try:
        return family_for(family).default_ai_level
    except ValueError:
        return DEFAULT_LEVEL


def _acts_off_turn(variant: str) -> bool:
    """Whether seats not on turn may move in ``variant`` (contract rummy's
    buys): the engine then says who may act (``pending_actors``)."""
    from engine.registry import find_variant

    try:
        return callable(getattr(find_variant(variant), "pending_actors", None))
    except ValueError:
        return False


def available_levels(family: str) -> list[str]:
    """Names of the AI levels for ``family`` (empty if it has none)."""
    return sorted(_levels(family))


def player_for(game: Game, seat: int, level: str, version: int):
    """The engine AI player of ``level`` for ``seat``, seeded from the game,
    the seat and the version (the same task always chooses the same move).

    :raises AISeatError: the family has no AI players, or no such level.
    """
    levels = _levels(game.family)
    if not levels:
        raise AISeatError(f"the {game.family} family has no AI players yet")
    from engine.ai import resolve_level

    name = resolve_level(game.family, level or default_level(game.family))
    cls = levels.get(name)
    if cls is None:
        raise AISeatError(f"unknown AI level {name!r} for {game.family} "
                          f"(known: {', '.join(sorted(levels))})")
    return cls(f"ai:{game.pk}:{seat}:{version}")


_SEATS = LRU(4096)  # (game id, created at) -> {seat index: AI level}


def _ai_seats(game: Game) -> dict[int, str]:
    """``{seat index: AI level}`` of the game's AI seats. Seats never change
    kind, so this is cached per process (keyed by id and creation time, so
    a reused id never matches)."""
    key = (game.pk, game.created_at)
    found = _SEATS.get(key)
    if found is None:
        found = dict(Seat.objects.filter(game_id=game.pk, kind=Seat.Kind.AI).values_list("index", "ai_level"))
        _SEATS.put(key, found)
    return found


def ai_seat_to_move(game: Game) -> tuple[int, str] | None:
    """``(seat, level)`` of the AI seat whose turn it is in ``game``
    (``None`` if the game is over or a person is to move)."""
    if game.is_over or game.to_move is None:
        return None
    level = _ai_seats(game).get(game.to_move)
    return None if level is None else (game.to_move, level)


@outbox.on_events
def queue_ai_turn(game: Game, events) -> Iterable[outbox.Message]:
    """Outbox handler: after any events, queue ``games.ai_move`` when an AI
    seat is to move and its family has AI players."""
    if not _ai_seats(game):  # (a game of people only, the most common: nothing to ask the engine)
        return
    if not _levels(game.family):
        return
    seat = ai_seat_to_move(game)
    if seat is None and not (not game.is_over and _ai_seats(game) and _acts_off_turn(game.variant)):
        return  # (AI seats off turn may buy: the task asks them and may find nothing to do)
    yield outbox.Message(TASK, [game.pk, game.version])


def buy_window_left(game: Game, state, seats: dict[int, str]) -> float:
    """Seconds the seat on turn should still wait in a game where seats off
    turn may act: while a person (a seat that is not an AI) may still buy the
    discard or undo one, ``GAMES_AI_BUY_WINDOW`` after the last move; else 0."""
    window = float(getattr(settings, "GAMES_AI_BUY_WINDOW", 0) or 0)
    if window <= 0:
        return 0.0
    active = state.to_move
    if not any(s != active and s not in seats for s in state.pending_actors()):
        return 0.0
    elapsed = (timezone.now() - game.updated_at).total_seconds()
    return max(0.0, window - elapsed)


def _choose_off_turn(game: Game, state, seats: dict[int, str], version: int, *, with_active: bool = True):
    """``(seat, level, move)`` of the first AI seat that acts now in a game
    where seats off turn may move, or ``None``: the AI seats off turn that
    may act (buyers) in playing order first, then (``with_active``) the seat
    on turn."""
    active = state.to_move
    order = [s for s in state.pending_actors() if s != active]
    if active is not None and with_active:
        order.append(active)
    for s in order:
        if s not in seats:
            continue
        level = seats[s] or default_level(game.family)
        move = player_for(game, s, level, version).choose(state, s)
        if move is not None:
            return s, level, move
    return None


@dataclass(frozen=True)
class AIMoveResult:
    """What one ``games.ai_move`` run did: ``status`` is ``"moved"``,
    ``"stale"`` (the game moved on), ``"game-over"``, ``"not-ai"`` (a person
    is to move), ``"waiting"`` (the AI seat on turn waits ``wait`` more
    seconds while a person may buy) or ``"no-game"``."""

    status: str
    game: int
    version: int
    move: str = ""
    wait: float = 0.0

    def as_dict(self) -> dict:
        out = {"status": self.status, "game": self.game, "version": self.version, "move": self.move}
        if self.status == "waiting":
            out["wait"] = round(self.wait, 3)
        return out


def ai_seat_move(*, game_id: int, expected_version: int) -> AIMoveResult:
    """Make the AI seat's move in ``game_id`` if the game is still at
    ``expected_version``; otherwise do nothing.

    :raises AISeatError: no AI player for the seat's family or level, or the
        engine refused the player's move (nothing stored).
    """
    game = Game.objects.defer("state").filter(pk=game_id).first()
    if game is None:
        return AIMoveResult("no-game", game_id, expected_version)
    if game.is_over:
        return AIMoveResult("game-over", game_id, game.version)
    if game.version != expected_version:
        return AIMoveResult("stale", game_id, game.version)
    turn = ai_seat_to_move(game)
    off_turn = _acts_off_turn(game.variant)
    if turn is None and not (off_turn and _ai_seats(game)):
        return AIMoveResult("not-ai", game_id, game.version)
    # The state this process left after its last move of this game, if it
    # is still at that version; else from the projection.
    state = STATE_CACHE.take(game, expected_version)
    if state is None:
        state = load_state(Game.objects.get(pk=game_id))
    mark = (getattr(state, "turn", None), list(getattr(state, "rack_sizes", ())))
    if off_turn:
        seats = _ai_seats(game)
        wait = buy_window_left(game, state, seats) if state.to_move in seats else 0.0
        chosen = _choose_off_turn(game, state, seats, expected_version, with_active=not wait)
        STATE_CACHE.put(game, expected_version, state)  # choose(state, seat) leaves it as it was
        if chosen is None:
            if wait:
                return AIMoveResult("waiting", game_id, game.version, wait=wait)
            return AIMoveResult("not-ai", game_id, game.version)
        index, level, move = chosen
        move = str(move)
    else:
        index, level = turn
        player = player_for(game, index, level, expected_version)
        move = str(player.choose(state))
        if mark == (getattr(state, "turn", None), list(getattr(state, "rack_sizes", ()))):
            STATE_CACHE.put(game, expected_version, state)  # the player left it as it was
    level = level or default_level(game.family)
    try:
        result = game_record_move(game=game_id, move=move, expected_version=expected_version,
                                  seat=index, actor=f"ai:{level}")
    except (ConcurrencyConflict, GameIsOver):
        return AIMoveResult("stale", game_id, expected_version)
    except MoveRefused as exc:
        raise AISeatError(f"game {game_id} seat {index} ({level}): the engine refused "
                          f"the AI move {move!r}: {exc}") from None
    return AIMoveResult("moved", game_id, result.version, result.move)


def _version(game_id: int) -> int | None:
    return Game.objects.filter(pk=game_id).values_list("version", flat=True).first()


def ai_seats_play(*, game_id: int, max_moves: int = 20_000) -> AIMoveResult:
    """Play the AI seats of ``game_id`` in this process, one move after
    another through :func:`ai_seat_move` at the version the game is at,
    until no AI seat acts now: the game is over, a person is to move, or
    the AI seat on turn waits out a buy window (a person may still buy).
    A move another process recorded first (a ``games.ai_move`` task for the
    same version chooses the same move) is taken as it is and play goes on
    from there. Returns the result that stopped it: ``"game-over"``,
    ``"not-ai"``, ``"waiting"`` or ``"no-game"``.

    :raises AISeatError: no AI player for a seat's family or level, a move
        the engine refused (nothing stored), or AI seats still moving after
        ``max_moves`` moves.
    """
    version = _version(game_id)
    if version is None:
        return AIMoveResult("no-game", game_id, 0)
    for _ in range(max_moves):
        result = ai_seat_move(game_id=game_id, expected_version=version)
        if result.status == "moved":
            version = result.version
        elif result.status == "stale":  # moved by another process: go on from its version
            version = _version(game_id)
            if version is None:
                return AIMoveResult("no-game", game_id, 0)
        else:
            return result
    raise AISeatError(f"game {game_id}: the AI seats are still moving after {max_moves} moves "
                      f"(version {version})")


def requeue_stalled(*, game_ids: Iterable[int] | None = None, idle_seconds: float = 0) -> int:
    """Queue ``games.ai_move`` again for every game in progress where an AI
    seat is to move (or only ``game_ids``; only games unchanged for
    ``idle_seconds``): the repair after a task was lost (for instance a
    broker restarted without persistence). Duplicates are harmless. Returns
    how many were queued."""
    qs = Game.objects.filter(status=Game.Status.IN_PROGRESS, to_move__isnull=False).only(
        "id", "family", "version", "to_move", "status", "created_at")
    if idle_seconds:
        since = timezone.now() - timedelta(seconds=idle_seconds)
        # idle, and not queued again within the idle time either: a game
        # stuck behind a long queue gets one duplicate per idle time, not
        # one per beat
        qs = qs.filter(updated_at__lt=since).exclude(
            pk__in=OutboxMessage.objects.filter(topic=TASK, created_at__gte=since, game__isnull=False)
                             .values("game_id"))
    if game_ids is not None:
        qs = qs.filter(pk__in=list(game_ids))
    queued = 0
    with transaction.atomic():
        for game in qs:
            if _levels(game.family) and ai_seat_to_move(game) is not None:
                outbox.enqueue(TASK, [game.pk, game.version], game=game, event_version=game.version)
                queued += 1
    return queued


def nudge_if_due(game: Game) -> bool:
    """In the embedded (eager) mode, where no worker can wait out a buy
    window: queue the AI seat's move once the window has passed (the seat
    view calls this on every look). With a worker the waiting task comes
    back by itself, so this does nothing. Returns whether a move was queued."""
    if not getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False):
        return False
    window = float(getattr(settings, "GAMES_AI_BUY_WINDOW", 0) or 0)
    if window <= 0 or game.is_over or not _acts_off_turn(game.variant) or ai_seat_to_move(game) is None:
        return False
    return requeue_stalled(game_ids=[game.pk], idle_seconds=window) > 0
