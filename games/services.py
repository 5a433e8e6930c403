"""Writes: every change to a game goes through these functions.

Each validates through the engine first, then in one transaction appends the
events at the expected version, updates the projection row, takes a snapshot
when one is due, and writes outbox rows; the outbox is drained after commit.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import secrets
from dataclasses import dataclass
from typing import Any, Iterable

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.utils import timezone

from engine.errors import EngineError, IllegalMoveError, NotationError
from engine.registry import find_variant

from . import eventstore as es
from . import frames, outbox, push
from .errors import BadRequest, GameIsOver, GameServiceError, MoveRefused, NotYourSeat, SeatNotOpen, SeatTaken
from .models import Event, Game, Seat, SeedSecret, Snapshot
from .replay import rebuild, seed_sha256
from .rows import game_without_state, seat_by_token_hash
from .clock import CLOCK_GRACE, clock_of, clock_running, turn_clock  # noqa: F401 (read from here too)
from .states import STATE_CACHE, _seed, load_state, state_from_stream  # noqa: F401 (the games app's own readers import them from here)


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _ai_levels(family: str) -> list[str]:
    from engine.ai import levels_for

    return sorted(levels_for(family))


def _normalise_seats(seats: Iterable[Any] | None, players: int, family: str = "") -> list[dict[str, str]]:
    """The seat list of a new game. An AI seat's level, when one is given,
    must be one the engine offers for ``family`` (empty: the family's
    default level).

    :raises BadRequest: a bad seat entry, kind or AI level, or a count that
        is not ``players``.
    """
    if seats is None:
        return [{"name": f"seat {i}", "kind": Seat.Kind.HUMAN, "ai_level": ""} for i in range(players)]
    out = []
    for i, seat in enumerate(seats):
        if isinstance(seat, str):
            seat = {"name": seat}
        if not isinstance(seat, dict):
            raise BadRequest(f"seat {i}: expected a name or an object, got {seat!r}", "bad-seats")
        kind = seat.get("kind", Seat.Kind.HUMAN)
        if kind not in Seat.Kind.values:
            raise BadRequest(f"seat {i}: kind {kind!r} is not one of {', '.join(Seat.Kind.values)}", "bad-seats")
        level = seat.get("ai_level") or ""
        if kind == Seat.Kind.AI and level:
            from engine.ai import level_aliases

            known = _ai_levels(family)
            if level not in known and level not in level_aliases(family):
                offered = f"the levels are {', '.join(known)}" if known else \
                    f"the {family or 'this'} family has no AI levels"
                raise BadRequest(f"seat {i}: unknown AI level {level!r} ({offered})", "bad-ai-level")
        out.append({"name": str(seat.get("name") or f"seat {i}")[:120], "kind": kind,
                    "ai_level": str(seat.get("ai_level") or "")[:20]})
    if len(out) != players:
        raise BadRequest(f"{len(out)} seats given for {players} players", "bad-seats")
    return out


def _project(game: Game, state, version: int) -> None:
    """Set the projection's fields on ``game`` (not yet written)."""
    game.version = version
    game.to_move = None if state.is_over else state.to_move
    game.status = Game.Status.FINISHED if state.is_over else Game.Status.IN_PROGRESS
    game.scores = state.scores() if state.is_over else None
    game.state = state.snapshot()
    game.updated_at = timezone.now()


def _projection_update(game: Game, *, at_version: int | None = None, db=None) -> tuple[str, list[Any]]:
    """The plain ``UPDATE`` writing ``game``'s projection fields (hot path: a
    model save builds the query each time); with ``at_version``, only if
    the row is still at that version, ``RETURNING id``. ``db``: the
    connection, if the caller holds it."""
    if db is None:
        db = connections[DEFAULT_DB_ALIAS]
    params = [game.version, game.to_move, game.status,
              None if game.scores is None else json.dumps(game.scores), json.dumps(game.state),
              db.ops.adapt_datetimefield_value(game.updated_at), game.pk]  # (the field's get_db_prep_value)
    if at_version is not None:
        params.append(at_version)
    return _projection_sql(db.vendor, at_version is not None), params


@functools.lru_cache(maxsize=8)
def _projection_sql(vendor: str, guarded: bool) -> str:
    json_param = "CAST(%s AS jsonb)" if vendor == "postgresql" else "%s"
    sql = (f"UPDATE {Game._meta.db_table} SET version = %s, to_move = %s, status = %s, "
           f"scores = {json_param}, state = {json_param}, updated_at = %s WHERE id = %s")
    return sql + " AND version = %s RETURNING id" if guarded else sql


_SNAPSHOT_COLUMNS = ("game_id", "version", "state", "created_at")


def _snapshot_insert(game: Game, db) -> tuple[str, list[Any]]:
    """The snapshot of ``game``'s projection (its version and state), for
    :func:`eventstore.insert_guarded`: kept if none is stored at that
    version yet (as ``get_or_create``)."""
    return es.guarded_insert(Snapshot, _SNAPSHOT_COLUMNS, [[game.pk, game.version, json.dumps(game.state),
                                                            db.ops.adapt_datetimefield_value(game.updated_at)]],
                             on_conflict="nothing")


def _snapshot_due(version: int) -> bool:
    every = getattr(settings, "GAMES_SNAPSHOT_EVERY", 40)
    return bool(every) and version // every > (version - 1) // every


def _save_projection(game: Game, state, version: int, *, snapshot_due: bool = True) -> None:
    _project(game, state, version)
    _write_projection(game, snapshot_due=snapshot_due)


def _write_projection(game: Game, *, snapshot_due: bool = True) -> None:
    db = connections[DEFAULT_DB_ALIAS]
    with es.bound_cursor(db) as cur:
        cur.execute(*_projection_update(game, db=db))
    if snapshot_due and _snapshot_due(game.version):
        # one INSERT that keeps a snapshot already stored at this version (as
        # get_or_create did, without its savepoint and its SELECT first)
        Snapshot.objects.bulk_create([Snapshot(game=game, version=game.version, state=game.state)],
                                     ignore_conflicts=True)


def game_create(*, variant: str, players: int, rules: dict[str, Any] | None = None,
                seats: Iterable[Any] | None = None, deal: dict[str, Any] | None = None,
                first: int = 0, title: str = "", actor: str = "", training: bool = False) -> Game:
    """Create a game stream and deal it.

    A digital game (no ``deal``) is shuffled from a fresh secret seed: its
    sha256 goes into the GameCreated event, the seed into :class:`SeedSecret`
    until the game ends. A game from a real table passes the dealt tiles as
    ``deal`` (the engine's deal format). A ``training`` game is one where
    a player may ask whether a play was the best (the ``not_best`` dispute);
    the flag is recorded in the GameCreated event only when set.

    :raises BadRequest: unknown variant, bad rule option, bad player count,
        seat list or deal (the message names it).
    """
    try:
        cls = find_variant(variant)
        rule_set = cls.rules_from_dict(rules or {})
        rules_dict = cls.rules_to_dict(rule_set)
    except EngineError as exc:
        raise BadRequest(str(exc), "bad-rules") from None
    if not isinstance(players, int) or isinstance(players, bool):
        raise BadRequest(f"players must be a whole number, got {players!r}", "bad-players")
    if not cls.min_players <= players <= cls.max_players:
        raise BadRequest(f"{cls.variant} takes {cls.min_players} to {cls.max_players} players, not {players}",
                         "bad-players")
    if not isinstance(first, int) or not 0 <= first < players:
        raise BadRequest(f"first seat must be 0 to {players - 1}, got {first!r}", "bad-first")
    seat_list = _normalise_seats(seats, players, cls.family)
    seed = None
    try:
        if deal is None:
            seed = secrets.token_hex(16)
            state = cls.new(players, rule_set, seed=seed, first=first)
        else:
            state = cls.new(players, rule_set, deal=deal, first=first)
    except EngineError as exc:
        raise BadRequest(str(exc), "bad-deal") from None
    payload = {"family": cls.family, "variant": cls.variant, "rules": rules_dict, "players": players,
               "first": first, "seats": seat_list, "mode": "table" if deal is not None else "digital"}
    if not isinstance(training, bool):
        raise BadRequest(f"training must be true or false, got {training!r}", "bad-training")
    if training:
        payload["training"] = True
    if seed is not None:
        payload["seed_sha256"] = seed_sha256(seed)
    else:
        payload["deal"] = deal
    with transaction.atomic():
        game = Game.objects.create(family=cls.family, variant=cls.variant, rules=rules_dict, players=players,
                                   first=first, mode=payload["mode"], title=title[:200], training=training)
        Seat.objects.bulk_create([Seat(game=game, index=i, name=s["name"], kind=s["kind"], ai_level=s["ai_level"])
                                  for i, s in enumerate(seat_list)])
        if seed is not None:
            SeedSecret.objects.create(game=game, seed=seed)
        rows = es.append(game, expected_version=0, events=[(es.GAME_CREATED, payload)], actor=actor)
        _save_projection(game, state, rows[-1].version)
        outbox.publish(game, rows)
    return game


def seat_take(*, game: Game, index: int, name: str = "", user=None) -> str:
    """Claim an open seat and return its credential (shown once; only its
    hash is stored).

    Only a person's seat that nobody holds, in a game still in play, can be
    claimed: an AI seat is played by the computer, and the seats of a game
    that is over are part of its record. A ``name`` other than the seat's
    name is recorded as a ``SeatNamed`` event in the game's stream (the
    seat row follows it as a projection, and the audit checks it), so a
    seat is never renamed behind the record's back.

    :raises BadRequest: no such seat, or a name that is too long.
    :raises SeatNotOpen: an AI seat, or the game is over.
    :raises SeatTaken: already claimed.
    """
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < game.players:
        raise BadRequest(f"game {game.pk} has seats 0 to {game.players - 1}, not {index!r}", "bad-seat")
    name = (name or "").strip()
    if len(name) > 120:
        raise BadRequest(f"a seat name has at most 120 characters, not {len(name)}", "bad-name")
    token = secrets.token_urlsafe(24)
    with transaction.atomic():
        current = Game.objects.defer("state").get(pk=game.pk)
        if current.is_over:
            raise SeatNotOpen(f"game {game.pk} is over: its seats can no longer be taken")
        seat = Seat.objects.get(game_id=game.pk, index=index)
        if seat.kind == Seat.Kind.AI:
            raise SeatNotOpen(f"seat {index} of game {game.pk} is played by the computer: it cannot be taken")
        updated = (Seat.objects.filter(pk=seat.pk, token_hash="", kind=Seat.Kind.HUMAN)
                   .update(token_hash=_token_hash(token), taken_at=timezone.now(),
                           user=user if getattr(user, "is_authenticated", False) else None))
        if not updated:
            raise SeatTaken(f"seat {index} of game {game.pk} is already taken")
        if name and name != seat.name:
            _record_seat_name(current, index, name, actor=f"seat:{index}")
    return token


def _record_seat_name(game: Game, index: int, name: str, *, actor: str) -> None:
    """Append ``SeatNamed`` (seat, name) to the stream and update the seat
    row and the game's version to follow it (inside the caller's
    transaction)."""
    rows = es.append(game, expected_version=game.version, events=[(es.SEAT_NAMED, {"seat": index, "name": name})],
                     actor=actor)
    Seat.objects.filter(game_id=game.pk, index=index).update(name=name)
    Game.objects.filter(pk=game.pk).update(version=rows[-1].version, updated_at=timezone.now())
    game.version = rows[-1].version
    outbox.publish(game, rows)


def seat_names_from_stream(events) -> dict[int, str]:
    """``{seat index: name}`` as the stream says: the names in GameCreated,
    then each ``SeatNamed``."""
    names: dict[int, str] = {}
    for event in events:
        if event.type == es.GAME_CREATED:
            names = {i: s.get("name", "") for i, s in enumerate(event.payload.get("seats", []))}
        elif event.type == es.SEAT_NAMED:
            names[event.payload.get("seat")] = event.payload.get("name", "")
    return names


def seat_for_token(token: str) -> Seat | None:
    """The seat a credential belongs to, or ``None``."""
    if not token:
        return None
    # Every seat request asks this, so it is one plain SQL statement (the
    # ORM's compiling of the join was half a view request's time); the
    # game's large state column is read only where it is needed (load_state).
    return seat_by_token_hash(_token_hash(token))


def seat_reissue(seat: Seat, *, revoke: bool = False) -> str | None:
    """Replace a taken seat's credential (a lost or leaked link) and return
    the new one, or with ``revoke`` withdraw it (the seat is open again).
    The old credential stops working at once, for the API and for every
    browser session that exchanged it (:mod:`games.seat_session`).

    :raises BadRequest: the seat was never taken (nothing to reissue).
    """
    if not seat.token_hash:
        raise BadRequest(f"seat {seat.index} of game {seat.game_id} holds no credential", "seat-not-taken")
    token = None if revoke else secrets.token_urlsafe(24)
    Seat.objects.filter(pk=seat.pk).update(token_hash=_token_hash(token) if token else "",
                                           user=seat.user if token else None)
    seat.refresh_from_db()
    push.seats_changed(seat.game_id)  # the sockets holding the old credential are closed
    return token


def _version_now(game_id: int) -> int | None:
    return Game.objects.filter(pk=game_id).values_list("version", flat=True).first()


@dataclass(frozen=True)
class MoveResult:
    version: int
    move: str
    outcome: str
    game_over: bool
    penalty_for: str | None = None
    rule: str | None = None
    message: str = ""
    head_hash: str = ""  # the hash of the stream's event ``version`` (its head receipt's)


def game_record_move(*, game: Game | int, move: str, expected_version: int,
                     seat: int | None = None, actor: str = "") -> MoveResult:
    """Check ``move`` against the engine and record it at ``expected_version``.

    ``seat`` is the seat the caller acts for (``None``: whoever is to move,
    for staff and trusted workers). A move the rules turn into a penalty is
    recorded as the penalty, with the refused move and the rule in the
    event. A move that ends the game also records GameFinished with the
    scores and the revealed seed. The event's ``seat`` is the seat that
    moved (a buyer off turn included; for a move naming no seat sent for
    no seat, the seat the engine made it for).

    :raises ConcurrencyConflict: the game is not at ``expected_version``.
    :raises GameIsOver: the game has ended.
    :raises NotYourSeat: the move names a seat other than ``seat``.
    :raises MoveRefused: malformed or illegal move, or ``seat`` may not move
        now (nothing stored). Where the engine has ``may_act(seat)`` (seats
        off turn may buy), that decides who may move, and a move that names
        no seat is ``seat``'s own.
    """
    if not isinstance(move, str) or not move.strip():
        raise MoveRefused("the move is empty: send its text in the move notation", "notation")
    if not isinstance(expected_version, int) or isinstance(expected_version, bool):
        raise BadRequest(f"expected_version must be a whole number, got {expected_version!r}", "bad-version")
    game_id = game if isinstance(game, int) else game.pk
    # On PostgreSQL, outside a caller's transaction, a move that does not end
    # the game is written in one statement, its own transaction: the
    # projection's UPDATE at the expected version, then the events, the
    # snapshot when one is due and the outbox rows of the tasks it queues,
    # each only if that UPDATE found the row (eventstore.insert_guarded).
    # Two round trips in all, with the read, against five or more in a
    # transaction (BEGIN, read, INSERT, UPDATE, ..., COMMIT). Such a move
    # starts from the row and state this process last wrote or read at
    # that version, if it holds them (no read at all); the version guard of
    # the write catches a move made elsewhere meanwhile.
    db = connections[DEFAULT_DB_ALIAS]  # (each read through django.db.connection looks it up again)
    at_once = db.vendor == "postgresql" and not db.in_atomic_block
    with contextlib.ExitStack() as outer:
        if not at_once:
            outer.enter_context(transaction.atomic())
        held = STATE_CACHE.take_with_row(game_id, expected_version) if at_once else None
        if held is not None:
            game, state = held
        else:
            game = game_without_state(game_id)
            if game.is_over:
                raise GameIsOver(f"game {game.pk} is over; no more moves")
            if game.version != expected_version:
                raise es.ConcurrencyConflict(game.pk, expected_version, game.version)
            state = STATE_CACHE.take(game, game.version)
            if state is None:
                state = load_state(game)
        cached_at = game.version
        row = game if at_once else None  # as read: put back with the state when nothing is written

        def put_back() -> None:
            """Nothing is written: put the state back. A refusal judged on a
            held row is a conflict instead if the game has moved on."""
            now = _version_now(game_id) if held is not None else cached_at
            STATE_CACHE.put(game, cached_at, state, row=row if now == cached_at else None)
            if now != cached_at:
                raise es.ConcurrencyConflict(game_id, expected_version, now)

        mover = state.to_move
        may_act = getattr(state, "may_act", None)  # families where seats off turn move (buys)
        if seat is not None and not callable(may_act) and seat != mover:
            put_back()
            raise MoveRefused(f"it is seat {mover}'s turn, not seat {seat}'s", "not-your-turn")
        try:
            parsed = state.parse_move(move)
            if seat is not None:
                parsed = _bind_seat(state, parsed, seat, mover)
        except NotationError as exc:
            put_back()
            raise MoveRefused(str(exc), "notation") from None
        except GameServiceError:
            put_back()
            raise
        # "seat" is the seat that moved (MoveRecorded schema 2): a seat off
        # turn for a buy or an undo, else the seat on turn
        own_seat = getattr(parsed, "seat", None)
        payload: dict[str, Any] = {"seat": own_seat if isinstance(own_seat, int) else seat}
        try:
            outcome = state.push(parsed)
            payload.update(move=str(parsed), outcome=outcome.kind)
        except IllegalMoveError as exc:
            if exc.penalty is None:
                put_back()  # the engine left it unchanged
                raise MoveRefused(str(exc), exc.rule) from None
            outcome = state.push(exc.penalty)
            payload.update(move=str(exc.penalty), outcome=outcome.kind,
                           refused={"move": str(parsed), "rule": exc.rule, "message": str(exc)})
        if payload["seat"] is None:  # a move naming no seat, sent for no seat
            payload["seat"] = last_mover(state, mover)
        events = [(es.MOVE_RECORDED, payload)]
        seed = None
        if state.is_over:
            if game.mode == Game.Mode.DIGITAL:
                seed = SeedSecret.objects.filter(game=game).values_list("seed", flat=True).first()
            events.append((es.GAME_FINISHED, {"scores": state.scores(), "seed": seed}))
        rows = es.prepare(game, expected_version=expected_version, events=events, actor=actor,
                          head=(game.head_version or 0, game.head_hash or es.GENESIS_HASH))
        new_version = rows[-1].version
        _project(game, state, new_version)
        messages = outbox.messages_for(game, rows)
        game.head_version, game.head_hash = new_version, rows[-1].hash
        try:
            if at_once and not state.is_over:
                also = [_snapshot_insert(game, db)] if _snapshot_due(new_version) else []
                if messages:
                    also.append(outbox.guarded_rows(game, rows, messages, db))
                es.insert_guarded(rows, *_projection_update(game, at_version=expected_version, db=db), also=also, db=db)
                frames.prime(frames.prepare(game, state, rows, lambda: turn_clock(game, state)))  # before the state is handed on
                STATE_CACHE.put(game, new_version, state, row=game)
                outbox.publish(game, rows, messages, written=True)
            else:
                with transaction.atomic(savepoint=False):
                    es.write(rows)
                    _write_projection(game)
                    parts = frames.prepare(game, state, rows, lambda: turn_clock(game, state))  # installed at the commit
                    transaction.on_commit(lambda: frames.prime(parts))
                    if state.is_over:
                        SeedSecret.objects.filter(game=game).delete()
                    else:
                        transaction.on_commit(lambda: STATE_CACHE.put(game, new_version, state, row=row and game))
                    outbox.publish(game, rows, messages)
        except es.ConcurrencyConflict:
            if not at_once:
                raise  # (the caller's transaction is spoilt: no more reads in it)
            # nothing written: say where the game is now, as the read would have
            raise es.ConcurrencyConflict(game_id, expected_version, _version_now(game_id)) from None
    refused = payload.get("refused")
    return MoveResult(version=new_version, move=payload["move"], outcome=payload["outcome"],
                      game_over=state.is_over, penalty_for=refused["move"] if refused else None,
                      rule=refused["rule"] if refused else None,
                      message=refused["message"] if refused else "", head_hash=rows[-1].hash)


def game_claim_timeout(*, game: Game | int, expected_version: int, actor: str = "") -> MoveResult:
    """Record the rules' timeout move for the seat on turn, once its turn
    clock (:func:`turn_clock`) has run out. Anyone in the game may claim it
    (every seat's page does when its clock reaches zero); the first claim at
    ``expected_version`` wins, the rest get the conflict.

    :raises ConcurrencyConflict: the game has moved on (the turn ended).
    :raises MoveRefused: no turn clock here, or time is left (the message
        says how much); nothing stored.
    """
    if not isinstance(expected_version, int) or isinstance(expected_version, bool):
        raise BadRequest(f"expected_version must be a whole number, got {expected_version!r}", "bad-version")
    game_id = game if isinstance(game, int) else game.pk
    game = Game.objects.get(pk=game_id)
    if game.is_over:
        raise GameIsOver(f"game {game.pk} is over; no more moves")
    if game.version != expected_version:
        raise es.ConcurrencyConflict(game.pk, expected_version, game.version)
    state = load_state(game)
    clock = turn_clock(game, state)
    if clock is None:
        raise MoveRefused("this game has no turn clock (a digital game whose rules set a turn time limit)",
                          "no-clock")
    elapsed = clock["seconds"] - clock["left"]
    if clock["left"] > CLOCK_GRACE:
        raise MoveRefused(f"seat {clock['seat']}'s turn has {clock['left']:.1f} s left on the clock "
                          f"({elapsed:.1f} of {clock['seconds']} s used)", "clock-running")
    return game_record_move(game=game.pk, move=state.turn_clock()[1], expected_version=expected_version,
                            seat=clock["seat"], actor=actor or "clock")


def last_mover(state, on_turn: int | None) -> int | None:
    """The seat that made the move just pushed on ``state``: the engine's
    ``move_seats`` where the family keeps it, else ``on_turn`` (the seat
    that was on turn before the move)."""
    seats = getattr(state, "move_seats", None)
    return seats[-1] if seats else on_turn


def _bind_seat(state, parsed, seat: int, mover: int | None):
    """``parsed`` as a move of ``seat`` (the caller's seat), checked against
    who may act now.

    In families whose moves name their seat (contract rummy: ``2 buy``), a
    move that names no seat is bound to the caller's seat, and one naming
    another seat is refused; who may act is the engine's ``may_act(seat)``
    (the player on turn, a buyer inside the buy window, ...), else the seat
    on turn. A seat that may not act is refused with the engine's own rule
    (``buy-window-closed``, ``not-your-turn`` ...), found by trying the move
    on a copy of the state.

    :raises NotYourSeat: the move names another seat.
    :raises MoveRefused: ``seat`` may not act now.
    """
    import copy
    import dataclasses

    own = getattr(parsed, "seat", None)
    if isinstance(own, int) and own != seat:
        raise NotYourSeat(f"the move {str(parsed)!r} is for seat {own}; this credential acts for seat {seat}")
    if own is None and dataclasses.is_dataclass(parsed) and any(
            f.name == "seat" for f in dataclasses.fields(parsed)):
        parsed = dataclasses.replace(parsed, seat=seat)
    may_act = getattr(state, "may_act", None)
    if not callable(may_act) or may_act(seat):
        return parsed
    try:
        copy.deepcopy(state).push(parsed)
    except IllegalMoveError as exc:
        raise MoveRefused(str(exc), exc.rule) from None
    raise MoveRefused(f"seat {seat} may not move now (seat {mover} is on turn)", "not-your-turn")


def game_append_event(*, game: Game | int, expected_version: int, type: str,
                      payload: dict[str, Any], actor: str = "") -> Event:
    """Append an event of another app (a dispute, a result, ...) to a game's
    stream. The engine replay skips types it does not know; the hash chain
    and the audit cover them.

    :raises ConcurrencyConflict: stale ``expected_version``.
    :raises BadRequest: a type owned by the games app itself.
    """
    if type in es.CURRENT_SCHEMA:
        raise BadRequest(f"{type} events are written by games.services only", "reserved-type")
    game_id = game if isinstance(game, int) else game.pk
    with transaction.atomic():
        game = Game.objects.get(pk=game_id)
        rows = es.append(game, expected_version=expected_version, events=[(type, payload)], actor=actor)
        Game.objects.filter(pk=game.pk).update(version=rows[-1].version, updated_at=timezone.now())
        game.version = rows[-1].version
        outbox.publish(game, rows)
    return rows[0]


def projection_rebuild(game: Game) -> Game:
    """Recompute a game's projection row (and any missing snapshots) from
    every event of its stream.

    :raises replay.ReplayError: the stream does not replay.
    """
    events = es.load(game.pk)
    find_variant(game.variant)  # an unknown variant fails here, before anything is written
    created = events[0].payload if events and events[0].type == es.GAME_CREATED else None
    every = getattr(settings, "GAMES_SNAPSHOT_EVERY", 40)
    with transaction.atomic():
        state = None
        seed = _seed(game, events)
        last = 0
        for event in events:
            rebuilt = rebuild([event], seed=seed, state=state, version=last)
            state, last = rebuilt.state, event.version
            if every and last % every == 0:
                Snapshot.objects.get_or_create(game=game, version=last, defaults={"state": state.snapshot()})
        if state is None:
            raise ValueError(f"game {game.pk} has no events")
        if created is not None:
            game.players = created["players"]
            game.rules = created.get("rules", game.rules)
            game.training = bool(created.get("training", False))
        _save_projection(game, state, last, snapshot_due=False)
        game.save(update_fields=["players", "rules", "training"])
        for index, name in seat_names_from_stream(events).items():
            Seat.objects.filter(game=game, index=index).exclude(name=name).update(name=name)
    return game
