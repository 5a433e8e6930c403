"""The games API: seats with credentials, views, moves, conflicts, bad input,
hidden information over whole seeded games."""

import json
import random
import re

import pytest

from games import services
from games.models import Event, Game

pytestmark = pytest.mark.django_db


def create(api, players=2, **extra):
    response = api.post("/api/games/", {"variant": "highcard", "players": players, **extra}, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def take_all(api, game):
    """Take every seat under the name it was created with (a new name would
    be a SeatNamed event, moving the game's version on)."""
    tokens = []
    for index in range(game["players"]):
        response = api.post(f"/api/games/{game['id']}/seats/{index}/", {}, format="json")
        assert response.status_code == 201, response.content
        tokens.append(response.json()["token"])
    return tokens


def as_seat(token):
    return {"HTTP_AUTHORIZATION": f"Seat {token}"}


def stored(game_id):
    return Event.objects.filter(game_id=game_id).count()


def test_create_take_view_move(api):
    game = create(api, seats=[{"name": "Ann"}, {"name": "Ben"}])
    assert game["version"] == 1 and game["to_move"] == 0 and game["status"] == "in_progress"
    tokens = take_all(api, game)
    view = api.get(f"/api/games/{game['id']}/view/", **as_seat(tokens[0])).json()
    assert view["seat"] == 0 and view["version"] == 1 and len(view["view"]["rack"]) == 3
    response = api.post(f"/api/games/{game['id']}/moves/", {"move": "draw", "expected_version": 1},
                        format="json", **as_seat(tokens[0]))
    assert response.status_code == 201, response.content
    assert response.json()["version"] == 2 and response.json()["outcome"] == "drew"
    from games.serializers import MoveOutSerializer  # the answer is the schema's, field for field
    answer = response.json()
    assert set(answer) == set(MoveOutSerializer().fields)
    assert MoveOutSerializer(answer).data == answer
    again = api.post(f"/api/games/{game['id']}/seats/0/", {}, format="json")
    assert again.status_code == 409 and "already taken" in again.json()["detail"]


def test_a_training_game_is_created_and_shown_as_such(api):
    assert create(api)["training"] is False
    game = create(api, training=True)
    assert game["training"] is True and Game.objects.get(pk=game["id"]).training
    bad = api.post("/api/games/", {"variant": "highcard", "players": 2, "training": "maybe"}, format="json")
    assert bad.status_code == 400 and bad.json()["detail"] == "training: Must be a valid boolean."
    assert Game.objects.count() == 2


def test_a_seat_view_is_exactly_the_engine_view(api):
    game = create(api, players=3)
    tokens = take_all(api, game)
    state = services.load_state(Game.objects.get(pk=game["id"]))
    for seat, token in enumerate(tokens):
        body = api.get(f"/api/games/{game['id']}/view/", **as_seat(token)).json()
        assert body["view"] == json.loads(json.dumps(state.view(seat)))


def test_a_seat_credential_reads_its_seat_and_game_in_one_statement(api, django_assert_num_queries):
    game = create(api, seats=[{"name": "Ann"}, {"name": "Ben"}])
    tokens = take_all(api, game)
    with django_assert_num_queries(1):
        seat = services.seat_for_token(tokens[1])
    assert (seat.game_id, seat.index, seat.name) == (game["id"], 1, "Ben")
    assert seat.game.version == 1 and seat.game.rules == Game.objects.get(pk=game["id"]).rules
    assert "state" in seat.game.get_deferred_fields() and seat.game.created_at.tzinfo is not None
    assert services.seat_for_token(tokens[1] + "x") is None and services.seat_for_token("") is None
    assert api.get(f"/api/games/{game['id']}/view/", **as_seat(tokens[1])).json()["version"] == 1


def test_a_seat_view_is_built_once_a_version_and_never_stale(api, django_assert_num_queries):
    game = create(api, seats=[{"name": "Ann"}, {"name": "Ben"}])
    tokens = take_all(api, game)
    url = f"/api/games/{game['id']}/view/"
    first = api.get(url, **as_seat(tokens[1])).json()
    with django_assert_num_queries(1):  # the credential's seat and game; the view is held
        again = api.get(url, **as_seat(tokens[1])).json()
    assert again == first
    assert api.get(url, **as_seat(tokens[0])).json()["view"] != first["view"]  # each seat its own
    api.post(f"/api/games/{game['id']}/moves/", {"move": "draw", "expected_version": 1},
             format="json", **as_seat(tokens[0]))
    after = api.get(url, **as_seat(tokens[1])).json()
    state = services.load_state(Game.objects.get(pk=game["id"]))
    assert after["version"] == 2 and after["view"] == json.loads(json.dumps(state.view(1)))


def test_a_view_read_while_a_move_lands_shows_the_new_version(api, monkeypatch):
    """The credential's lookup reads the game without its state; a move
    recorded before the state is read must not make the view a 409."""
    game = create(api, seats=[{"name": "Ann"}, {"name": "Ben"}])
    tokens = take_all(api, game)
    import games.auth

    real = games.auth.seat_for_token

    def then_a_move(token):
        seat = real(token)
        services.game_record_move(game=game["id"], move="draw", expected_version=1, seat=0)
        return seat

    monkeypatch.setattr(games.auth, "seat_for_token", then_a_move)
    response = api.get(f"/api/games/{game['id']}/view/", **as_seat(tokens[1]))
    assert response.status_code == 200, response.content
    assert response.json()["version"] == 2


def test_bad_input_is_a_clear_4xx_and_stores_nothing(api):
    game = create(api)
    gid = game["id"]
    t0, t1 = take_all(api, game)
    other = create(api)
    (o0, _o1) = take_all(api, other)
    absent = services.load_state(Game.objects.get(pk=gid)).pool[0]
    url = f"/api/games/{gid}/moves/"
    cases = [
        ("malformed JSON", dict(data='{"move": "draw", ', content_type="application/json", **as_seat(t0)),
         400, "JSON parse error"),
        ("unknown tile", dict(data={"move": "play t77", "expected_version": 1}, format="json", **as_seat(t0)),
         400, "unknown tile 't77'"),
        ("not a move", dict(data={"move": "castle", "expected_version": 1}, format="json", **as_seat(t0)),
         400, "not a move"),
        ("tile not on the rack", dict(data={"move": f"play {absent}", "expected_version": 1}, format="json",
                                      **as_seat(t0)), 400, f"{absent} is not on your rack"),
        ("out of turn", dict(data={"move": "draw", "expected_version": 1}, format="json", **as_seat(t1)),
         400, "it is seat 0's turn, not seat 1's"),
        ("another seat's credential", dict(data={"move": "draw", "expected_version": 1, "seat": 0},
                                           format="json", **as_seat(t1)), 403, "for seat 1, not seat 0"),
        ("another game's credential", dict(data={"move": "draw", "expected_version": 1}, format="json",
                                           **as_seat(o0)), 403, f"for game {other['id']}, not game {gid}"),
        ("no credential", dict(data={"move": "draw", "expected_version": 1}, format="json"), 403,
         "send your seat credential"),
        ("forged credential", dict(data={"move": "draw", "expected_version": 1}, format="json",
                                   HTTP_AUTHORIZATION="Seat nope"), 401, "unknown seat credential"),
        ("stale version", dict(data={"move": "draw", "expected_version": 0}, format="json", **as_seat(t0)),
         409, "no longer at version 0"),
        ("future version", dict(data={"move": "draw", "expected_version": 7}, format="json", **as_seat(t0)),
         409, "no longer at version 7"),
        ("missing version", dict(data={"move": "draw"}, format="json", **as_seat(t0)), 400,
         "expected_version: This field is required"),
        ("negative version", dict(data={"move": "draw", "expected_version": -1}, format="json", **as_seat(t0)),
         400, "expected_version"),
    ]
    for name, kwargs, status, message in cases:
        response = api.post(url, **kwargs)
        assert response.status_code == status, (name, response.content)
        assert message in response.json()["detail"], (name, response.json())
        assert stored(gid) == 1, name
    # bad creation input
    for body, message in [({"variant": "nosuch", "players": 2}, "unknown variant"),
                          ({"variant": "highcard", "players": 7}, "2 to 4 players"),
                          ({"variant": "highcard", "players": 2, "rules": {"bogus": 1}}, "unknown rule option"),
                          ({"variant": "highcard", "players": 2, "deal": {"racks": []}}, "only staff")]:
        response = api.post("/api/games/", body, format="json")
        assert response.status_code in (400, 403) and message in response.json()["detail"], response.json()
    assert Game.objects.count() == 2
    assert api.get("/api/games/99999/view/").status_code == 404


def test_a_penalty_says_so(api, staff_api):
    # a typed-in deal (staff only): with a shuffled one, seat 0's lowest tile could beat seat 1's highest
    racks = [["t01", "t02", "t03"], ["t10", "t11", "t12"]]
    pool = [f"t{n:02d}" for n in range(1, 31) if f"t{n:02d}" not in racks[0] + racks[1]]
    game = create(staff_api, deal={"racks": racks, "pool": pool})
    t0, t1 = take_all(api, game)
    state = services.load_state(Game.objects.get(pk=game["id"]))
    low, high = min(state.racks[0]), max(state.racks[1])
    url = f"/api/games/{game['id']}/moves/"
    api.post(url, {"move": "draw", "expected_version": 1}, format="json", **as_seat(t0))
    api.post(url, {"move": f"play {high}", "expected_version": 2}, format="json", **as_seat(t1))
    body = api.post(url, {"move": f"play {low}", "expected_version": 3}, format="json", **as_seat(t0)).json()
    assert body["move"] == "penalty" and body["penalty_for"] == f"play {low}" and body["rule"] == "too-low"
    assert "not higher" in body["message"]


TILE = re.compile(r"t\d\d")


def play_whole_game_through_api(api, players, rng):
    """Play a seeded game with random legal moves (including refused ones)
    through the API; return every response body a seat got before the end,
    with the server-side state at that moment."""
    game = create(api, players=players)
    gid = game["id"]
    tokens = take_all(api, game)
    seen = []
    while True:
        row = Game.objects.get(pk=gid)
        if row.is_over:
            return gid, tokens, seen
        state = services.load_state(row)
        for seat, token in enumerate(tokens):
            body = api.get(f"/api/games/{gid}/view/", **as_seat(token)).content.decode()
            seen.append((seat, body, state.snapshot()))
        mover = row.to_move
        moves = [str(m) for m in state.legal_moves()]
        if rng.random() < 0.2:  # now and then a move the rules refuse or penalise
            moves = [f"play {t}" for t in state.racks[mover]] or moves
        response = api.post(f"/api/games/{gid}/moves/", {"move": rng.choice(moves), "expected_version": row.version},
                            format="json", **as_seat(tokens[mover]))
        assert response.status_code in (201, 400), response.content
        seen.append((mover, response.content.decode(), state.snapshot()))
        if not Game.objects.get(pk=gid).is_over:
            for path in ("events", "record"):
                forbidden = api.get(f"/api/games/{gid}/{path}/", **as_seat(tokens[mover]))
                assert forbidden.status_code == 403, (path, forbidden.content)
            assert api.post(f"/api/games/{gid}/audit/", **as_seat(tokens[mover])).status_code == 403
        seen.append((mover, api.get(f"/api/games/{gid}/").content.decode(), state.snapshot()))


@pytest.mark.parametrize("players, seed", [(2, 1), (3, 2), (4, 3)])
def test_no_seat_ever_sees_another_seats_tiles_or_the_pool_order(api, players, seed):
    gid, tokens, seen = play_whole_game_through_api(api, players, random.Random(seed))
    assert len(seen) > 10
    for seat, body, state in seen:
        visible = set(state["racks"][seat]) | set(state["table"])
        leaked = set(TILE.findall(body)) - visible
        assert not leaked, f"seat {seat} saw {sorted(leaked)} in {body}"
        if len(state["pool"]) > 1:
            assert json.dumps(state["pool"]) not in body
    # once over, everything is public
    events = api.get(f"/api/games/{gid}/events/", **as_seat(tokens[0]))
    assert events.status_code == 200 and events.json()[-1]["type"] == "GameFinished"
    audit = api.post(f"/api/games/{gid}/audit/")
    assert audit.status_code == 200 and audit.json()["ok"] is True


def test_staff_see_any_seat_and_events_in_play(api, staff_api):
    game = create(api)
    state = services.load_state(Game.objects.get(pk=game["id"]))
    body = staff_api.get(f"/api/games/{game['id']}/view/?seat=1").json()
    assert body["view"]["rack"] == sorted(state.racks[1])
    assert staff_api.get(f"/api/games/{game['id']}/events/").status_code == 200
    assert api.get(f"/api/games/{game['id']}/events/").status_code == 403
    moved = staff_api.post(f"/api/games/{game['id']}/moves/", {"move": "draw", "expected_version": 1}, format="json")
    assert moved.status_code == 201
    audit = staff_api.post(f"/api/games/{game['id']}/audit/")
    assert audit.json()["ok"] is True
    assert staff_api.get(f"/api/games/{game['id']}/audit/").json()["events_checked"] == 2


def test_openapi_schema_and_docs(api):
    schema = api.get("/api/schema/?format=json")
    assert schema.status_code == 200
    paths = json.loads(schema.content)["paths"]
    assert "/api/games/{game_id}/moves/" in paths and "/api/games/{game_id}/seats/{index}/" in paths
    assert api.get("/api/docs/").status_code == 200
    assert api.get("/api/redoc/").status_code == 200


def test_pages(client, new_game):
    game = new_game(title="Club night, table 1")
    assert "Club night, table 1" in client.get("/games/").content.decode()
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Club night, table 1" in page and "after event <b id=\"at\">1</b>" in page
