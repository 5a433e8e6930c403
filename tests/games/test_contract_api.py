"""Contract rummy through the games services and the REST API: the same
event store, seat credentials, hidden hands and audit as Rummikub, with buy
requests from seats that are not on turn (the buy window enforced by the
engine, a buy for another seat refused with 403)."""

import json

import pytest

from engine.cards import TEXT
from engine.contract.ai import next_ai_move
from engine.records import replay_text
from games import services
from games.audit import audit_game
from games.models import Event, Game

pytestmark = pytest.mark.django_db


def create(api, variant="international", players=3, **extra):
    response = api.post("/api/games/", {"variant": variant, "players": players, **extra}, format="json")
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


def version(game_id):
    return Game.objects.get(pk=game_id).version


def post_move(api, game_id, token, move, expected=None):
    expected = version(game_id) if expected is None else expected
    return api.post(f"/api/games/{game_id}/moves/", {"move": move, "expected_version": expected},
                    format="json", **as_seat(token))


def view(api, game_id, token):
    response = api.get(f"/api/games/{game_id}/view/", **as_seat(token))
    assert response.status_code == 200, response.content
    return response.json()["view"]


def server_state(game_id):
    return services.load_state(Game.objects.get(pk=game_id))


def test_a_buy_off_turn_is_accepted_inside_the_window_and_refused_outside_it(api):
    game = create(api)
    gid = game["id"]
    tokens = take_all(api, game)
    # the first upcard: seat 2 asks to buy it while seat 0 is on turn
    r = post_move(api, gid, tokens[2], "buy")
    assert r.status_code == 201, r.content
    assert r.json()["outcome"] == "buy-requested" and r.json()["move"] == "2 buy"
    assert view(api, gid, tokens[2])["buy_requests"] == [2]
    # seat 0 draws from the stock: the request is served first (card + 2)
    assert post_move(api, gid, tokens[0], "draw").status_code == 201
    assert view(api, gid, tokens[2])["hand_counts"] == [12, 11, 14]
    card = TEXT[server_state(gid).hands[0][0]]
    assert post_move(api, gid, tokens[0], f"discard {card}").status_code == 201

    # seat 1 is on turn; seat 0 cannot buy back its own discard
    stored = Event.objects.filter(game_id=gid).count()
    r = post_move(api, gid, tokens[0], "buy")
    assert r.status_code == 400 and r.json()["error"] == "own-discard"
    # a credential buying for another seat: 403, nothing stored
    r = post_move(api, gid, tokens[1], "2 buy")
    assert r.status_code == 403 and r.json()["error"] == "not-your-seat"
    assert "seat 2" in r.json()["detail"]
    # a seat off turn may buy, not draw: a seatless move is its own
    r = post_move(api, gid, tokens[2], "draw")
    assert r.status_code == 400 and r.json()["error"] == "not-your-turn"
    assert Event.objects.filter(game_id=gid).count() == stored

    # seat 1 draws without a buy request: the window on seat 0's discard closes
    assert post_move(api, gid, tokens[1], "draw").status_code == 201
    assert view(api, gid, tokens[2])["buy_window"] is False
    r = post_move(api, gid, tokens[2], "buy")
    assert r.status_code == 400 and r.json()["error"] == "buy-window-closed"
    assert "window is closed" in r.json()["detail"]
    assert Event.objects.filter(game_id=gid).count() == stored + 1

    # seat 1's discard opens it again: seat 0 (off turn) asks, seat 2 draws
    card = TEXT[server_state(gid).hands[1][0]]
    assert post_move(api, gid, tokens[1], f"discard {card}").status_code == 201
    r = post_move(api, gid, tokens[0], "buy")
    assert r.status_code == 201 and r.json()["outcome"] == "buy-requested"
    event = Event.objects.filter(game_id=gid).order_by("-version").first()
    # "seat" is the seat that moved (seat 0, off turn while seat 2 is on turn)
    assert event.payload["seat"] == 0 and event.payload["move"] == "0 buy" and "by" not in event.payload
    assert event.schema_version == 2 and Game.objects.get(pk=gid).to_move == 2
    assert event.actor == "seat:0"
    assert post_move(api, gid, tokens[2], "draw").status_code == 201
    seen = view(api, gid, tokens[0])
    assert seen["hand_counts"] == [11 + 3, 11, 14 + 1] and seen["buys"] == [1, 0, 1]
    assert seen["picked_up"][0] == [card] and card in seen["my_hand"]


def test_first_asked_with_consent_in_the_three_deck_profile(api):
    game = create(api, variant="contract", players=4)
    gid = game["id"]
    tokens = take_all(api, game)
    assert post_move(api, gid, tokens[0], "draw").status_code == 201
    card = TEXT[server_state(gid).hands[0][0]]
    assert post_move(api, gid, tokens[0], f"discard {card}").status_code == 201
    assert post_move(api, gid, tokens[3], "buy").json()["outcome"] == "buy-requested"
    r = post_move(api, gid, tokens[2], "buy")       # seat 3 asked first
    assert r.status_code == 400 and r.json()["error"] == "buy-already-asked"
    r = post_move(api, gid, tokens[1], "draw")      # the player on turn must answer
    assert r.status_code == 400 and r.json()["error"] == "answer-buy-request"
    r = post_move(api, gid, tokens[3], "1 allow")   # only seat 1 answers
    assert r.status_code == 403
    assert post_move(api, gid, tokens[1], "allow").json()["outcome"] == "bought"
    assert view(api, gid, tokens[3])["hand_counts"] == [11, 11, 11, 14]
    assert post_move(api, gid, tokens[1], "draw").status_code == 201


def test_a_stale_version_and_the_public_view(api):
    game = create(api)
    gid = game["id"]
    tokens = take_all(api, game)
    r = post_move(api, gid, tokens[1], "buy", expected=0)
    assert r.status_code == 409 and r.json()["version"] == 1
    public = api.get(f"/api/games/{gid}/view/").json()["view"]
    assert "my_hand" not in public and public["pending_actors"] == [0, 1, 2]


def _lists(value):
    """Every list of strings anywhere in a JSON value."""
    if isinstance(value, dict):
        for v in value.values():
            yield from _lists(v)
    elif isinstance(value, list):
        if value and all(isinstance(v, str) for v in value):
            yield value
        for v in value:
            yield from _lists(v)


def _check_hidden(seen, state, seat):
    """``seen`` (a seat's view as JSON) shows its own hand and never another
    hand or the stock, in any order."""
    assert sorted(seen["my_hand"]) == sorted(TEXT[c] for c in state.hands[seat])
    assert seen["hand_counts"] == [len(h) for h in state.hands]
    assert seen["stock_count"] == len(state.stock)
    text = json.dumps(seen)
    for key in ("\"hands\"", "\"stock\"", "\"deal\"", "\"seed\""):
        assert key not in text
    secrets = {tuple(TEXT[c] for c in state.stock), tuple(TEXT[c] for c in reversed(state.stock))}
    others = {tuple(sorted(TEXT[c] for c in h)) for s, h in enumerate(state.hands) if s != seat and len(h) > 1}
    for lst in _lists(seen):
        if len(lst) > 1:
            assert tuple(lst) not in secrets
            assert tuple(sorted(lst)) not in others or tuple(sorted(lst)) == tuple(sorted(seen["my_hand"]))


def test_a_whole_seeded_ai_game_through_the_api_keeps_hands_hidden_and_audits_clean(api, monkeypatch):
    monkeypatch.setattr(services.secrets, "token_hex", lambda n=16: "contract-api-whole-game")
    game = create(api, players=3)
    gid = game["id"]
    tokens = take_all(api, game)
    moves = buys = 0
    while True:
        state = server_state(gid)
        if state.is_over:
            break
        move = next_ai_move(state, range(3))
        seat = move.seat if move.seat is not None else state.active
        # the move goes in without its seat: the credential says whose it is
        r = post_move(api, gid, tokens[seat], move.body())
        assert r.status_code == 201, (str(move), r.content)
        moves += 1
        buys += move.action == "buy"
        if moves % 7 == 0 or move.action == "buy":
            after = server_state(gid)
            if not after.is_over:
                for s in range(3):
                    _check_hidden(view(api, gid, tokens[s]), after, s)
        assert moves < 3000
    assert buys > 0
    row = Game.objects.get(pk=gid)
    assert row.status == "finished" and row.scores == state.scores()
    finished = Event.objects.get(game_id=gid, type="GameFinished")
    assert finished.payload["seed"] == "contract-api-whole-game"
    # the record replays to the same result, and the audit is clean
    record = api.get(f"/api/games/{gid}/record/")
    assert record.status_code == 200
    replayed = replay_text(record.content.decode())
    assert replayed.scores() == row.scores and len(replayed.move_stack) == moves
    verdict = audit_game(row)
    assert verdict.ok and verdict.events_checked == moves + 2, verdict.problem
    assert api.post(f"/api/games/{gid}/audit/").json()["ok"] is True
