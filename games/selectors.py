"""Reads: what each audience may see of a game.

A seat sees exactly ``engine_game.view(seat)`` (its own rack, the table, how
many tiles the others and the pool hold, whose turn); the public sees
``view(None)``. The events and the record of a game are shown to everyone
once it is over, before that only to staff. The engine state and the secret
seed are never shown.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from . import eventstore as es
from .errors import NotVisible
from .lru import LRU
from .models import AuditVerdict, Game, Seat
from .receipts import receipt_at
from .moves import family_of, move_entries, public_move_text, recent_moves, said_moves  # noqa: F401 (read from here too)
from .clock import clock_of, clock_running
from .services import load_state


def game_list(*, status: str | None = None) -> QuerySet[Game]:
    """Games, newest first, optionally of one status."""
    qs = Game.objects.defer("state").prefetch_related("seats")
    if status:
        qs = qs.filter(status=status)
    return qs


def open_games(*, name: str = "") -> QuerySet[Game]:
    """Games started from the start screen (``/games/new/``) that are in
    progress with a person's seat still open, newest first; ``name`` filters
    by the game's name. Games of tournaments and the API are not listed:
    their seats are given out by their organisers."""
    qs = (Game.objects.defer("state").prefetch_related("seats")
          .filter(status=Game.Status.IN_PROGRESS, mode=Game.Mode.DIGITAL,
                  seats__kind=Seat.Kind.HUMAN, seats__token_hash="",
                  events__type=es.GAME_CREATED, events__actor="lobby")
          .distinct().order_by("-pk"))
    if name:
        qs = qs.filter(title__icontains=name)
    return qs


def game_summary(game: Game) -> dict[str, Any]:
    """Public facts about a game (no tiles)."""
    return {
        "id": game.pk,
        "title": str(game),
        "family": game.family,
        "variant": game.variant,
        "mode": game.mode,
        "training": game.training,
        "rules": game.rules,
        "players": game.players,
        "status": game.status,
        "version": game.version,
        "to_move": game.to_move,
        "scores": game.scores,
        "seats": [{"index": s.index, "name": s.name, "kind": s.kind, "taken": s.is_taken}
                  for s in game.seats.all()],
    }


def game_view(game: Game, seat: int | None) -> dict[str, Any]:
    """``{"game", "version", "seat", "view"}`` with ``view`` the engine's
    ``view(seat)`` at the game's current version (``seat=None``: public),
    ``clock``, the running turn clock (:func:`games.clock.turn_clock`),
    and ``receipt``, the signed head receipt of that version
    (:mod:`games.receipts`).

    A seat's view at a version never changes (the stream up to a version
    never does), so views are kept per process by game, version and seat
    (:data:`VIEWS`): a page polling its view, or four seats reading theirs
    after a move, rebuild the engine state once."""
    key = (game.pk, game.created_at, game.version, seat)
    held = VIEWS.get(key)
    if held is None:
        try:
            state = load_state(game)
        except es.ConcurrencyConflict:  # read without its state, and moved on since: read it whole
            game = Game.objects.get(pk=game.pk)
            state = load_state(game)
        held = (state.view(seat), clock_of(game, state), receipt_at(game.pk, game.version))
        VIEWS.put((game.pk, game.created_at, game.version, seat), held)
    view, clock, receipt = held
    return {"game": game.pk, "version": game.version, "seat": seat, "status": game.status,
            "view": view, "clock": clock_running(game, clock), "receipt": receipt}


# the last views built in this process: (game id, created at (so that a
# reused id never matches), version, seat) -> (view, clock); readers must
# not change a view they get
VIEWS = LRU(1024)


def game_events(game: Game, *, staff: bool = False) -> list[dict[str, Any]]:
    """The stream's events (payloads in the current schema).

    :raises NotVisible: the game is not over and the caller is not staff.
    """
    if not (staff or game.is_over):
        raise NotVisible(f"game {game.pk} is not over: its events are shown when it ends")
    return [{"version": e.version, "type": e.type, "payload": e.payload, "actor": e.actor,
             "recorded_at": e.recorded_at.isoformat(), "hash": e.hash}
            for e in es.load(game.pk)]


def game_record_text(game: Game, *, staff: bool = False) -> str:
    """The game record in the engine's text format (:mod:`engine.records`).

    :raises NotVisible: the game is not over and the caller is not staff.
    :raises LookupError: the engine has no record writer for this family.
    """
    if not (staff or game.is_over):
        raise NotVisible(f"game {game.pk} is not over: its record is shown when it ends")
    from .records import record_text

    return record_text(game)


def stream_head(game: Game) -> dict[str, Any] | None:
    """The stream's last event as a reader may check it later: ``version``,
    ``hash`` and ``anchor`` (the HMAC of the hash under the anchor key), or
    ``None`` for an empty stream. Public: hashes reveal nothing of the game."""
    from .models import Event

    row = Event.objects.filter(game=game).order_by("-version").values("version", "hash", "anchor").first()
    return dict(row) if row else None


def latest_verdict(game: Game) -> AuditVerdict | None:
    return game.audits.order_by("-checked_at", "-id").first()


def seat_of(game: Game, index: int) -> Seat | None:
    return game.seats.filter(index=index).first()


# --------------------------------------------------------------- pages
def _hand_of(view: dict[str, Any]) -> list[str] | None:
    hand = view.get("rack", view.get("my_hand"))
    return list(hand) if hand is not None else None


def game_board(game: Game, *, at: int | None = None, hidden: bool = False) -> dict[str, Any]:
    """What a game page draws: the engine's public view after event ``at``
    (default: the latest), rebuilt by replaying the stream through
    :func:`games.replay.rebuild`, with each seat's rack when ``hidden`` is
    true (the caller decides: the game is over, or the reader is staff).
    The pool's order is never included.

    Returns ``{"version", "last_version", "view", "racks", "event",
    "moves"}``: ``event`` is the event at ``version`` (``type``, ``seat``,
    ``move``) and ``moves`` the move events up to the stream's end
    (``version``, ``seat``, ``move``), their drawn tiles hidden unless
    ``hidden``.

    :raises ValueError: ``at`` is outside 1 to the game's version.
    :raises games.replay.ReplayError: the stream does not replay.
    """
    from .replay import rebuild
    from .services import _seed

    events = es.load(game.pk)
    last = events[-1].version if events else 0
    if at is None:
        at = last
    if not isinstance(at, int) or isinstance(at, bool) or not 1 <= at <= last:
        raise ValueError(f"game {game.pk} has events 1 to {last}; there is no event {at!r}")
    upto = [e for e in events if e.version <= at]
    state = rebuild(upto, seed=_seed(game, events)).state
    view = state.view(None)
    racks = None
    if hidden:
        racks = [_hand_of(state.view(i)) for i in range(game.players)]

    def text(payload: dict[str, Any]) -> str:
        move = str(payload.get("move", ""))
        return move if hidden else public_move_text(move)

    current = upto[-1]
    event = {"version": current.version, "type": current.type, "seat": current.payload.get("seat"),
             "move": text(current.payload) if current.type == es.MOVE_RECORDED else ""}
    moves = said_moves(game, [{"version": e.version, "seat": e.payload.get("seat"), "move": text(e.payload)}
                              for e in events if e.type == es.MOVE_RECORDED])
    return {"version": at, "last_version": last, "view": view, "racks": racks,
            "event": event, "moves": moves}
