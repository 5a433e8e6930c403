"""Audit of a stream: replay it from its first event and check everything.

For each game: versions run 1, 2, 3, ... with no gap; each row's
``prev_hash`` is the previous row's hash and its own hash matches its content;
the first event is GameCreated; a digital game's revealed seed (or, before
the end, its kept secret) hashes to the published ``seed_sha256`` and deals
the game; every move's recorded seat is one the engine let act then
(``may_act(seat)`` where the family has it, else the seat on turn; a seat
off turn buys in contract rummy) and the move replays as that seat's; a
recorded penalty is what the rules give for the refused move; the scores in
GameFinished are the engine's; a game that ended has its GameFinished.

Each event's anchor is the HMAC of its hash under ``GAMES_ANCHOR_KEY`` (a
key kept outside the database): a history edited and then re-chained has
valid hashes but not valid anchors from the edited event on.

The stream is also checked against its projections: the game row's version
is the stream's last event (a deleted tail leaves the row ahead of the
stream), its status, turn and scores are the replay's, and each seat row's
name is the one the stream gives it (GameCreated, then SeatNamed).

Nothing at the head of a stream proves that no event is missing there: a
tail deleted and the row set back leaves a shorter stream that is clean in
itself. So the stream is also checked against the heads kept outside it:
the newest checkpoint (:mod:`games.checkpoints`; a kept checkpoint file
too, ``checkpoint=``) and the heads other apps recorded (:func:`witness`:
the league records each finished game's head with its result). A stream
that no longer reaches a kept head, or has another hash there, is named at
its first missing or changed event. Players' receipts are checked one by
one (:mod:`games.receipts`).

Everything is read in one consistent snapshot (:func:`_read`): a game being
played is never accused because its row and its stream were read at
different moments. A verdict is stored with a keyed digest of everything it
was made from (:func:`fingerprint`); a stored verdict is answered again
only while that digest is the same (:func:`verdict_in_force`).

The verdict names the first bad event; every problem found at that event is
told.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator

from django.db import connection, transaction

from engine.errors import IllegalMoveError

from . import checkpoints
from . import eventstore as es
from .models import AuditVerdict, Event, Game, Seat, SeedSecret
from .receipts import head_problem
from .replay import new_state, seed_sha256
from .services import last_mover


@dataclass(frozen=True)
class Verdict:
    game_id: int
    ok: bool
    events_checked: int
    first_bad_version: int | None = None
    problem: str = ""
    head_version: int | None = None
    head_hash: str = ""
    checkpoint_seq: int | None = None
    fingerprint: str = ""

    def __str__(self) -> str:
        if self.ok:
            return f"game {self.game_id}: clean ({self.events_checked} events)"
        if self.first_bad_version is None:
            return f"game {self.game_id}: BAD: {self.problem}"
        return f"game {self.game_id}: BAD at event {self.first_bad_version}: {self.problem}"


class _Bad(Exception):
    def __init__(self, version: int | None, problem: str):
        self.version = version
        self.problem = problem


def _check_chain(rows: list[Event]) -> None:
    prev = es.GENESIS_HASH
    for expected_version, row in enumerate(rows, start=1):
        if row.version != expected_version:
            raise _Bad(expected_version, f"event {expected_version} is missing (deleted), "
                                         f"the stream jumps to {row.version}")
        if row.prev_hash != prev:
            raise _Bad(row.version, "its prev_hash is not the previous event's hash "
                                    "(a row before it was changed, removed or inserted)")
        if es.expected_hash(row, prev) != row.hash:
            raise _Bad(row.version, "its content does not match its hash (the row was edited)")
        prev = row.hash


def _check_anchors(rows: list[Event]) -> None:
    """Each event's anchor must be the HMAC of its hash under the anchor key."""
    for row in rows:
        if not es.anchor_holds(row.hash, row.anchor):
            what = "carries no anchor" if not row.anchor else "its anchor is not the HMAC of its hash"
            raise _Bad(row.version, f"{what} under the anchor key: the row was written or its hash "
                                    f"chain rewritten outside the event store")


def _check_projection(game_id: int, inputs: "_Inputs", state) -> None:
    """The game row and the seat rows against the stream (``state``: the
    replayed engine state, ``None`` when the replay failed)."""
    rows = inputs.rows
    last = rows[-1].version if rows else 0
    finished = any(r.type == es.GAME_FINISHED for r in rows)
    if inputs.row is None:
        return
    row_version, row_status, row_to_move, row_scores, _ = inputs.row
    if row_version > last:
        missing = f"event {last + 1} is" if row_version == last + 1 else f"events {last + 1} to {row_version} are"
        gone = " (the row says the game finished: its GameFinished is gone)" \
            if row_status == Game.Status.FINISHED and not finished else ""
        raise _Bad(last + 1, f"{missing} missing: the game row is at version {row_version} "
                             f"but the stream ends at event {last}{gone}")
    if row_version < last:
        raise _Bad(row_version + 1, f"the stream goes on to event {last} but the game row is at version "
                                    f"{row_version}: events after it were added behind the row's back")
    if row_status == Game.Status.FINISHED and not finished:
        raise _Bad(last + 1, "the game row says finished but the stream has no GameFinished")
    if state is not None:
        expected_status = Game.Status.FINISHED if state.is_over else Game.Status.IN_PROGRESS
        expected_to_move = None if state.is_over else state.to_move
        expected_scores = state.scores() if state.is_over else None
        for what, held, replayed in (("status", row_status, expected_status),
                                     ("turn (to_move)", row_to_move, expected_to_move),
                                     ("scores", row_scores, expected_scores)):
            if held != replayed:
                raise _Bad(last, f"the game row's {what} is {held!r} but the stream gives {replayed!r}")
    named_at: dict[int, int] = {}
    names: dict[int, str] = {}
    for row in rows:
        if row.type == es.GAME_CREATED and isinstance(row.payload, dict):
            seats = es.upcast(row.type, row.schema_version, row.payload).get("seats", [])
            names = {i: s.get("name", "") for i, s in enumerate(seats) if isinstance(s, dict)}
            named_at = {i: row.version for i in names}
        elif row.type == es.SEAT_NAMED and isinstance(row.payload, dict):
            names[row.payload.get("seat")] = row.payload.get("name", "")
            named_at[row.payload.get("seat")] = row.version
    for index, name in inputs.seats:
        if index in names and names[index] != name:
            raise _Bad(named_at[index], f"seat {index} is named {name!r} in the seats table but the stream "
                                        f"names it {names[index]!r} (event {named_at[index]})")


def _check_kept(game_id: int, inputs: "_Inputs", kept: checkpoints.Heads | None) -> list[_Bad]:
    """The stream against every head kept outside it: the newest checkpoint,
    a kept checkpoint file (``kept``) and the heads other apps recorded
    (:func:`witness`). Each names the first missing or changed event."""
    rows = inputs.rows
    last = rows[-1].version if rows else 0
    hash_at = {r.version: r.hash for r in rows}
    heads = [(*cp.heads[game_id], cp.holder) for cp in (inputs.checkpoint, kept)
             if cp is not None and game_id in cp.heads]
    heads += [(w.version, w.hash, w.holder) for w in inputs.witnesses]
    found = []
    for version, digest, holder in heads:
        problem = head_problem(last, hash_at, version, digest, holder)
        if problem is not None:
            found.append(_Bad(*problem))
    return found


def _check_seat(version: int, state, seat, players: int) -> None:
    """The recorded seat must be one the engine lets act now: where the
    family has ``may_act(seat)`` (contract rummy: buys and undo off turn),
    that decides; otherwise only the seat on turn moves."""
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
        raise _Bad(version, f"recorded for seat {seat!r}, not a seat of this {players}-player game")
    may_act = getattr(state, "may_act", None)
    if callable(may_act):
        if not may_act(seat):
            raise _Bad(version, f"recorded for seat {seat}, which could not act then "
                                f"(seat {state.to_move} was on turn)")
    elif seat != state.to_move:
        raise _Bad(version, f"recorded for seat {seat} but seat {state.to_move} was to move")


def _check_replay(game: Game, inputs: "_Inputs"):
    """Replay the stream through the engine; returns the final state."""
    rows = inputs.rows
    events = []
    for row in rows:
        try:
            payload = es.upcast(row.type, row.schema_version, row.payload)
        except ValueError as exc:
            raise _Bad(row.version, str(exc)) from None
        events.append(es.StoredEvent(row.version, row.type, payload, row.actor, row.recorded_at,
                                     row.hash, row.schema_version))
    if not events or events[0].type != es.GAME_CREATED:
        raise _Bad(1, "the first event is not GameCreated")
    created = events[0].payload
    if created.get("variant") != game.variant:
        raise _Bad(1, f"GameCreated names variant {created.get('variant')!r}, the game is {game.variant!r}")
    finished = [e for e in events if e.type == es.GAME_FINISHED]
    seed = None
    if created.get("mode", "digital") == "digital":
        published = created.get("seed_sha256")
        if not published:
            raise _Bad(1, "a digital game without a published seed hash")
        if finished:
            seed = finished[0].payload.get("seed")
            if not seed or seed_sha256(seed) != published:
                raise _Bad(finished[0].version, "the revealed seed does not hash to the seed_sha256 "
                                                "published in event 1: the deal was not the one promised")
        else:
            seed = inputs.secret
            if not seed and inputs.row is not None and inputs.row[1] == Game.Status.FINISHED:
                raise _Bad(rows[-1].version + 1, "the game row says finished but the stream has no "
                                                 "GameFinished (which reveals the seed): it was removed")
            if not seed or seed_sha256(seed) != published:
                raise _Bad(1, "the kept secret seed does not hash to the published seed_sha256")
    try:
        state = new_state(created, seed)
    except ValueError as exc:
        raise _Bad(1, f"the deal does not start a game: {exc}") from None
    over_at = None
    for event in events[1:]:
        p = event.payload
        if event.type == es.MOVE_RECORDED:
            if state.is_over:
                raise _Bad(event.version, "a move after the game ended")
            seat = p.get("seat")
            _check_seat(event.version, state, seat, created["players"])
            on_turn = state.to_move
            refused = p.get("refused")
            if refused:
                try:
                    state.push(state.parse_move(refused["move"]))
                except IllegalMoveError as exc:
                    if exc.penalty is None or str(exc.penalty) != p.get("move"):
                        raise _Bad(event.version, f"recorded penalty {p.get('move')!r} is not what the rules "
                                                  f"give for {refused['move']!r}") from None
                except ValueError as exc:
                    raise _Bad(event.version, f"refused move {refused['move']!r} does not parse: {exc}") from None
                else:
                    raise _Bad(event.version, f"move {refused['move']!r} recorded as refused is legal")
            try:
                move = state.parse_move(p["move"])
            except ValueError as exc:
                raise _Bad(event.version, f"move {p.get('move')!r} by seat {seat} "
                                          f"does not parse: {exc}") from None
            named = getattr(move, "seat", None)
            if isinstance(named, int) and named != seat:
                raise _Bad(event.version, f"move {p['move']!r} names seat {named} but is recorded "
                                          f"for seat {seat}")
            try:
                outcome = state.push(move)
            except ValueError as exc:
                raise _Bad(event.version, f"move {p.get('move')!r} by seat {seat} "
                                          f"does not replay: {exc}") from None
            if not isinstance(named, int):
                mover = on_turn if event.stored_schema < 2 else last_mover(state, on_turn)
                if mover != seat:
                    raise _Bad(event.version, f"move {p['move']!r} is recorded for seat {seat} "
                                              f"but the engine made it for seat {mover}")
            if outcome.kind != p.get("outcome"):
                raise _Bad(event.version, f"the move gives outcome {outcome.kind!r}, "
                                          f"the event says {p.get('outcome')!r}")
            if state.is_over:
                over_at = event.version
        elif event.type == es.GAME_FINISHED:
            if not state.is_over:
                raise _Bad(event.version, "GameFinished but the game is not over on replay")
            if p.get("scores") != state.scores():
                raise _Bad(event.version, f"recorded scores {p.get('scores')} but the replay scores "
                                          f"{state.scores()}")
        elif event.type == es.GAME_CREATED:
            raise _Bad(event.version, "a second GameCreated")
    if over_at is not None and not finished:
        raise _Bad(over_at + 1, f"the game ended at the move of event {over_at} but no GameFinished "
                                f"follows it")
    return state


@dataclass(frozen=True)
class Witness:
    """A head of a stream that another record kept: its ``version`` and
    ``hash`` (``None``: the version only), named by ``holder`` in a
    verdict."""

    version: int
    hash: str | None
    holder: str


_WITNESSES: list[Callable[[int], Iterable[Witness]]] = []


def witness(fn: Callable[[int], Iterable[Witness]]):
    """Register ``fn(game_id)``: the heads of that stream another app
    recorded (the league: each finished game's head, with its result). The
    audit reads them in its snapshot and names a stream that no longer
    reaches one. (The games app never imports the apps above it.)"""
    if fn not in _WITNESSES:
        _WITNESSES.append(fn)
    return fn


class AuditRace(RuntimeError):
    """The game moved on during every read of it (only where no single
    snapshot can be taken): no verdict is made."""


@dataclass
class _Inputs:
    """Everything a verdict is made from, read in one snapshot."""

    rows: list[Event]
    row: tuple | None  # the game row's _ROW fields
    seats: list[tuple[int, str]]
    secret: str | None
    checkpoint: checkpoints.Heads | None
    witnesses: list[Witness] = field(default_factory=list)


_ROW = ("version", "status", "to_move", "scores", "variant")


def _read_once(game_id: int) -> tuple[_Inputs, bool]:
    # the kept heads first: a head kept before the stream is read is in it
    # (a stream only grows), even where the reads are not one snapshot
    checkpoint = checkpoints.newest()
    kept = [w for fn in _WITNESSES for w in fn(game_id)]
    row = Game.objects.filter(pk=game_id).values_list(*_ROW).first()
    rows = list(Event.objects.filter(game_id=game_id).order_by("version"))
    seats = list(Seat.objects.filter(game_id=game_id).order_by("index").values_list("index", "name"))
    secret = SeedSecret.objects.filter(game_id=game_id).values_list("seed", flat=True).first()
    again = Game.objects.filter(pk=game_id).values_list(*_ROW).first()
    return _Inputs(rows, row, seats, secret, checkpoint, kept), row == again


def _read(game_id: int, attempts: int = 5) -> _Inputs:
    """The inputs of ``game_id``'s verdict, read in one consistent snapshot:
    on PostgreSQL one ``REPEATABLE READ`` transaction; elsewhere (SQLite,
    whose transaction is its snapshot, or inside a caller's transaction)
    the game row is read again after everything else, and the whole read
    is taken again if the row moved meanwhile.

    :raises AuditRace: the row moved during every one of ``attempts`` reads.
    """
    for _ in range(attempts):
        with transaction.atomic():
            if connection.vendor == "postgresql" and connection.in_atomic_block and \
                    len(connection.atomic_blocks) == 1:
                with connection.cursor() as cur:
                    cur.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            inputs, steady = _read_once(game_id)
        if steady:
            return inputs
    raise AuditRace(f"game {game_id} moved on during each of {attempts} reads: not judged; audit it again")


def fingerprint(game_id: int, inputs: _Inputs) -> str:
    """A keyed digest of everything a verdict is made from: each event's
    content, hash, link and anchor, the game row, the seat names, the kept
    seed, this game's head in the newest checkpoint and the heads other
    apps kept. Keyed (a subkey of ``GAMES_ANCHOR_KEY``): a new key is new
    inputs too."""
    mac = hmac.new(es.subkey("audit-fingerprint"), digestmod=hashlib.sha256)
    for r in inputs.rows:
        mac.update(es.canonical_bytes(game_id=r.game_id, version=r.version, type=r.type,
                                      schema_version=r.schema_version, payload=r.payload, actor=r.actor,
                                      recorded_at=r.recorded_at))
        mac.update(f"\n{r.prev_hash}:{r.hash}:{r.anchor}\n".encode())
    cp = inputs.checkpoint
    rest = {"row": inputs.row, "seats": inputs.seats,
            "secret": seed_sha256(inputs.secret) if inputs.secret else None,
            "checkpoint": list(cp.heads[game_id]) if cp is not None and game_id in cp.heads else None,
            "witnesses": sorted([w.version, w.hash or "", w.holder] for w in inputs.witnesses)}
    mac.update(json.dumps(rest, sort_keys=True, default=str).encode())
    return mac.hexdigest()


def _judge(game: Game, inputs: _Inputs, kept: checkpoints.Heads | None) -> Verdict:
    rows = inputs.rows
    found: list[_Bad] = []
    state = None
    for check in (_check_chain, _check_anchors):
        try:
            check(rows)
        except _Bad as bad:
            found.append(bad)
    try:
        state = _check_replay(game, inputs)
    except _Bad as bad:
        found.append(bad)
    try:
        _check_projection(game.pk, inputs, state)
    except _Bad as bad:
        found.append(bad)
    found += _check_kept(game.pk, inputs, kept)
    head = {"head_version": rows[-1].version if rows else None, "head_hash": rows[-1].hash if rows else "",
            "checkpoint_seq": inputs.checkpoint.seq if inputs.checkpoint else None,
            "fingerprint": fingerprint(game.pk, inputs)}
    if not found:
        return Verdict(game.pk, True, len(rows), **head)
    first = min((b.version for b in found if b.version is not None), default=None)
    at_first = [b.problem for b in found if b.version == first]
    return Verdict(game.pk, False, len(rows), first, "; ".join(dict.fromkeys(at_first)), **head)


def audit_game(game: Game, *, save: bool = True, checkpoint: checkpoints.Heads | None = None) -> Verdict:
    """Audit one game and (by default) store the verdict. ``checkpoint``: a
    kept checkpoint file to check the stream against as well as the newest
    stored one.

    :raises AuditRace: no consistent read could be made (nothing stored).
    """
    verdict = _judge(game, _read(game.pk), checkpoint)
    if save:
        AuditVerdict.objects.create(game=game, ok=verdict.ok, events_checked=verdict.events_checked,
                                    first_bad_version=verdict.first_bad_version, problem=verdict.problem,
                                    head_version=verdict.head_version, head_hash=verdict.head_hash,
                                    checkpoint_seq=verdict.checkpoint_seq, fingerprint=verdict.fingerprint)
    return verdict


def verdict_in_force(game: Game) -> AuditVerdict | None:
    """The stored verdict of ``game`` if it was made from exactly the inputs
    there are now (:func:`fingerprint`: the same events, hashes and
    anchors, rows, kept seed and kept heads), else ``None``: a verdict is
    never answered for a stream it did not judge."""
    stored = game.audits.order_by("-checked_at", "-id").first()
    if stored is None or not stored.fingerprint:
        return None
    try:
        now = fingerprint(game.pk, _read(game.pk))
    except AuditRace:
        return None
    return stored if hmac.compare_digest(now, stored.fingerprint) else None


def audit_games(games: Iterable[Game], *, save: bool = True,
                checkpoint: checkpoints.Heads | None = None) -> Iterator[Verdict]:
    """Audit each game in turn."""
    for game in games:
        yield audit_game(game, save=save, checkpoint=checkpoint)
