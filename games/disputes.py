"""Disputes on recorded moves, settled by the solver (Rummikub) or the
engine's judge (contract rummy).

A player (with their seat credential) or an official opens a dispute on one
``MoveRecorded`` event of a Rummikub or contract rummy game::

    dispute = dispute_open(game=g, move_version=12, kind="table_invalid", seat=1)

:func:`dispute_open` writes a :class:`~games.models.Dispute` row (status
``waiting``), appends ``DisputeOpened`` to the game's stream and queues the
``games.resolve_dispute`` task through the outbox, all in one transaction.
The worker calls :func:`dispute_resolve`, which replays the stream to the
disputed move, asks the engine the question of the dispute's kind and
appends ``DisputeResolved`` with the verdict and its evidence. Each family
judges its own kinds (its description's ``dispute_kinds``, :mod:`engine.family`); a kind of another family is
refused when the dispute is opened. Rummikub, by :mod:`engine.solver`:

``table_invalid``
    "the table after the move was not valid". The tiles judged are the
    table after the move; for a play the rules turned into a penalty, the
    table the refused play would have left (the complaint of the player who
    was penalised); or the tiles an official typed in from a real table
    (``claimed_table``). Verdict ``table_not_valid`` (upheld; no division
    exists) or ``table_valid`` (dismissed; the evidence is an arrangement
    into valid melds).
``could_open``
    "the player could have made the initial meld" on a turn where they did
    not. Verdict ``could_have_opened`` (the evidence is the play) or
    ``could_not_open``.
``not_best``
    "the play was not the best" (training games). Verdict
    ``better_play_existed`` (the evidence is the best play: most tiles, then
    most value) or ``best_play``.

Contract rummy, by :func:`engine.contract.judge_going_out`:

``winning_hand``
    "the hand that went out was not a winning one", on the move that
    emptied a player's hand (any other move is refused when the dispute is
    opened). The going-out is pushed again on the state before it: each
    meld valid for the profile, the hand's contract met when going down,
    the last card played (never discarded), not on a turn the discard was
    taken where the profile forbids it; then every meld of the table it
    left is checked again. Verdict ``winning_hand_valid`` (dismissed; the
    evidence is the melds laid, each with its kind, the contract and the
    table) or ``winning_hand_not_valid`` (upheld; the evidence names the
    first rule broken). The cards were laid on the table: the evidence is
    public. A game entered from a real table records its moves in the
    stream like a digital one, so its going-out is disputed the same way;
    ``claimed_table`` (a typed-in Rummikub table) has no contract
    counterpart. A Rummikub rack emptied is disputed with ``table_invalid``
    on that play (the table after it must divide); ``winning_hand`` is
    refused there.

The table is read as seed 000 reads it: a multiset that may be rearranged
freely. Resolving twice changes nothing: a dispute that is ``done`` is
returned as it is. Evidence drawn from a rack is hidden information: the
selectors show it to staff, to the seat that made the move, and to everyone
once the game is over.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.utils import timezone

from engine.family import DisputeRefused

from . import eventstore as es
from . import outbox
from .errors import BadRequest, GameServiceError, NotYourSeat
from .models import Dispute, Game, SeedSecret, TaskState
from .replay import ReplayError, apply_move, rebuild

log = logging.getLogger(__name__)

TASK = "games.resolve_dispute"
DISPUTE_OPENED = "DisputeOpened"
DISPUTE_RESOLVED = "DisputeResolved"
CONFLICT_RETRIES = 20


class DisputeError(GameServiceError):
    """A dispute that cannot be opened (the message says why)."""

    code = "bad-dispute"


# --- reading the stream around a move ---------------------------------------------

def _seed(game: Game, events) -> str | None:
    for event in events:
        if event.type == es.GAME_FINISHED and event.payload.get("seed"):
            return event.payload["seed"]
    return SeedSecret.objects.filter(game=game).values_list("seed", flat=True).first()


def states_around(game: Game, move_version: int):
    """``(before, after, payload)``: the engine states just before and just
    after the ``MoveRecorded`` event at ``move_version``, and its payload.

    :raises DisputeError: no such event, or it is not a move.
    :raises ReplayError: the stream does not replay.
    """
    events = es.load(game.pk)
    target = next((e for e in events if e.version == move_version), None)
    if target is None:
        raise DisputeError(f"game {game.pk} has no event {move_version} "
                           f"(it is at version {game.version})", "no-such-move")
    if target.type != es.MOVE_RECORDED:
        raise DisputeError(f"event {move_version} of game {game.pk} is a {target.type}, not a move",
                           "not-a-move")
    seed = _seed(game, events)
    earlier = [e for e in events if e.version < move_version]
    before = rebuild(earlier, seed=seed).state
    after = type(before).from_snapshot(before.snapshot())
    try:
        apply_move(after, target.payload)
    except ValueError as exc:
        raise ReplayError(move_version, f"move does not replay: {exc}") from None
    return before, after, target.payload


# --- the judge (pure: states in, verdict out) ----------------------------------------

def judge(kind: str, before, after, payload: dict[str, Any], *,
          claimed_table: list[int] | None = None) -> dict[str, Any]:
    """Answer a dispute of ``kind`` about the move ``payload`` that turned
    ``before`` into ``after``, with the judge of the states' family
    (:meth:`engine.family.Family.judge`).

    :returns: ``{"upheld", "verdict", "summary", "evidence"}``.
    :raises DisputeError: an unknown kind, a family no judge answers, a
        kind that does not apply to this family or to this move.
    :raises engine.errors.EngineError: the engine refused the position.
    """
    family = _family(type(before).family)
    _check_kind(kind, family, name=type(before).family)
    try:
        return family.judge(kind, before, after, payload, claimed_table=claimed_table)
    except DisputeRefused as exc:
        raise DisputeError(str(exc), exc.code) from None


def _family(name: str):
    from engine.registry import family_for

    try:
        return family_for(name)
    except ValueError:
        return None


def family_kinds(name: str) -> tuple[str, ...]:
    """The dispute kinds the family's judge answers (none for a family the
    engine does not know)."""
    family = _family(name)
    return family.dispute_kinds if family is not None else ()


def _check_kind(kind: str, family, game: str = "this game", *, name: str = "") -> None:
    """:raises DisputeError: unknown kind, unjudged family, or a kind of
    another family (``game`` names the game in the message)."""
    if kind not in Dispute.Kind.values:
        raise DisputeError(f"unknown dispute kind {kind!r} (one of {', '.join(Dispute.Kind.values)})", "bad-kind")
    if family is None or not family.dispute_kinds:
        judged = ", ".join(f.title for f in _judged())
        raise DisputeError(f"disputes are judged for {judged} games; "
                           f"{game} is {family.title if family else name}", "not-judged")
    if kind not in family.dispute_kinds:
        hint = family.dispute_hints.get(kind, "")
        raise DisputeError(f"a {kind} dispute is not judged for {family.name} games (their kinds: "
                           f"{', '.join(family.dispute_kinds)}){'; ' + hint if hint else ''}", "not-applicable")


def _judged() -> list:
    from engine.registry import families

    return [f for f in families() if f.dispute_kinds]


# Kinds whose evidence is on the table for everyone to see (any seat may
# open them while the game is on); the others look at the mover's rack.
PUBLIC_KINDS = (Dispute.Kind.TABLE_INVALID, Dispute.Kind.WINNING_HAND)


# --- services --------------------------------------------------------------------

def _append(game_id: int, event_type: str, payload: dict, actor: str) -> int:
    """Append one event at the stream's head, retrying while other writers
    (moves, other disputes) take versions first. Returns its version."""
    from .services import game_append_event

    for _ in range(CONFLICT_RETRIES):
        head = Game.objects.values_list("version", flat=True).get(pk=game_id)
        try:
            return game_append_event(game=game_id, expected_version=head, type=event_type,
                                     payload=payload, actor=actor).version
        except es.ConcurrencyConflict:
            continue
    raise es.ConcurrencyConflict(game_id, head)


def dispute_open(*, game: Game | int, move_version: int, kind: str, seat: int | None = None,
                 note: str = "", claimed_table: list[str] | str | None = None,
                 actor: str = "") -> Dispute:
    """Open a dispute on the move at ``move_version`` and queue its
    resolution. ``seat`` is the seat of the player opening it (``None``: an
    official).

    The same question asked again (same game, move, kind and claimed
    table: the answer depends on the stream up to that move only, which
    never changes) opens nothing: the first dispute is returned, whatever
    its state, with ``reused = True``, and the judge does not run again.

    :raises DisputeError: unknown kind, no such move, a family no judge
        answers, a kind of another family, a kind that does not apply to
        that move (``winning_hand`` on a move that did not go out), bad
        ``claimed_table`` tiles, ``not_best`` on a game that is not a
        training game.
    :raises BadRequest: ``move_version`` or ``seat`` not a number.
    """
    game_id = game if isinstance(game, int) else game.pk
    game = Game.objects.get(pk=game_id)
    family = _family(game.family)
    _check_kind(kind, family, f"game {game.pk}", name=game.family)
    if not isinstance(move_version, int) or isinstance(move_version, bool) or move_version < 1:
        raise BadRequest(f"move_version must be a positive whole number, got {move_version!r}", "bad-version")
    if seat is not None and (not isinstance(seat, int) or not 0 <= seat < game.players):
        raise BadRequest(f"game {game.pk} has seats 0 to {game.players - 1}, not {seat!r}", "bad-seat")
    if kind == Dispute.Kind.NOT_BEST and not game.training:
        raise DisputeError(f"game {game.pk} is not a training game: no rule obliges a player to make the best "
                           f"play, so a not_best dispute applies only to training games", "not-training")
    before, after, payload = states_around(game, move_version)
    mover = payload.get("seat", before.to_move)
    if seat is not None and kind not in PUBLIC_KINDS and seat != mover and not game.is_over:
        raise NotYourSeat(f"a {kind} dispute looks at the rack of seat {mover}: while the game is on, "
                          f"only that seat or an official may open it", "not-your-move")
    if claimed_table is not None and kind != Dispute.Kind.TABLE_INVALID:
        raise DisputeError("claimed_table only goes with a table_invalid dispute", "bad-claimed-table")
    claimed, tokens = None, None
    try:
        if claimed_table is not None:
            claimed, tokens = family.parse_claimed(claimed_table, before)
        # refuse a dispute that cannot apply, now rather than later
        family.check_dispute(kind, before, payload, move_version)
    except DisputeRefused as exc:
        raise DisputeError(str(exc), exc.code) from None
    with transaction.atomic():
        # one opener at a time per game: the same question asked twice at
        # once is still asked (and judged) once
        Game.objects.select_for_update().filter(pk=game.pk).values_list("pk", flat=True).first()
        same = next((d for d in Dispute.objects.filter(game=game, move_version=move_version, kind=kind).order_by("id")
                     if d.claimed_table == tokens), None)
        if same is not None:
            same.reused = True
            return same
        dispute = Dispute.objects.create(
            game=game, move_version=move_version, kind=kind, opened_by_seat=seat, actor=actor[:120],
            note=note[:2000], claimed_table=tokens)
        opened = {"dispute": dispute.pk, "move_version": move_version, "kind": kind,
                  "by": "official" if seat is None else f"seat:{seat}", "note": dispute.note}
        if claimed is not None:
            opened["claimed_table"] = dispute.claimed_table
        dispute.opened_version = _append(game.pk, DISPUTE_OPENED, opened, actor)
        dispute.save(update_fields=["opened_version"])
        outbox.enqueue(TASK, [dispute.pk], game=game, event_version=dispute.opened_version)
    return dispute


def dispute_resolve(*, dispute_id: int) -> Dispute:
    """Settle a dispute: replay to the move, ask the family's judge, append
    ``DisputeResolved`` and mark the dispute done. A dispute already done is
    returned unchanged (a duplicate task does nothing).

    :raises Dispute.DoesNotExist: no such dispute.
    :raises Exception: whatever failed (the dispute is marked ``failed``
        with the error, and the task may retry).
    """
    with transaction.atomic():
        dispute = Dispute.objects.select_for_update().get(pk=dispute_id)
        if dispute.status == TaskState.DONE:
            return dispute
        dispute.status = TaskState.RUNNING
        dispute.attempts += 1
        dispute.started_at = timezone.now()
        dispute.error = ""
        dispute.save(update_fields=["status", "attempts", "started_at", "error"])
    try:
        game = Game.objects.get(pk=dispute.game_id)
        before, after, payload = states_around(game, dispute.move_version)
        claimed = None
        if dispute.claimed_table:
            claimed = _family(game.family).parse_claimed(dispute.claimed_table, before)[0]
        answer = judge(dispute.kind, before, after, payload, claimed_table=claimed)
        with transaction.atomic():
            locked = Dispute.objects.select_for_update().get(pk=dispute_id)
            if locked.status == TaskState.DONE:  # another worker finished first
                return locked
            event = {"dispute": locked.pk, "move_version": locked.move_version, "kind": locked.kind,
                     **answer}
            locked.resolved_version = _append(game.pk, DISPUTE_RESOLVED, event, "worker:disputes")
            locked.upheld = answer["upheld"]
            locked.verdict = answer["verdict"]
            locked.summary = answer["summary"]
            locked.evidence = answer["evidence"]
            locked.status = TaskState.DONE
            locked.finished_at = timezone.now()
            locked.save(update_fields=["resolved_version", "upheld", "verdict", "summary", "evidence",
                                       "status", "finished_at"])
        return locked
    except Exception as exc:
        Dispute.objects.filter(pk=dispute_id).exclude(status=TaskState.DONE).update(
            status=TaskState.FAILED, error=f"{type(exc).__name__}: {exc}"[:2000], finished_at=timezone.now())
        raise


def dispute_retry(*, dispute: Dispute) -> Dispute:
    """Queue a failed (or stuck) dispute again.

    :raises DisputeError: the dispute is already settled.
    """
    with transaction.atomic():
        locked = Dispute.objects.select_for_update().get(pk=dispute.pk)
        if locked.status == TaskState.DONE:
            raise DisputeError(f"dispute {locked.pk} is already settled", "already-settled")
        locked.status = TaskState.WAITING
        locked.save(update_fields=["status"])
        outbox.enqueue(TASK, [locked.pk], game=locked.game, event_version=locked.opened_version)
    return locked


def requeue_stalled(*, idle_seconds: float = 0) -> int:
    """Queue again the disputes still waiting or running after
    ``idle_seconds`` (their task was lost). Returns how many."""
    from datetime import timedelta

    cutoff = timezone.now() - timedelta(seconds=idle_seconds)
    stalled = Dispute.objects.filter(status__in=[TaskState.WAITING, TaskState.RUNNING], created_at__lt=cutoff)
    with transaction.atomic():
        ids = list(stalled.values_list("pk", flat=True))
        for pk in ids:
            outbox.enqueue(TASK, [pk])
    return len(ids)


# --- reads -----------------------------------------------------------------------

def dispute_data(dispute: Dispute, *, staff: bool = False, seat: int | None = None) -> dict[str, Any]:
    """A dispute as the API shows it. Evidence drawn from a rack (every kind
    but a table judged after the move or from a claimed table, and a
    winning hand, whose cards were laid on the table) is shown only to
    staff, to the seat that made the move, and to everyone once the game is
    over."""
    evidence, verdict, upheld, summary = dispute.evidence, dispute.verdict, dispute.upheld, dispute.summary
    if evidence is not None and not (staff or dispute.game.is_over):
        public = (dispute.kind == Dispute.Kind.WINNING_HAND
                  or dispute.kind == Dispute.Kind.TABLE_INVALID
                  and evidence.get("source") in ("after-move", "claimed"))
        if not public and not (seat is not None and seat == evidence.get("seat")):
            # the verdict itself says something about a rack: kept until the end
            evidence = {"hidden": "shown to the seat that moved, to staff, and to everyone once the game is over"}
            verdict, upheld, summary = "", None, ""
    return {
        "id": dispute.pk, "game": dispute.game_id, "move_version": dispute.move_version,
        "kind": dispute.kind, "opened_by": "official" if dispute.opened_by_seat is None
        else f"seat:{dispute.opened_by_seat}",
        "note": dispute.note, "claimed_table": dispute.claimed_table, "status": dispute.status,
        "attempts": dispute.attempts, "upheld": upheld, "verdict": verdict,
        "summary": summary, "evidence": evidence, "error": dispute.error,
        "opened_version": dispute.opened_version, "resolved_version": dispute.resolved_version,
        "created_at": dispute.created_at.isoformat() if dispute.created_at else None,
        "finished_at": dispute.finished_at.isoformat() if dispute.finished_at else None,
    }
