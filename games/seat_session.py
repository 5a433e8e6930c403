"""A seat link exchanged for the browser's session.

A guest is handed a seat credential once (``/games/play/#<token>``: the
landing page posts it, CSRF-checked; no GET exchanges a credential). The
exchange stores the seat in the session, keyed by game, and answers with a
redirect to the clean seat page ``/games/<id>/play/``: from then on the credential is in no address,
so it does not end up in access logs, Referer headers or the browser's
history. The session keeps the credential's hash, not the credential; when
staff reissue or revoke a seat's credential (:func:`games.services.seat_reissue`)
the hash no longer matches and every session holding the old one loses
the seat. A signed-in user who took a seat holds it without any link.

A session may hold seats of several games at once (one per browser tab).
"""

from __future__ import annotations

from .models import Seat
from .services import seat_for_token

SESSION_KEY = "tablekeeper.seats"
MAX_ID = 2**63 - 1  # the largest row id the databases hold (a 64-bit signed integer)


def enter(request, token: str) -> Seat | None:
    """Store the seat of ``token`` in ``request``'s session and return it
    (``None``: no such credential; nothing stored)."""
    seat = seat_for_token(token)
    if seat is None:
        return None
    seats = dict(request.session.get(SESSION_KEY, {}))
    seats[str(seat.game_id)] = {"seat": seat.pk, "key": seat.token_hash}
    if SESSION_KEY not in request.session:
        request.session.cycle_key()  # a new session id once it holds a seat
    request.session[SESSION_KEY] = seats
    return seat


def seat_in_session(request, game_id: int) -> Seat | None:
    """The seat this request holds in game ``game_id``: from the session's
    exchanged credential, else the signed-in user's own seat. An id no row
    can have (past 64 bits) holds no seat: it is never sent to the
    database, whose driver would fail on it."""
    if not isinstance(game_id, int) or not 0 < game_id <= MAX_ID:
        return None
    session = getattr(request, "session", None)
    held = session.get(SESSION_KEY, {}).get(str(game_id)) if session is not None else None
    if held:
        seat = Seat.objects.select_related("game").filter(pk=held.get("seat"), game_id=game_id).first()
        if seat is not None and seat.token_hash and seat.token_hash == held.get("key"):
            return seat
        seats = dict(session.get(SESSION_KEY, {}))  # revoked or reissued: forget it
        seats.pop(str(game_id), None)
        session[SESSION_KEY] = seats
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return Seat.objects.select_related("game").filter(game_id=game_id, user=user).first()
    return None


def held_games(request) -> list[int]:
    """Ids of the games whose seats this session holds."""
    session = getattr(request, "session", None)
    return [int(k) for k in (session.get(SESSION_KEY, {}) if session is not None else {})]
