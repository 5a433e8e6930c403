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
from .models import AuditVerdict, Game, Seat
from .services import load_state


def game_list(*, status: str | None = None) -> QuerySet[Game]:
    """Games, newest first, optionally of one status."""
    qs = Game.objects.defer("state").prefetch_related("seats")
    if status:
        qs = qs.filter(status=status)
    return qs


def game_summary(game: Game) -> dict[str, Any]:
    """Public facts about a game (no tiles)."""
    return {
        "id": game.pk,
        "title": str(game),
        "family": game.family,
        "variant": game.variant,
        "mode": game.mode,
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
    ``view(seat)`` at the game's current version (``seat=None``: public)."""
    state = load_state(game)
    return {"game": game.pk, "version": game.version, "seat": seat, "status": game.status,
            "view": state.view(seat)}


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


def latest_verdict(game: Game) -> AuditVerdict | None:
    return game.audits.order_by("-checked_at", "-id").first()


def seat_of(game: Game, index: int) -> Seat | None:
    return game.seats.filter(index=index).first()
