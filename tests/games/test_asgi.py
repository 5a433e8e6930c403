"""The ASGI entry point (config/asgi.py) that the web process serves: a request runs
its middleware and view in one hand-off to its thread, not one per
middleware, and answers as the WSGI handler does."""

import asyncio
import json

import pytest
from asgiref.sync import SyncToAsync
from asgiref.testing import ApplicationCommunicator

pytestmark = pytest.mark.django_db(transaction=True)


def _request(path: str, method: str = "GET", body: bytes = b"", headers=(), query: bytes = b""):
    from config.asgi import application

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
             "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": query,
             "root_path": "", "headers": [(b"host", b"testserver"), (b"content-length", str(len(body)).encode()), *headers],
             "client": ("127.0.0.1", 5000), "server": ("testserver", 80)}

    async def run():
        comm = ApplicationCommunicator(application, scope)
        await comm.send_input({"type": "http.request", "body": body, "more_body": False})
        start = await comm.receive_output(10)
        chunks = []
        while True:
            message = await comm.receive_output(10)
            chunks.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        await comm.wait(10)
        return start["status"], dict(start["headers"]), b"".join(chunks)

    return asyncio.run(run())


def test_a_request_is_one_hand_off_to_its_thread(monkeypatch):
    calls = []
    real = SyncToAsync.__call__

    async def counted(self, *args, **kwargs):
        calls.append(getattr(self.func, "__qualname__", repr(self.func)))
        return await real(self, *args, **kwargs)

    monkeypatch.setattr(SyncToAsync, "__call__", counted)
    status, headers, body = _request("/api/games/")
    assert status == 200 and headers[b"Content-Type"] == b"application/json"
    assert json.loads(body) == {"count": 0, "next": None, "previous": None, "results": []} or json.loads(body) == []
    # request_started's receivers, the middleware chain with the view, and
    # the response's close (request_finished); Django's own handler made
    # about 18 (each middleware's request and response hooks)
    assert len(calls) <= 3, calls


def test_answers_are_those_of_the_wsgi_handler(client):
    for method, path, body in (("GET", "/api/games/", b""), ("GET", "/api/no-such-thing/", b""),
                               ("POST", "/api/games/", b"{nope"), ("GET", "/games/", b"")):
        status, headers, content = _request(path, method=method, body=body,
                                            headers=[(b"content-type", b"application/json")])
        wsgi = client.generic(method, path, body, content_type="application/json")
        assert status == wsgi.status_code, path
        if path.startswith("/api/"):  # a page differs by its CSRF token
            assert content == wsgi.content, path
        names = {k.decode().lower() for k in headers} - {"set-cookie"}
        assert names == {k.lower() for k in wsgi.headers} - {"set-cookie"}, path
    assert status == 200 and "x-frame-options" in names  # a page, through every middleware


def test_a_moves_notice_travels_back_with_its_answer_and_reaches_the_group():
    """The notice of a move posted through the ASGI app is not handed to the
    loop from the request's thread: it comes back with the answer, and the
    loop sends it to the game's group."""
    from channels.layers import get_channel_layer

    from games import push, services

    game = services.game_create(variant="sabra", players=2, seats=[{"name": "Ann"}, {"name": "Ben"}])
    token = services.seat_take(game=game, index=game.to_move)
    handed = []
    real = push._main_loop
    layer = get_channel_layer()

    async def run():
        channel = await layer.new_channel()
        await layer.group_add(push.group_name(game.pk), channel)
        try:
            body = json.dumps({"move": "draw", "expected_version": game.version}).encode()
            status, _, answer = await asyncio.get_running_loop().run_in_executor(None, lambda: _request(
                f"/api/games/{game.pk}/moves/", method="POST", body=body,
                headers=[(b"content-type", b"application/json"), (b"authorization", f"Seat {token}".encode())]))
            assert status == 201, answer
            return json.loads(answer), await asyncio.wait_for(layer.receive(channel), 5)
        finally:
            await layer.group_discard(push.group_name(game.pk), channel)

    def spy():
        handed.append(1)
        return real()

    push._main_loop, saved = spy, push._main_loop
    try:
        answer, notice = asyncio.run(run())
    finally:
        push._main_loop = saved
    assert notice["type"] == "game.moved" and notice["version"] == answer["version"]
    assert handed == []  # never handed over from the request's thread


def test_a_task_run_in_the_requests_thread_sends_the_carried_pushes_first(monkeypatch):
    """Eager mode (the embedded default) runs an AI seat's reply in the
    request's thread: the move before it is pushed as the task starts, not
    held until the reply is done."""
    import channels.layers
    from celery.signals import task_prerun

    from games import push

    sent = []

    class Layer:
        groups = {push.group_name(7): {}}

        async def group_send(self, group, message):
            sent.append((group, message))

    monkeypatch.setattr(channels.layers, "get_channel_layer", lambda *a, **k: Layer())
    pushes = push.carrying()
    try:
        push._send(7, {"type": "game.moved", "version": 3, "hash": ""})
        assert sent == [] and len(pushes) == 1  # carried
        task_prerun.send(sender=None, task_id="t", task=None, args=(), kwargs={})
    finally:
        push.stop_carrying()
    assert sent == [("game-7", {"type": "game.moved", "version": 3, "hash": ""})] and pushes == []
