"""The live pages' sockets: each seat is sent its own view when the game
moves on, spectators the public view, strangers nothing; and over a whole
game not one frame a seat receives holds another seat's tiles, the pool's
order or the seed."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.test import Client

from config.asgi import application
from engine.rummikub.ai.random_player import RandomPlayer
from games import services
from games.models import Game

pytestmark = pytest.mark.django_db(transaction=True)


def socket(path: str, client: Client | None = None) -> WebsocketCommunicator:
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    if client is not None and "sessionid" in client.cookies:
        headers.append((b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()))
    return WebsocketCommunicator(application, path, headers=headers)


def seated_client(token: str) -> Client:
    client = Client()
    assert client.post("/games/play/", {"token": token}).status_code == 302
    return client


async def _frames_until(comm, count, timeout=5):
    frames = []
    for _ in range(count):
        frames.append(await comm.receive_json_from(timeout=timeout))
    return frames


def test_a_seat_gets_its_own_view_at_once_and_after_every_move():
    game = services.game_create(variant="sabra", players=2, seats=["Ann", "Ben"])
    tokens = [services.seat_take(game=game, index=i) for i in range(2)]
    mover = game.to_move
    other = seated_client(tokens[1 - mover])

    async def run():
        comm = socket(f"/ws/games/{game.pk}/seat/", other)
        connected, _ = await comm.connect()
        assert connected
        first = await comm.receive_json_from(timeout=5)
        from channels.db import database_sync_to_async
        await database_sync_to_async(services.game_record_move)(
            game=game.pk, move="draw", expected_version=1, seat=mover, actor="test")
        second = await comm.receive_json_from(timeout=5)
        await comm.disconnect()
        return first, second

    first, second = async_to_sync(run)()
    state = services.load_state(Game.objects.get(pk=game.pk))
    assert first["version"] == 1 and second["version"] == 2 and second["seat"] == 1 - mover
    assert second["view"]["rack"] == state.view(1 - mover)["rack"]
    assert second["recent"][-1]["move"] == "draw"
    assert second["view"]["rack_counts"][mover] == 15


def test_a_stranger_is_refused_and_a_spectator_sees_no_rack():
    game = services.game_create(variant="sabra", players=2, seats=["Ann", "Ben"])

    async def run():
        stranger = socket(f"/ws/games/{game.pk}/seat/", None)
        await stranger.connect()
        refusal = await stranger.receive_json_from(timeout=5)
        closed = await stranger.receive_output(timeout=5)
        watcher = socket(f"/ws/games/{game.pk}/watch/", None)
        await watcher.connect()
        public = await watcher.receive_json_from(timeout=5)
        await watcher.disconnect()
        return refusal, closed, public

    refusal, closed, public = async_to_sync(run)()
    assert refusal["type"] == "error" and closed == {"type": "websocket.close", "code": 4403}
    assert public["seat"] is None and "rack" not in public["view"]


def two_seat_game():
    """A Sabra game of two taken seats: the game, the seat on turn, and a
    browser session holding the other seat."""
    game = services.game_create(variant="sabra", players=2, seats=["Ann", "Ben"])
    tokens = [services.seat_take(game=game, index=i) for i in range(2)]
    return game, game.to_move, seated_client(tokens[1 - game.to_move])


async def following(game, client):
    """The seat socket of ``client``'s session, its first frame read."""
    comm = socket(f"/ws/games/{game.pk}/seat/", client)
    await comm.connect()
    await comm.receive_json_from(timeout=5)
    return comm


@pytest.mark.parametrize("revoke, then_move", [(True, True), (False, False)],
                         ids=["revoked-then-a-move", "reissued-and-nothing-else"])
def test_a_seat_whose_credential_is_withdrawn_is_closed_at_once(revoke, then_move):
    """Revoked or reissued: the sockets holding the old credential are
    closed the moment it changes (the game.seats notice), a move or not."""
    game, mover, holder = two_seat_game()

    async def run():
        from channels.db import database_sync_to_async
        comm = await following(game, holder)
        seat = await database_sync_to_async(lambda: game.seats.get(index=1 - mover))()
        await database_sync_to_async(services.seat_reissue)(seat, revoke=revoke)
        if then_move:
            await database_sync_to_async(services.game_record_move)(
                game=game.pk, move="draw", expected_version=1, seat=mover, actor="test")
        error = await comm.receive_json_from(timeout=5)
        closed = await comm.receive_output(timeout=5)
        return error, closed

    error, closed = async_to_sync(run)()
    assert error["type"] == "error" and closed["code"] == 4403


def test_a_seats_frames_after_it_joins_are_sent_from_memory(monkeypatch):
    """The seat's credentials are read when its socket is admitted, so the
    first notice after it joins is answered from the writer's frame with no
    trip to the database thread; when the credentials are dropped (their
    time is up), the next notice reads them alone, not the game."""
    from games import consumers, frames

    game, mover, other = two_seat_game()
    trips = Counter()
    real_check, real_load = consumers.SeatConsumer.still_admitted, consumers.load_parts

    def still_admitted(self):
        trips["credentials"] += 1
        return real_check(self)

    def load_parts(*args, **kwargs):
        trips["game"] += 1
        return real_load(*args, **kwargs)

    monkeypatch.setattr(consumers.SeatConsumer, "still_admitted", still_admitted)
    monkeypatch.setattr(consumers, "load_parts", load_parts)

    async def run():
        from channels.db import database_sync_to_async
        comm = await following(game, other)
        joined = dict(trips)
        got = []
        for version in (1, 2):
            if version == 2:
                frames.SEAT_KEYS.drop(game.pk)
            seat = (mover + version - 1) % 2
            await database_sync_to_async(services.game_record_move)(
                game=game.pk, move="draw", expected_version=version, seat=seat, actor="test")
            got.append(await comm.receive_json_from(timeout=5))
            got.append(dict(trips))
        await comm.disconnect()
        return joined, got

    joined, (first, after_first, second, after_second) = async_to_sync(run)()
    assert joined == {"game": 1}  # the frame on joining
    assert first["version"] == 2 and after_first == {"game": 1}
    assert second["version"] == 3 and after_second == {"game": 1, "credentials": 1}
    assert second["view"]["rack"] == services.load_state(Game.objects.get(pk=game.pk)).view(1 - mover)["rack"]


def test_a_frame_primed_by_the_writer_is_the_frame_read_from_the_database():
    """The frame a socket is sent from the writer's memory (games/frames.py)
    is, field for field, the one read back from the stored stream."""
    from games import frames

    game, mover, other = two_seat_game()

    async def run():
        from channels.db import database_sync_to_async
        comm = await following(game, other)
        got = []
        for version in (1, 2):
            seat = (mover + version - 1) % 2
            await database_sync_to_async(services.game_record_move)(
                game=game.pk, move="draw", expected_version=version, seat=seat, actor="test")
            got.append(await comm.receive_json_from(timeout=5))
        await comm.disconnect()
        return got

    sent = async_to_sync(run)()
    assert [f["version"] for f in sent] == [2, 3]
    primed = frames.FRAME_PARTS.ready(game.pk, 3, sent[-1]["receipt"]["hash"])
    assert primed is not None and primed.state is None  # made by the writer, not loaded
    frames.FRAME_PARTS.clear()
    from games.consumers import load_parts

    loaded = json.loads(json.dumps(load_parts(game.pk, 1 - mover).frame(1 - mover)))
    # the seconds left on the turn clock are counted when each is made:
    # equal but for the time between the two (a loaded machine takes more
    # than the clock's tenth of a second)
    if sent[-1]["clock"] is not None:
        assert 0 <= sent[-1]["clock"].pop("left") - loaded["clock"].pop("left") <= 2
    assert loaded == sent[-1]


def play_watched(game, choose):
    """Play ``game`` to its end with ``choose(state)`` for the seat on turn
    while seat 0 follows it through its socket; returns its frames and the
    true state (snapshot) at every version."""
    watched = seated_client(services.seat_take(game=game, index=0))
    truth: dict[int, dict] = {}

    async def run():
        from channels.db import database_sync_to_async

        def one_move():
            g = Game.objects.get(pk=game.pk)
            truth[g.version] = services.load_state(g).snapshot()
            if g.is_over or g.version > 2000:
                return False
            state = services.load_state(g)
            services.game_record_move(game=g, move=str(choose(state)), expected_version=g.version,
                                      seat=state.to_move, actor="test")
            return True

        comm = socket(f"/ws/games/{game.pk}/seat/", watched)
        await comm.connect()
        frames = [await comm.receive_json_from(timeout=5)]
        while await database_sync_to_async(one_move)():
            frames.append(await comm.receive_json_from(timeout=5))
        await comm.disconnect()
        return frames

    return async_to_sync(run)(), truth


def test_every_frame_of_a_whole_game_holds_only_the_seats_own_tiles():
    """Seat 0 is watched through its socket while a whole game is played;
    each frame is checked against the true state at its version."""
    game = services.game_create(variant="sabra", players=3, seats=["Ann", "Ben", "Cleo"],
                                rules={"rack_size": 6})
    frames, truth = play_watched(game, RandomPlayer(11).choose)
    final = Game.objects.get(pk=game.pk)
    versions = [f["version"] for f in frames]
    assert final.is_over and versions == sorted(set(versions)) and versions[-1] == final.version
    assert len(frames) > 20  # a whole game, frame after frame
    tile = re.compile(r"\b(?:[KRBO]\d{1,2}|J)\b")
    for frame in frames:
        snap = truth[frame["version"]]
        view = frame["view"]
        assert snap["seed"] not in json.dumps(frame)
        assert Counter(view["rack"]) == Counter(snap["racks"][0])  # its own rack, exactly
        if view["is_over"]:
            continue
        assert "racks" not in view and isinstance(view["pool_count"], int)
        # every tile the frame names is its own rack's or on the table: no other rack, no pool
        shown = Counter(tile.findall(json.dumps({k: v for k, v in view.items() if k != "rules"})))
        table = Counter(t for m in view["table"] for t in tile.findall(m))
        assert shown == Counter(view["rack"]) + table
        for move in frame["recent"]:
            assert not re.fullmatch(r"draw \S+", move["move"])  # a drawn tile is never named
    assert frames[-1]["view"]["is_over"] and "racks" in frames[-1]["view"]


def test_every_frame_of_a_whole_contract_game_holds_only_the_seats_own_cards():
    """Contract rummy, seven hands, seat 0 watched through its socket: each
    frame's cards are its own hand's or public (the table, the discard top,
    the discards taken, the finished hands shown at their end), checked
    against the true state at the frame's version."""
    from engine.contract.ai.seat import ContractSeatPlayer

    game = services.game_create(variant="contract", players=3, seats=["Ann", "Ben", "Cleo"])
    frames, truth = play_watched(game, ContractSeatPlayer().choose)
    final = Game.objects.get(pk=game.pk)
    assert final.is_over and [f["version"] for f in frames][-1] == final.version
    assert len({f["view"]["hand"] for f in frames}) == 7 and len(frames) > 50
    card = re.compile(r"\b(?:[2-9TJQKA][CDHS]|JK)\b")
    for frame in frames:
        snap, view = truth[frame["version"]], frame["view"]
        assert snap["seed"] not in json.dumps(frame)
        assert "hands" not in view and "stock" not in view and isinstance(view["stock_count"], int)
        if view["is_over"]:
            continue
        assert Counter(view["my_hand"]) == Counter(snap["hands"][0])  # its own hand, exactly
        public = Counter(c for m in view["table"] for c in m["cards"])
        public += Counter(c for p in view["picked_up"] for c in p)
        public += Counter(c for r in view["results"] for cs in r["cards"] for c in cs)
        public += Counter(c for r in view["results"] for m in r["table"] for c in m["cards"])
        if view["discard_top"]:
            public[view["discard_top"]] += 1
        shown = Counter(card.findall(json.dumps(view)))
        assert shown == Counter(view["my_hand"]) + public
        for move in frame["recent"]:
            assert not re.fullmatch(r"\d+ draw \S+", move["move"])  # a drawn card is never named


def test_every_frame_of_an_okey_match_holds_only_the_seats_own_tiles():
    """Okey, a match from 6 points (more than one game), seat 0 watched through its socket: each
    frame names its own rack's tiles and public ones only (the indicator
    and okey, every discard pile, the tiles taken from them, the winner's
    shown hand and last tile), never the middle's order or another rack."""
    from engine.okey.ai import GreedyPlayer

    game = services.game_create(variant="okey", players=4, seats=["Ayşe", "Burak", "Cem", "Deniz"],
                                rules={"start_points": 6})
    frames, truth = play_watched(game, GreedyPlayer("live").choose)
    final = Game.objects.get(pk=game.pk)
    assert final.is_over and [f["version"] for f in frames][-1] == final.version and len(frames) > 20
    tile = re.compile(r"\b(?:[KRBO](?:1[0-3]|[1-9])|F)\b")
    for frame in frames:
        snap, view = truth[frame["version"]], frame["view"]
        assert snap["seed"] not in json.dumps(frame)
        assert "racks" not in view and "middle" not in view and isinstance(view["middle_count"], int)
        if view["is_over"]:
            continue
        assert Counter(view["my_rack"]) == Counter(snap["racks"][0])       # its own rack, exactly
        public = Counter([view["indicator"], view["okey"]] + (view.get("can_finish") or []))
        public += Counter(t for p in view["piles"] for t in p)
        public += Counter(t for p in view["taken"] for t in p)
        public += Counter(t for r in view["results"] for m in r["melds"] for t in m)
        public += Counter(t for r in view["results"] for t in (r["indicator"], r["okey"], r["finish"]))
        if view["takeable"]:
            public[view["takeable"]] += 1
        shown = Counter(tile.findall(json.dumps({k: v for k, v in view.items() if k != "rules"})))
        assert shown <= Counter(view["my_rack"]) + public, (shown - Counter(view["my_rack"]) - public)
        for move in frame["recent"]:
            assert not re.fullmatch(r"draw \S+", move["move"])      # a drawn tile is never named


def test_with_the_channel_layer_away_the_socket_is_refused_before_it_is_accepted(monkeypatch):
    """A layer that fails (Redis down) refuses the handshake: the page polls
    and backs off, where an accepted-then-dropped socket made it reconnect
    about once a second for the whole outage."""
    from channels.layers import InMemoryChannelLayer

    async def layer_down(self, group, channel):
        raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(InMemoryChannelLayer, "group_add", layer_down)
    game = services.game_create(variant="sabra", players=2, seats=["Ann", "Ben"])

    async def run():
        comm = socket(f"/ws/games/{game.pk}/watch/")
        connected, _ = await comm.connect(timeout=5)
        await comm.disconnect()
        return connected

    assert async_to_sync(run)() is False


def _rummikub_player(seed):
    return RandomPlayer(seed).choose


def _contract_player(seed):
    from engine.contract.ai.seat import ContractSeatPlayer

    return ContractSeatPlayer().choose


def _okey_player(seed):
    from engine.okey.ai import GreedyPlayer

    return GreedyPlayer(f"carry-{seed}").choose


@pytest.mark.parametrize("variant, players, rules, player", [
    ("sabra", 3, {"rack_size": 6}, _rummikub_player),
    ("contract", 3, {}, _contract_player),
    ("okey", 4, {"start_points": 2}, _okey_player),
], ids=["sabra", "contract", "okey"])
def test_a_process_that_did_not_record_the_moves_carries_its_frames_forward(variant, players, rules, player):
    """A process holding a game's frame parts (read, or primed by a move it
    recorded itself) brings them forward over moves recorded elsewhere with
    one query for the events since (games.consumers.carried_forward), and
    the frame is, field for field, the one a fresh read gives; a stream
    that gains anything but moves (the game's end) is read afresh. Played
    to the end, one to three moves between reads."""
    import random

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games import consumers, frames
    from games.states import STATE_CACHE

    game = services.game_create(variant=variant, players=players, seats=[f"P{i}" for i in range(players)],
                                rules=rules)
    choose, rng, seat = player(5), random.Random(5), 1
    held = consumers.load_parts(game.pk, seat)
    expected = carried = reads = 0
    while not held.frame(seat)["view"]["is_over"]:
        before = held.version
        for _ in range(rng.randint(1, 3)):
            g = Game.objects.get(pk=game.pk)
            if g.is_over:
                break
            state = services.load_state(g)
            services.game_record_move(game=g, move=str(choose(state)), expected_version=g.version,
                                      seat=state.to_move, actor="test")
        STATE_CACHE.clear()  # the writer's state is another process's
        primed = reads % 2 == 1
        if primed:  # as if this process had recorded the move at `before`: views only, its state kept
            STATE_CACHE.put(Game.objects.get(pk=game.pk), before, consumers._copy(held.state))
            held = frames.Parts(game_id=game.pk, version=held.version, hash=held.hash, recent=held.recent,
                                names=held.names, clock=held.clock, receipt=held.receipt,
                                views={seat: held.view(seat)})
        frames.FRAME_PARTS.clear()
        frames.FRAME_PARTS.install(held)
        since = {e.type for e in services.es.load(game.pk, after_version=before)}
        expected += since == {services.es.MOVE_RECORDED}
        with CaptureQueriesContext(connection) as queries:
            parts = consumers.load_parts(game.pk, seat)
        carried += len(queries) == 2
        reads += 1
        frame = json.loads(json.dumps(parts.frame(seat)))
        frames.FRAME_PARTS.clear()
        fresh = json.loads(json.dumps(consumers.load_parts(game.pk, seat).frame(seat)))
        if frame["clock"] is not None:
            assert 0 <= frame["clock"].pop("left") - fresh["clock"].pop("left") <= 2
        assert frame == fresh
        if primed and since == {services.es.MOVE_RECORDED}:  # the state brought forward is kept for a move here
            g = Game.objects.get(pk=game.pk)
            kept = STATE_CACHE.take_with_row(game.pk, g.version)
            assert kept is not None and kept[1].snapshot() == services.load_state(g).snapshot()
        held = parts
    assert reads > 10 and expected > reads // 2
    assert carried == expected  # every stretch of moves only, and nothing else
