"""Signed head receipts: proof, held by a player, that a stream once reached
an event with a given hash.

Every accepted move's answer, the seat's view (API and page) and every
socket frame carry ``{"game", "version", "hash", "hmac"}``: the stream's
head as the server gave it, with an HMAC under a key of its own derived
from ``GAMES_ANCHOR_KEY`` (kept outside the database; an anchor is never a
receipt). The player's browser keeps the newest one per game. Later, anyone
holding a receipt can ask whether the stream still has that event with that
hash (:func:`verify`): a stream cut back and its row set back no longer
does, and the answer names the missing tail.

Whoever can write the database but does not hold the key cannot make a
receipt, nor cut a stream back without every receipt issued past the cut
naming the missing events.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from dataclasses import dataclass
from typing import Any

from . import eventstore as es
from .models import Event

_HEX64 = re.compile(r"[0-9a-f]{64}")


def _mac(game_id: int, version: int, digest: str) -> str:
    message = f"{game_id}:{version}:{digest}".encode("ascii")
    return hmac.new(es.subkey("head-receipt"), message, hashlib.sha256).hexdigest()


def receipt(game_id: int, version: int, digest: str) -> dict[str, Any]:
    """The signed receipt of ``game_id``'s event ``version`` whose hash is
    ``digest``."""
    return {"game": game_id, "version": version, "hash": digest, "hmac": _mac(game_id, version, digest)}


def receipt_at(game_id: int, version: int) -> dict[str, Any] | None:
    """The receipt of the stream's event ``version`` as stored now (``None``
    if there is no such event)."""
    digest = Event.objects.filter(game_id=game_id, version=version).values_list("hash", flat=True).first()
    return receipt(game_id, version, digest) if digest else None


class BadReceipt(ValueError):
    """A receipt that is not one (a missing or malformed field), or not
    signed by this server's key."""


def parse(data: Any) -> tuple[int, int, str]:
    """``(game, version, hash)`` of a receipt whose HMAC holds.

    :raises BadReceipt: not an object with ``game``, ``version``, ``hash``
        and ``hmac`` of the right shapes, or an HMAC that is not this
        server's (forged, altered, or signed under another key).
    """
    if not isinstance(data, dict):
        raise BadReceipt(f"a receipt is an object with game, version, hash and hmac, not {type(data).__name__}")
    missing = [k for k in ("game", "version", "hash", "hmac") if k not in data]
    if missing:
        raise BadReceipt(f"the receipt has no {', '.join(missing)}")
    game, version, digest, mac = data["game"], data["version"], data["hash"], data["hmac"]
    for name, value in (("game", game), ("version", version)):
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value < 2 ** 31:
            raise BadReceipt(f"the receipt's {name} must be a whole number from 1, not {value!r}")
    for name, value in (("hash", digest), ("hmac", mac)):
        if not isinstance(value, str) or not _HEX64.fullmatch(value):
            raise BadReceipt(f"the receipt's {name} must be 64 lower-case hex digits")
    if not hmac.compare_digest(_mac(game, version, digest), mac):
        raise BadReceipt("the receipt's hmac does not hold: it was not issued by this server "
                         "(or it was altered, or the server's key changed)")
    return game, version, digest


@dataclass(frozen=True)
class ReceiptCheck:
    game: int
    version: int
    ok: bool
    stream_version: int
    first_bad_version: int | None = None
    problem: str = ""

    def __str__(self) -> str:
        if self.ok:
            return f"game {self.game}: the receipt of event {self.version} is in the stream"
        return f"game {self.game}: BAD at event {self.first_bad_version}: {self.problem}"


def head_problem(last: int, hash_at: dict[int, str], version: int, digest: str | None,
                 holder: str) -> tuple[int, str] | None:
    """``(first bad version, problem)`` when a stream ending at ``last``
    (its hashes ``hash_at``) lacks the head ``holder`` kept (``version``,
    hash ``digest``; ``None``: the version alone), else ``None``.

    Shared by receipts, checkpoints and the league's recorded results."""
    if version > last:
        missing = f"event {version} is" if version == last + 1 else f"events {last + 1}..{version} are"
        return last + 1, f"{missing} missing: the stream ends at {last} ({holder} holds event {version})"
    held = hash_at.get(version)
    if held is None:
        return None  # a gap: the chain check names it
    if digest is not None and held != digest:
        return version, (f"event {version} was changed: its hash is {held[:16]}… but {holder} holds "
                         f"{digest[:16]}… (an event up to {version} was rewritten)")
    return None


def verify(game_id: int, data: Any) -> ReceiptCheck:
    """Whether the receipt ``data`` of ``game_id`` is in the stream: its
    version exists with that hash. A stream that no longer reaches it is
    named by its missing tail ("events 34..37 are missing: the stream ends
    at 33"); an event there with another hash, as changed.

    :raises BadReceipt: not a receipt of this server, or one of another game.
    """
    game, version, digest = parse(data)
    if game != game_id:
        raise BadReceipt(f"this receipt is of game {game}, not game {game_id}")
    last = Event.objects.filter(game_id=game_id).order_by("-version").values_list("version", flat=True).first() or 0
    held = Event.objects.filter(game_id=game_id, version=version).values_list("hash", flat=True).first()
    found = head_problem(last, {version: held} if held else {}, version, digest, "the receipt")
    if found is None and held is None and version <= last:
        found = (version, f"event {version} is missing (deleted) though the stream goes on to {last}")
    if found is None:
        return ReceiptCheck(game_id, version, True, last)
    return ReceiptCheck(game_id, version, False, last, *found)
