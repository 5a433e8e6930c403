"""Seat credentials for the API: ``Authorization: Seat <token>``.

A request carrying a valid seat credential is authenticated as that seat:
``request.auth`` is the :class:`~games.models.Seat`. Staff use the normal
Django session or basic authentication.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions

from .seat_session import seat_in_session
from .services import seat_for_token


class SeatTokenAuthentication(authentication.BaseAuthentication):
    keyword = "Seat"

    def authenticate(self, request):
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].lower() != self.keyword.lower().encode():
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed("seat credential header must be 'Seat <token>'")
        seat = seat_for_token(header[1].decode("ascii", "replace"))
        if seat is None:
            raise exceptions.AuthenticationFailed("unknown seat credential")
        return (AnonymousUser(), seat)

    def authenticate_header(self, request):
        return self.keyword


class SeatTokenScheme(OpenApiAuthenticationExtension):
    target_class = "games.auth.SeatTokenAuthentication"
    name = "seatToken"

    def get_security_definition(self, auto_schema):
        return {"type": "apiKey", "in": "header", "name": "Authorization",
                "description": "`Seat <token>`: the credential returned when taking a seat."}


class SeatSessionAuthentication(authentication.SessionAuthentication):
    """The seat this browser's session holds in the game named by the URL
    (``game_id``; exchanged from a seat link, :mod:`games.seat_session`),
    with Django's CSRF check on unsafe methods as for any session. The seat
    page posts its moves this way; ``request.auth`` is the seat."""

    def authenticate(self, request):
        game_id = ((request.parser_context or {}).get("kwargs") or {}).get("game_id")
        if game_id is None:
            return None
        seat = seat_in_session(request._request, game_id)
        if seat is None:
            return None
        self.enforce_csrf(request)
        return (getattr(request._request, "user", None) or AnonymousUser(), seat)


class SeatSessionScheme(OpenApiAuthenticationExtension):
    target_class = "games.auth.SeatSessionAuthentication"
    name = "seatSession"

    def get_security_definition(self, auto_schema):
        return {"type": "apiKey", "in": "cookie", "name": "sessionid",
                "description": "The browser session holding a seat (from a seat link), with X-CSRFToken."}
