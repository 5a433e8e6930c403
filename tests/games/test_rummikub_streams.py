"""Whole Sabra Rummikub games through the store: recorded move by move,
audited clean, written as records that replay, and never showing a seat
another seat's tiles or the pool's order."""

import json
import re
from collections import Counter

import pytest

from engine.rummikub.ai.random_player import RandomPlayer
from engine.records import replay_text
from games import services
from games.audit import audit_game
from games.models import Event, Game
from games.selectors import game_record_text

pytestmark = pytest.mark.django_db

TILE = re.compile(r"(?<![A-Za-z0-9_])(?:[KRBO](?:1[0-3]|[1-9])|J)(?![A-Za-z0-9_])")


def play(game, seed):
    player = RandomPlayer(seed)
    while True:
        game.refresh_from_db()
        if game.is_over:
            return game
        state = services.load_state(game)
        services.game_record_move(game=game, move=str(player.choose(state)), expected_version=game.version,
                                  seat=state.to_move)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_seeded_game_is_recorded_audited_and_replays_from_its_record(players):
    game = services.game_create(variant="sabra", players=players, seats=[f"P{i}" for i in range(players)])
    game = play(game, players)
    finished = Event.objects.filter(game=game).order_by("-version").first()
    assert finished.type == "GameFinished" and sum(finished.payload["scores"]) == 0
    verdict = audit_game(game)
    assert verdict.ok, verdict
    text = game_record_text(game)
    assert '[Variant "sabra"]' in text and f'[Seed "{finished.payload["seed"]}"]' in text
    replayed = replay_text(text)
    assert replayed.scores() == game.scores == finished.payload["scores"]
    assert services.state_from_stream(game, use_snapshots=False).snapshot() == game.state


def test_a_real_table_game_with_typed_in_tiles_replays_and_audits():
    from engine.registry import find_variant

    dealt = find_variant("sabra").new(2, seed="typed-in").snapshot()
    deal = {"racks": dealt["racks"], "pool": dealt["pool"]}
    game = services.game_create(variant="sabra", players=2, deal=deal)
    game = play(game, 7)
    assert audit_game(game).ok
    assert "[Deal " in game_record_text(game)


def allowed_tiles(snapshot, seat):
    return Counter(TILE.findall(json.dumps(snapshot["racks"][seat]))) + Counter(
        TILE.findall(json.dumps(snapshot["table"])))


def test_no_seat_sees_another_rack_or_the_pool_in_a_whole_game(api):
    created = api.post("/api/games/", {"variant": "sabra", "players": 3}, format="json").json()
    gid = created["id"]
    tokens = [api.post(f"/api/games/{gid}/seats/{i}/", {}, format="json").json()["token"] for i in range(3)]
    auth = [{"HTTP_AUTHORIZATION": f"Seat {t}"} for t in tokens]
    player = RandomPlayer(11)
    checked = 0
    while True:
        row = Game.objects.get(pk=gid)
        if row.is_over:
            break
        state = services.load_state(row)
        before = state.snapshot()
        pool = json.dumps(before["pool"])
        for seat in range(3):
            body = api.get(f"/api/games/{gid}/view/", **auth[seat]).content.decode()
            assert '"racks"' not in body and pool not in body
            leaked = Counter(TILE.findall(body)) - allowed_tiles(before, seat)
            assert not leaked, f"seat {seat} saw {dict(leaked)}"
            checked += 1
        mover = state.to_move
        response = api.post(f"/api/games/{gid}/moves/", {"move": str(player.choose(state)),
                                                         "expected_version": row.version},
                            format="json", **auth[mover])
        assert response.status_code == 201, response.content
        after = services.load_state(Game.objects.get(pk=gid)).snapshot()
        if not after["over"]:
            leaked = (Counter(TILE.findall(response.content.decode()))
                      - allowed_tiles(before, mover) - allowed_tiles(after, mover))
            assert not leaked, f"seat {mover}'s move response showed {dict(leaked)}"
            public = api.get(f"/api/games/{gid}/").content.decode()
            assert not TILE.findall(public.replace(json.dumps(after["rules"]), ""))
    assert checked > 50
    final = api.get(f"/api/games/{gid}/view/", **auth[0]).json()
    assert final["view"]["is_over"] and "racks" in final["view"]


def test_bad_sabra_moves_are_refused_by_name_and_store_nothing(api):
    created = api.post("/api/games/", {"variant": "sabra", "players": 2}, format="json").json()
    gid = created["id"]
    token = api.post(f"/api/games/{gid}/seats/0/", {}, format="json").json()["token"]
    rack = services.load_state(Game.objects.get(pk=gid)).view(0)["rack"]
    absent = next(f"{c}{n}" for c in "KRBO" for n in range(1, 14) if f"{c}{n}" not in rack)
    cases = [
        ("play X7 -> [X7 X8 X9]", "notation", "unknown tile 'X7'"),
        ("fly", "notation", "unknown move 'fly'"),
        (f"play {absent} -> [{absent}]", None, ""),
    ]
    for move, code, message in cases:
        response = api.post(f"/api/games/{gid}/moves/", {"move": move, "expected_version": 1}, format="json",
                            HTTP_AUTHORIZATION=f"Seat {token}")
        assert response.status_code == 400, (move, response.content)
        body = response.json()
        if code:
            assert body["error"] == code and message in body["detail"], body
        assert body["detail"], body
        assert Event.objects.filter(game_id=gid).count() == 1
