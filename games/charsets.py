"""Which text encodings a request body may declare: a short allow-list.

Django believes any ``charset=`` a request's ``Content-Type`` names that
:func:`codecs.lookup` knows, and decodes the form fields, the query
string and (through DRF) the JSON body with it. Python's codecs include
bytes-to-bytes transforms (``bz2_codec``, ``zlib_codec``, ``base64``,
``rot13``...) and encodings that hide brackets from a byte-level check
(``utf-7``, ``utf-16``): a 103-byte body declared ``bz2_codec`` decoded to
20 MB. So only encodings in which one byte gives at most one character
and ASCII stays ASCII are taken: UTF-8, US-ASCII and ISO-8859-1 (Latin-1),
under any name Python's ``encodings.aliases`` gives them. Every other
``charset=``, on any request under any address, is answered 415 before
anything reads the body (:class:`RequestCharsets`, the first middleware
after Django's security middleware). The API's JSON parser asks the same
question (:func:`allowed_charset`) again.

Django adopts a declared charset while it builds the request, before any
middleware runs, and decodes a query string with it right there (its
``encoding`` setter reads ``request.GET``): ``GET /games/?name=x`` with
``charset=bz2_codec`` failed inside the request's constructor, outside
Django's error handling (daphne's own 500 page). The entry points
(``config/wsgi.py``, ``config/asgi.py``) build their requests with
:class:`WSGIRequest` and :class:`ASGIRequest`, which never adopt a
refused charset; the middleware then refuses the request.
"""

from __future__ import annotations

import encodings
from encodings.aliases import aliases

from django.core.handlers import asgi, wsgi
from django.http import JsonResponse
from django.utils.http import parse_header_parameters

# the codec modules taken, and every alias Python gives them
_CODECS = ("utf_8", "ascii", "latin_1")
ALLOWED = frozenset(_CODECS) | frozenset(alias for alias, codec in aliases.items() if codec in _CODECS)
NAMES = "UTF-8, US-ASCII or ISO-8859-1"
MAX_NAME = 40  # characters of a declared charset echoed back


def normalize(name: str) -> str:
    """A charset name as Python's codec search reads it: lower case, each
    run of other characters than letters, digits and dots one ``_``, dots
    as ``_`` (``UTF-8`` gives ``utf_8``, ``ISO 8859.1`` gives ``iso_8859_1``)."""
    return encodings.normalize_encoding(name.strip().lower()).replace(".", "_")


def allowed_charset(name: str | None) -> bool:
    """Whether a declared charset is one the site decodes (no charset, or an
    empty one, means UTF-8: allowed). Never looks the name up among the
    codecs, so no codec module is imported for a name a client sends."""
    if name is None or not name.strip():
        return True
    return len(name) <= 64 and normalize(name) in ALLOWED


def declared_charset(content_type: str) -> str | None:
    """The ``charset`` parameter of a ``Content-Type`` header, or ``None``."""
    if not content_type or "charset" not in content_type.lower():
        return None
    try:
        _, params = parse_header_parameters(content_type)
    except Exception:  # a header Django cannot split: Django ignores its charset too
        return None
    return params.get("charset")


def refusal(name: str) -> JsonResponse:
    """The 415 answer naming the refused charset."""
    shown = name if len(name) <= MAX_NAME else name[:MAX_NAME] + "…"
    return JsonResponse({"error": "unsupported-charset",
                         "detail": f"the request's charset {shown!r} is not taken: send {NAMES} "
                                   f"(or no charset, which means UTF-8)"}, status=415)


class RequestCharsets:
    """Middleware: a request whose ``Content-Type`` declares a charset
    outside :data:`ALLOWED` is answered 415 JSON naming it, whatever the
    method and address, before any middleware or view reads its query
    string, form fields or body."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        name = declared_charset(request.META.get("CONTENT_TYPE", ""))
        if not allowed_charset(name):
            return refusal(name)
        return self.get_response(request)


class _CharsetChecked:
    """A request that adopts a declared charset only if it is allowed (a
    refused one leaves the request at UTF-8, for the middleware to refuse)."""

    def _set_content_type_params(self, meta):
        if allowed_charset(declared_charset(meta.get("CONTENT_TYPE", ""))):
            return super()._set_content_type_params(meta)
        self.content_type, self.content_params = parse_header_parameters(meta.get("CONTENT_TYPE", ""))


class WSGIRequest(_CharsetChecked, wsgi.WSGIRequest):
    """Django's WSGI request, never decoding with a refused charset."""


class ASGIRequest(_CharsetChecked, asgi.ASGIRequest):
    """Django's ASGI request, never decoding with a refused charset."""
