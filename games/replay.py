"""Rebuilding engine states from streams.

The only place in ``games`` that talks to the engine, and only through its
interface: :func:`engine.registry.find_variant` and the methods of
:class:`engine.base.Game`. Event types other than the three below (disputes,
results, ... written by other apps) are carried in the stream and hashed, and
skipped here.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, Iterable

from engine.registry import find_variant

from . import eventstore as es


class ReplayError(Exception):
    """A stream that does not replay. ``version`` names the bad event."""

    def __init__(self, version: int, message: str):
        super().__init__(f"event {version}: {message}")
        self.version = version
        self.problem = message


def seed_sha256(seed: str) -> str:
    """The published hash of a shuffle seed."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


def new_state(created: dict[str, Any], seed: str | None):
    """The engine state a GameCreated payload starts, shuffled from ``seed``
    (digital games) or dealt from the typed-in ``deal`` (table games).

    :raises engine.errors.EngineError: variant, rules or deal refused.
    """
    cls = find_variant(created["variant"])
    rules = cls.rules_from_dict(created.get("rules") or {})
    if created.get("mode", "digital") == "table":
        return cls.new(created["players"], rules, deal=created["deal"], first=created.get("first", 0))
    return cls.new(created["players"], rules, seed=seed, first=created.get("first", 0))


def apply_move(state, payload: dict[str, Any]):
    """Push one MoveRecorded payload onto ``state`` and return the outcome.

    :raises engine.errors.EngineError: the move does not parse or is illegal.
    """
    return state.push(state.parse_move(payload["move"]))


@dataclass
class Rebuilt:
    state: Any
    version: int
    scores: list[int] | None


def rebuild(events: Iterable[es.StoredEvent], *, seed: str | None, state=None,
            version: int = 0) -> Rebuilt:
    """Replay ``events`` (a whole stream, or those after a snapshot given as
    ``state`` at ``version``).

    :raises ReplayError: an event that does not apply.
    """
    scores = None
    for event in events:
        if event.type == es.GAME_CREATED:
            if state is not None:
                raise ReplayError(event.version, "a second GameCreated in one stream")
            try:
                state = new_state(event.payload, seed)
            except ValueError as exc:
                raise ReplayError(event.version, f"cannot start the game: {exc}") from None
        elif event.type == es.MOVE_RECORDED:
            if state is None:
                raise ReplayError(event.version, "a move before GameCreated")
            try:
                apply_move(state, event.payload)
            except ValueError as exc:
                raise ReplayError(event.version, f"move {event.payload.get('move')!r} does not replay: {exc}") from None
        elif event.type == es.GAME_FINISHED:
            scores = event.payload.get("scores")
        version = event.version
    if state is None:
        raise ReplayError(version + 1, "the stream has no GameCreated event")
    return Rebuilt(state=state, version=version, scores=scores)
