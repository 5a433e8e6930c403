"""Checkpoints: a chained, signed record of every stream's head.

In the spirit of Certificate Transparency's signed tree heads: a
checkpoint holds each game's head (``game id -> (version, hash)``) at one
moment, the previous checkpoint's hash, and a signature (an HMAC of its own
hash under a key derived from ``GAMES_ANCHOR_KEY``, kept outside the
database). One is written when a round closes (league), by a periodic beat
task (``games.checkpoint``) and by ``manage.py checkpoint``; nothing is
written while no stream moved since the last one.

The audit checks each stream against the newest checkpoint: a stream
shorter than its checkpointed head, or with another hash there, was cut
back or rewritten. A checkpoint exported to a file (``manage.py checkpoint
--export FILE``, or staff's ``GET /api/checkpoints/latest/``) and kept off
the server checks the streams even after the database's own checkpoints
were removed (``manage.py audit_games --checkpoint FILE``).
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from . import eventstore as es
from .models import Checkpoint, Event

FORMAT = "tablekeeper-checkpoint/1"
TASK = "games.checkpoint"  # the Celery task writing one (games.tasks)


class BadCheckpoint(ValueError):
    """A checkpoint file that is not one, or not signed by this server."""


@dataclass(frozen=True)
class Heads:
    """A checkpoint as the audit uses it."""

    seq: int
    hash: str
    heads: dict[int, tuple[int, str]]

    @property
    def holder(self) -> str:
        return f"checkpoint #{self.seq}"


def body_hash(*, seq: int, created_at: str, reason: str, heads: dict[str, Any], prev_hash: str) -> str:
    """sha256 of a checkpoint's canonical JSON (what its signature covers)."""
    body = {"format": FORMAT, "seq": seq, "created_at": created_at, "reason": reason,
            "heads": heads, "prev_hash": prev_hash}
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def sign(digest: str) -> str:
    return hmac.new(es.subkey("checkpoint"), digest.encode("ascii"), hashlib.sha256).hexdigest()


def _stamp(moment: datetime) -> str:
    return moment.isoformat(timespec="microseconds")


def stream_heads() -> dict[str, list[Any]]:
    """Every stream's head now, ``{"<game id>": [version, hash]}``, read in
    one statement (one consistent snapshot of the event table)."""
    table = Event._meta.db_table
    sql = (f"SELECT e.game_id, e.version, e.hash FROM {table} e JOIN "
           f"(SELECT game_id, MAX(version) AS v FROM {table} GROUP BY game_id) m "
           f"ON m.game_id = e.game_id AND m.v = e.version ORDER BY e.game_id")
    with connection.cursor() as cur:
        cur.execute(sql)
        return {str(game): [version, digest] for game, version, digest in cur.fetchall()}


def checkpoint_write(*, reason: str = "") -> Checkpoint:
    """Write a checkpoint of every stream's head, chained to the newest one
    and signed; the newest one itself when no stream moved since (nothing
    written). Two writers at once: one wins the next number, the other
    returns it."""
    reason = reason[:200]
    for _ in range(3):
        with transaction.atomic():
            heads = stream_heads()
            last = Checkpoint.objects.order_by("-seq").first()
            if last is not None and last.heads == heads:
                return last
            seq = 1 if last is None else last.seq + 1
            prev = es.GENESIS_HASH if last is None else last.hash
            now = timezone.now()
            digest = body_hash(seq=seq, created_at=_stamp(now), reason=reason, heads=heads, prev_hash=prev)
            try:
                with transaction.atomic():
                    return Checkpoint.objects.create(seq=seq, created_at=now, reason=reason, heads=heads,
                                                     prev_hash=prev, hash=digest, signature=sign(digest))
            except IntegrityError:
                continue  # another writer took this number: read again
    return Checkpoint.objects.order_by("-seq").first()


def export(checkpoint: Checkpoint) -> dict[str, Any]:
    """The checkpoint as a file an organiser keeps (JSON)."""
    return {"format": FORMAT, "seq": checkpoint.seq, "created_at": _stamp(checkpoint.created_at),
            "reason": checkpoint.reason, "heads": checkpoint.heads, "prev_hash": checkpoint.prev_hash,
            "hash": checkpoint.hash, "signature": checkpoint.signature}


def problems_of(data: dict[str, Any]) -> list[str]:
    """What is wrong with an exported (or stored) checkpoint: its hash is not
    its content's, or its signature is not this server's."""
    out = []
    try:
        digest = body_hash(seq=data["seq"], created_at=data["created_at"], reason=data["reason"],
                           heads=data["heads"], prev_hash=data["prev_hash"])
    except (KeyError, TypeError) as exc:
        return [f"not a checkpoint ({exc})"]
    if digest != data.get("hash"):
        out.append("its hash is not its content's (it was edited)")
    elif not isinstance(data.get("signature"), str) or not hmac.compare_digest(sign(digest), data["signature"]):
        out.append("its signature does not hold (not signed by this server's key)")
    return out


def load_file(text: str) -> Heads:
    """A kept checkpoint file, checked.

    :raises BadCheckpoint: not JSON, not a checkpoint, edited, or not
        signed by this server's key.
    """
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise BadCheckpoint(f"not JSON: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BadCheckpoint(f"not a checkpoint file (format {FORMAT!r})")
    found = problems_of(data)
    if found:
        raise BadCheckpoint(f"checkpoint #{data.get('seq')}: {'; '.join(found)}")
    return _heads(data["seq"], data["hash"], data["heads"])


def _heads(seq: int, digest: str, heads: dict[str, Any]) -> Heads:
    return Heads(seq, digest, {int(g): (int(v), str(h)) for g, (v, h) in heads.items()})


_NEWEST: dict[str, Any] = {}


def newest() -> Heads | None:
    """The newest checkpoint whose hash and signature hold (one whose do not
    is skipped: :func:`chain_problems` names it), kept per process by its
    number."""
    for seq, digest in Checkpoint.objects.order_by("-seq").values_list("seq", "hash")[:5]:
        held = _NEWEST.get("heads")
        if held is not None and (held.seq, held.hash) == (seq, digest):
            return held
        row = Checkpoint.objects.get(seq=seq)
        if not problems_of(export(row)):
            _NEWEST["heads"] = _heads(row.seq, row.hash, row.heads)
            return _NEWEST["heads"]
    return None


def chain_problems() -> list[str]:
    """Every fault of the stored checkpoints: a number missing, a link to a
    previous hash that is not that checkpoint's, an edited body, a signature
    that does not hold."""
    out = []
    prev, expected = es.GENESIS_HASH, 1
    for row in Checkpoint.objects.order_by("seq").iterator(chunk_size=50):
        if row.seq != expected:
            out.append(f"checkpoint #{expected} is missing (the chain jumps to #{row.seq})")
        elif row.prev_hash != prev:
            out.append(f"checkpoint #{row.seq} does not link to #{row.seq - 1}'s hash")
        out += [f"checkpoint #{row.seq}: {p}" for p in problems_of(export(row))]
        prev, expected = row.hash, row.seq + 1
    return out
