"""Request bodies in text encodings only (issue 27, item 1): a ``charset=``
outside a short allow-list (UTF-8, US-ASCII, ISO-8859-1) is a 415 naming
it, on the API and on the pages' forms, before anything decodes; the size
and depth limits hold for the decoded text. The fuzzer sends every codec
name Python knows to every route that takes a POST."""

from __future__ import annotations

import bz2
import codecs
import encodings
import io
import json
import logging
import pkgutil
import re
import zlib
from collections import Counter
from encodings.aliases import aliases

import pytest

from games import services
from games.charsets import ALLOWED, normalize
from games.models import Event, Game, Seat

pytestmark = pytest.mark.django_db


def counts():
    return Game.objects.count(), Event.objects.count(), Seat.objects.exclude(token_hash="").count()


def bomb(codec) -> bytes:
    """A body that ``codec`` decodes to 20 MB of a JSON string."""
    text = b'{"variant": "' + b"a" * 20_000_000 + b'", "players": 2}'
    return bz2.compress(text) if codec == "bz2_codec" else zlib.compress(text, 9)


@pytest.mark.parametrize("codec", ["bz2_codec", "zlib_codec"])
def test_a_compressed_body_is_refused_before_it_is_decoded(client, codec):
    body = bomb(codec)
    assert len(body) < 30_000
    before = counts()
    response = client.generic("POST", "/api/games/", body, content_type=f"application/json; charset={codec}")
    assert response.status_code == 415
    assert response.json()["error"] == "unsupported-charset" and repr(codec) in response.json()["detail"]
    assert counts() == before


@pytest.mark.parametrize("codec", ["base64", "utf-7", "utf-16", "rot13"])
def test_encodings_that_hide_nesting_are_refused(client, codec):
    text = '{"variant": ' + "[" * 600 + "]" * 600 + ', "players": 2}'
    body = codecs.encode(text if codec in ("utf-7", "utf-16", "rot13") else text.encode(), codec)
    body = body.encode() if isinstance(body, str) else body
    response = client.generic("POST", "/api/games/", body, content_type=f"application/json; charset={codec}")
    assert response.status_code == 415 and repr(codec) in response.json()["detail"]


@pytest.mark.parametrize("codec", ["rot13", "zlib_codec", "bz2_codec", "hex_codec", "uu_codec", "idna"])
def test_malformed_bodies_in_other_codecs_are_a_415_not_a_500(client, codec):
    for path in ("/api/games/", "/games/new/", "/games/play/", "/admin/login/"):
        for content_type in ("application/json", "application/x-www-form-urlencoded", "text/plain"):
            response = client.generic("POST", path, b"\x00not-compressed{[", content_type=f"{content_type}; charset={codec}")
            assert response.status_code == 415, (path, content_type, response.status_code)


def test_a_query_string_is_not_decoded_with_a_refused_charset(wsgi):
    # Django decodes the query string with a declared charset while it
    # builds the request (before any middleware): the entry point's own
    # request class must not adopt it (the test client's would)
    call = wsgi
    for path in ("/games/", "/api/games/", "/games/new/"):
        status, content = call("GET", path, b"", "text/plain; charset=bz2_codec", query="name=Ann&variant=sabra")
        assert status == 415 and "'bz2_codec'" in content.decode()
    assert call("GET", "/games/", b"", "text/plain; charset=utf-8", query="name=Ann")[0] == 200


def test_the_allowed_charsets_decode_as_before(client):
    for name in ("utf-8", "UTF-8", "utf8", "us-ascii", "ISO-8859-1", "latin-1"):
        response = client.generic("POST", "/api/games/", json.dumps({"variant": "highcard", "players": 2}).encode(),
                                  content_type=f"application/json; charset={name}")
        assert response.status_code == 201, (name, response.content)
    title = "Café Zoë"
    latin = client.generic("POST", "/api/games/",
                           json.dumps({"variant": "highcard", "players": 2, "title": title},
                                      ensure_ascii=False).encode("latin-1"),
                           content_type="application/json; charset=iso-8859-1")
    assert latin.status_code == 201 and latin.json()["title"] == title
    not_utf8 = client.generic("POST", "/api/games/", '{"title": "Café"}'.encode("latin-1"),
                              content_type="application/json; charset=utf-8")
    assert not_utf8.status_code == 400 and "utf-8" in not_utf8.json()["detail"]


def test_the_size_limit_holds_for_the_decoded_text(client, settings):
    settings.API_MAX_BODY_BYTES = 200
    body = json.dumps({"variant": "highcard", "players": 2, "title": "é" * 80}, ensure_ascii=False)
    assert len(body) < 200 < len(body.encode("utf-8"))  # over as sent: refused
    assert client.generic("POST", "/api/games/", body.encode(), content_type="application/json").status_code == 400
    fits = json.dumps({"variant": "highcard", "players": 2, "title": "é" * 40}, ensure_ascii=False)
    assert client.generic("POST", "/api/games/", fits.encode(), content_type="application/json").status_code == 201


@pytest.mark.django_db(transaction=True)
def test_a_form_post_through_the_asgi_server_gets_a_django_answer():
    from .test_asgi import _request

    for codec in ("bz2_codec", "zlib_codec", "rot13"):
        status, headers, body = _request("/games/new/", method="POST", body=b"variant=sabra&players=2",
                                         headers=[(b"content-type",
                                                   f"application/x-www-form-urlencoded; charset={codec}".encode())])
        assert status == 415 and headers[b"Content-Type"] == b"application/json"
        assert repr(codec) in json.loads(body)["detail"]
        status, headers, body = _request("/games/new/", query=b"variant=sabra",
                                         headers=[(b"content-type", f"text/plain; charset={codec}".encode())])
        assert status == 415 and repr(codec) in json.loads(body)["detail"]


# ------------------------------------------------------------------ the fuzzer
def codec_names() -> list[str]:
    """Every codec name Python knows: ``encodings.aliases`` (aliases and the
    modules they name) and the modules of the ``encodings`` package."""
    modules = {m.name for m in pkgutil.iter_modules(encodings.__path__)}
    return sorted(set(aliases) | set(aliases.values()) | modules)


def _sample(route: str, ids: dict[str, str]) -> str:
    """A concrete address for a route of the resolver: ``<int:x>`` an id of
    a row that exists, other converters a word; a regular expression's
    group its first alternative."""
    route = re.sub(r"<(?:(\w+):)?(\w+)>", lambda m: ids.get(m.group(2), ids["int"] if m.group(1) == "int" else "x"),
                   route)
    route = re.sub(r"\(\?P<\w+>([^)|]*)[^)]*\)", lambda m: m.group(1).replace(".*", "x") or "x", route)
    return "/" + route.replace("^", "").replace("$", "")


def post_routes(ids: dict[str, str]) -> list[str]:
    """Every route of the URL resolver, as an address that resolves to it.
    Routes that answer a POST with 405 (reads only) are left out: they
    never read a body. The admin's per-model routes are the same views for
    each model: one model's stand for all."""
    from django.urls import URLResolver, get_resolver, resolve
    from django.urls.exceptions import Resolver404

    def walk(patterns, prefix=""):
        for p in patterns:
            text = prefix + str(p.pattern)
            if isinstance(p, URLResolver):
                yield from walk(p.url_patterns, text)
            else:
                yield text

    out = []
    for route in walk(get_resolver().url_patterns):
        model = re.match(r"admin/(\w+)/(\w+)/", route)
        if model and (model.group(1), model.group(2)) != ("games", "game") and "<int:" not in route:
            continue
        path = _sample(route, ids)
        try:
            resolve(path)
        except Resolver404:
            pytest.fail(f"the fuzzer's address {path} for the route {route} does not resolve")
        out.append(path)
    return sorted(set(out))


@pytest.fixture
def wsgi():
    """A caller of the WSGI entry point (``config.wsgi``) with a raw body (a
    quicker path than the test client for 30,000 requests). As Django's
    test client does, requests leave the test's database connection open."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    from config.wsgi import application as handler

    def call(method, path, body: bytes, content_type: str, query: str = ""):
        environ = {"REQUEST_METHOD": method, "PATH_INFO": path, "QUERY_STRING": query, "SERVER_NAME": "testserver",
                   "SERVER_PORT": "80", "wsgi.url_scheme": "http", "wsgi.input": io.BytesIO(body),
                   "CONTENT_LENGTH": str(len(body)), "CONTENT_TYPE": content_type, "REMOTE_ADDR": "192.0.2.9"}
        status = []
        content = b"".join(handler(environ, lambda s, headers: status.append(int(s.split()[0]))))
        return status[0], content

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield call
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


LIMIT = 2_000
TYPES = ("application/json", "application/x-www-form-urlencoded", "multipart/form-data; boundary=b")


def _body(name: str) -> bytes:
    """What an attacker sends as ``name``: a JSON object twice the size
    limit, nested 40 deep, encoded with that codec where it encodes (a
    compressor makes it small); else the text's UTF-8."""
    text = '{"variant": ' + "[" * 40 + "]" * 40 + ', "title": "' + "a" * (2 * LIMIT) + '", "players": 2}'
    for value in (text, text.encode()):
        try:
            body = codecs.encode(value, name)
        except Exception:  # a codec that cannot encode this (or at all)
            continue
        return body.encode("latin-1", "replace") if isinstance(body, str) else bytes(body)
    return text.encode()


@pytest.mark.fuzz
def test_every_codec_name_to_every_post_route(settings, monkeypatch, capsys, wsgi):
    import games.api_limits

    settings.API_MAX_BODY_BYTES = LIMIT
    settings.API_RATE_LIMITS = {}
    game = services.game_create(variant="sabra", players=2, seats=["Ann", "Ben"])
    ids = {"int": str(game.pk), "game_id": str(game.pk), "index": "1", "app_label": "games", "slug": "x"}
    routes = post_routes(ids)
    names = codec_names()
    decoded = []
    real_depth = games.api_limits.json_depth_exceeds
    monkeypatch.setattr(games.api_limits, "json_depth_exceeds",
                        lambda text, limit: decoded.append(len(text)) or real_depth(text, limit))
    call = wsgi
    bodies = {name: _body(name) for name in names}
    figures, problems = Counter(), []
    logging.getLogger("django.request").setLevel(logging.CRITICAL)  # 30,000 refusals, not logged
    try:
        # routes answering POST with 405 read no body: probed once, left out
        routes = [r for r in routes if call("POST", r, b"{}", "application/json")[0] != 405]
        for i, path in enumerate(routes):
            for j, name in enumerate(names):
                status, content = call("POST", path, bodies[name], f"{TYPES[(i + j) % 3]}; charset={name}")
                figures["requests"] += 1
                figures[f"{status // 100}xx"] += 1
                figures["415"] += status == 415
                allowed = normalize(name) in ALLOWED
                if status >= 500 or (not allowed and (status != 415 or repr(name) not in content.decode())):
                    problems.append(f"POST {path} charset={name}: {status} {content[:120]!r}")
    finally:
        logging.getLogger("django.request").setLevel(logging.NOTSET)
    with capsys.disabled():
        print(f"\ncharset fuzzer: {len(names)} codec names x {len(routes)} POST routes: "
              + ", ".join(f"{k} {v}" for k, v in sorted(figures.items()))
              + f"; largest text decoded {max(decoded, default=0)} characters (limit {LIMIT})")
    assert problems == [], "\n".join(problems[:30])
    assert figures["requests"] == len(names) * len(routes) and len(routes) >= 40 and len(names) >= 400
    assert max(decoded, default=0) <= LIMIT
