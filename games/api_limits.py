"""What the API takes and how often: a JSON parser with size and depth
limits, rate limits (429 with ``Retry-After``), and JSON answers for every
error under ``/api/`` (no HTML page, whatever raised it).

Settings (each with a default in ``config/settings.py``):

- ``API_MAX_BODY_BYTES``: the largest request body the API reads.
- ``API_MAX_JSON_DEPTH``: the deepest nesting of arrays and objects.
- ``API_RATE_LIMITS``: ``{scope: "N/period"}`` for the scopes below
  (``None`` or a missing scope: no limit); read at each request, so tests
  can lower or raise them with the ``settings`` fixture. Each is counted
  per client address and per credential together
  (:class:`ScopedRateThrottle`).
"""

from __future__ import annotations

import json

from django.conf import settings
from django.http import JsonResponse
from rest_framework.exceptions import ParseError, UnsupportedMediaType
from rest_framework.parsers import JSONParser
from rest_framework.throttling import SimpleRateThrottle

from .charsets import NAMES as CHARSET_NAMES, allowed_charset

_OPEN, _CLOSE = frozenset("[{"), frozenset("]}")


def json_depth_exceeds(raw: bytes | str, limit: int) -> bool:
    """Whether ``raw`` (JSON text, or its UTF-8 bytes) nests arrays and
    objects deeper than ``limit`` (brackets inside strings do not count).
    Runs in one pass without recursion, so it is safe on any input."""
    text = raw.decode("latin-1") if isinstance(raw, (bytes, bytearray)) else raw  # ASCII stays ASCII
    depth = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in _OPEN:
            depth += 1
            if depth > limit:
                return True
        elif char in _CLOSE:
            depth -= 1
    return False


class LimitedJSONParser(JSONParser):
    """DRF's JSON parser with limits: a body over ``API_MAX_BODY_BYTES`` (as
    sent, and as decoded), JSON nested deeper than ``API_MAX_JSON_DEPTH`` (in
    the decoded text), a lone surrogate, or a body that is not a JSON object
    is refused with a 400 naming the problem; a charset outside
    :data:`games.charsets.ALLOWED` with a 415. Nothing is decoded past the
    limits."""

    def parse(self, stream, media_type=None, parser_context=None):
        parser_context = parser_context or {}
        limit = int(getattr(settings, "API_MAX_BODY_BYTES", 100_000))
        depth = int(getattr(settings, "API_MAX_JSON_DEPTH", 32))
        request = parser_context.get("request")
        declared = getattr(request, "META", {}).get("CONTENT_LENGTH") if request is not None else None
        try:
            if declared and int(declared) > limit:
                raise ParseError(f"the request body is {int(declared)} bytes; the API takes at most {limit}")
        except ValueError:
            raise ParseError(f"Content-Length {declared!r} is not a number") from None
        raw = stream.read(limit + 1)
        if len(raw) > limit:
            raise ParseError(f"the request body is over {limit} bytes; the API takes at most {limit}")
        encoding = parser_context.get("encoding") or settings.DEFAULT_CHARSET
        if not allowed_charset(encoding):  # RequestCharsets refused it already; never decoded here
            raise UnsupportedMediaType(f"application/json; charset={encoding}",
                                       detail=f"the charset {encoding[:40]!r} is not taken: send {CHARSET_NAMES}")
        try:
            text = raw.decode(encoding)  # a text encoding: one byte gives at most one character
        except UnicodeDecodeError as exc:
            raise ParseError(f"the body is not {encoding} text: {exc.reason} at byte {exc.start}") from None
        # the limits hold for what was decoded, not only for what was sent
        if len(text) > limit:
            raise ParseError(f"the request body is over {limit} characters; the API takes at most {limit}")
        if json_depth_exceeds(text, depth):
            raise ParseError(f"the JSON is nested deeper than {depth} levels")
        try:
            data = json.loads(text, parse_constant=_no_constant)
        except RecursionError:  # cannot happen within the depth limit; never a 500
            raise ParseError(f"the JSON is nested deeper than {depth} levels") from None
        except ValueError as exc:
            raise ParseError(f"JSON parse error - {exc}") from None
        if _has_lone_surrogate(data):
            raise ParseError("the JSON holds a lone surrogate (such as \\ud800): a string must be Unicode text")
        if not isinstance(data, dict):
            raise ParseError(f"the request body must be a JSON object, not {_json_kind(data)}")
        return data


def _has_lone_surrogate(data) -> bool:
    """Whether a parsed body holds a string (or key) with a lone UTF-16
    surrogate, which JSON's ``\\ud800`` escape can carry but no UTF-8 text
    (nor the database, nor the JSON answer echoing it) can hold."""
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _no_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


def _json_kind(value) -> str:
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "true or false"
    if value is None:
        return "null"
    return "a number"


class ScopedRateThrottle(SimpleRateThrottle):
    """A rate limit per scope (``throttle_scope`` on the view), counted
    against the client's address and, besides, against its credential (the
    logged-in user, or the seat credential): a request is refused (429 with
    ``Retry-After``) when either count is full, so adding credentials gives
    an address no more requests, and changing address gives a credential no
    more. Reads are never limited. The rate is read from
    ``settings.API_RATE_LIMITS`` at each request.

    Cache keys (Django's cache): ``throttle_<scope>_ip:<address>``,
    ``throttle_<scope>_user:<id>``, ``throttle_<scope>_seat:<id>``; each
    holds the times of the requests counted within the period.
    """

    scope_attr = "throttle_scope"

    def __init__(self):  # the rate is read per request in allow_request
        pass

    def get_rate(self):
        return (getattr(settings, "API_RATE_LIMITS", None) or {}).get(self.scope)

    def allow_request(self, request, view):
        scope = getattr(view, self.scope_attr, None)
        if not scope or request.method in ("GET", "HEAD", "OPTIONS"):
            return True  # only writes (and the audit's POST) are limited
        return self.take(request, scope)

    def _ready(self, scope: str) -> bool:
        self.scope = scope
        self.rate = self.get_rate()
        if not self.rate:
            return False
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return True

    def cache_keys(self, request) -> list[str]:
        """The keys a request counts against: its address, and its
        credential when it has one."""
        idents = [f"ip:{self.get_ident(request)}"]
        user = getattr(request, "user", None)
        if getattr(user, "is_authenticated", False):
            idents.append(f"user:{user.pk}")
        elif getattr(request.auth, "token_hash", None):
            idents.append(f"seat:{request.auth.pk}")
        return [self.cache_format % {"scope": self.scope, "ident": ident} for ident in idents]

    def get_cache_key(self, request, view):  # DRF's single key: the first of cache_keys
        return self.cache_keys(request)[0]

    def full(self, request, scope: str) -> bool:
        """Whether ``scope`` is full for this request (nothing counted)."""
        if not self._ready(scope):
            return False
        self.now = self.timer()
        for key in self.cache_keys(request):
            history = [t for t in self.cache.get(key, []) if t > self.now - self.duration]
            if len(history) >= self.num_requests:
                self.history = history  # for wait(): Retry-After
                return True
        return False

    def take(self, request, scope: str) -> bool:
        """Count this request against ``scope`` unless it is full; whether
        it was allowed."""
        if self.full(request, scope):
            return False
        if self.rate:
            for key in self.cache_keys(request):
                history = [t for t in self.cache.get(key, []) if t > self.now - self.duration]
                self.cache.set(key, [self.now, *history], self.duration)
        return True


def refuse_if_full(request, view, scope: str) -> ScopedRateThrottle:
    """Raise DRF's ``Throttled`` (429) when ``scope`` is full for this
    request, counting nothing; the throttle, for :meth:`count` later (a
    limit on what a request turns out to be, such as a stale move)."""
    throttle = ScopedRateThrottle()
    if throttle.full(request, scope):
        view.throttled(request, throttle.wait())
    return throttle


_CODES = {400: "bad-request", 401: "not-authenticated", 403: "forbidden", 404: "not-found",
          405: "method-not-allowed", 413: "too-large", 415: "unsupported-media-type", 429: "throttled",
          500: "server-error"}


class ApiJsonErrors:
    """Middleware: an error answer under ``/api/`` that is not JSON already
    (Django's 404 for an address no route matches, its 400 for a body over
    ``DATA_UPLOAD_MAX_MEMORY_SIZE``, a 500 page, a lockout page) becomes
    ``{"error", "detail"}`` JSON with the same status and headers."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if (request.path.startswith("/api/") and response.status_code >= 400
                and not response.get("Content-Type", "").startswith("application/json")):
            status = response.status_code
            detail = {404: f"no such API address: {request.path}",
                      400: "bad request (a body over the size limit, or malformed)",
                      500: "the server failed on this request"}.get(status, getattr(response, "reason_phrase", ""))
            if status == 429:
                detail = "too many attempts: wait before trying again"
            limit = getattr(settings, "DATA_UPLOAD_MAX_MEMORY_SIZE", None)
            size = request.META.get("CONTENT_LENGTH") or ""
            if status == 400 and limit and size.isdigit() and int(size) > limit:
                detail = f"the request body is {int(size)} bytes; the API takes at most {limit}"
            json_response = JsonResponse({"error": _CODES.get(status, "error"), "detail": detail}, status=status)
            for header in ("Retry-After", "WWW-Authenticate", "Allow"):
                if header in response:
                    json_response[header] = response[header]
            return json_response
        return response
