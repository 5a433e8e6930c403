"""Winning-hand disputes in contract rummy (eager mode): a hand played by
the engine's AI to the move that went out, disputed through the service and
the API and settled by the engine's judge as a winning hand; a hand-built
going-out that breaks a rule is upheld; a move that did not go out, a kind
of the other family and an unknown kind are refused by name, with nothing
stored; the evidence (cards laid on the table) is public."""

from __future__ import annotations

import random

import pytest

from engine.cards import TEXT, make_deck, parse_cards
from engine.contract import ContractGame, claims_going_out, contract_text
from engine.contract.ai import next_ai_move
from games import disputes, outbox, services
from games.audit import audit_game
from games.disputes import DisputeError
from games.models import Dispute, Event, Game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _seeded(monkeypatch, request):
    """Digital games are dealt from a seed fixed per test (reproducible)."""
    monkeypatch.setattr(services.secrets, "token_hex", lambda n=16: f"winning-hand-{request.node.name}")


def table_deal(players=3, decks=3, seed=11):
    """A typed-in deal of all seven hands, as an official enters a game
    played at a real table."""
    rng = random.Random(seed)
    deal = {}
    for h in range(1, 8):
        pack = [TEXT[c] for c in make_deck(decks, 2)]
        rng.shuffle(pack)
        k = 11 * players
        deal[f"hand{h}"] = [pack[i * 11:(i + 1) * 11] for i in range(players)]
        deal[f"upcard{h}"] = [pack[k]]
        deal[f"stock{h}"] = pack[k + 1:]
    return deal


def play_until_out(game):
    """Record the AI's moves for every seat until one goes out. Returns
    ``(version, seat, hand_no)`` of the move that went out, and the version
    of a discard made before it."""
    discard = None
    for _ in range(2000):
        game.refresh_from_db()
        state = services.load_state(game)
        move = next_ai_move(state, range(game.players))
        assert move is not None, "the AI always has a move for some seat"
        out, seat, hand_no = claims_going_out(state, move), state.to_move, state.hand_no
        result = services.game_record_move(game=game, move=str(move), expected_version=game.version)
        if move.action == "discard":
            discard = result.version
        if out:
            after = services.load_state(Game.objects.get(pk=game.pk))
            assert after.results[hand_no]["winner"] == seat, "the engine ended the hand with seat out"
            assert result.outcome in ("hand-over", "game-over")
            return result.version, seat, hand_no, discard
    raise AssertionError("nobody went out in 2000 moves")


@pytest.fixture(params=["contract", "international"])
def went_out(request):
    """A three-player game of the variant, played by the AI to the first
    going-out; ``(game, version, seat, hand_no, discard_version)``."""
    game = services.game_create(variant=request.param, players=3, seats=["Ann", "Ben", "Cy"])
    return (game, *play_until_out(game))


def test_the_move_that_went_out_is_judged_a_winning_hand(went_out, settle):
    game, version, winner, hand_no, _ = went_out
    other = (winner + 1) % 3      # the cards are on the table: any seat may ask
    d = settle(game, move_version=version, kind="winning_hand", seat=other, note="that was no hand")
    assert d.upheld is False and d.verdict == "winning_hand_valid"
    ev = d.evidence
    assert ev["seat"] == winner and ev["rule"] is None and ev["hand"] == hand_no + 1
    assert ev["contract"] == contract_text(hand_no) and ev["profile"] == Game.objects.get(pk=game.pk).rules["profile"]
    assert ev["melds"] and all(m["kind"] in ("set", "run") for m in ev["melds"])
    assert all(m["kind"] in ("set", "run") for m in ev["table"])
    # the melds laid are on the table the hand ended with
    assert all(any(m["cards"] == t["cards"] for t in ev["table"]) for m in ev["melds"])
    assert f"seat {winner} went out of hand {hand_no + 1}" in d.summary
    resolved = Event.objects.get(game=game, version=d.resolved_version)
    assert resolved.type == "DisputeResolved" and resolved.payload["verdict"] == "winning_hand_valid"
    opened = Event.objects.get(game=game, version=d.opened_version)
    assert opened.payload["kind"] == "winning_hand" and opened.payload["by"] == f"seat:{other}"
    game.refresh_from_db()
    assert not game.is_over and audit_game(game).ok
    # public evidence: shown to anyone while the game is on
    shown = disputes.dispute_data(d)
    assert shown["verdict"] == "winning_hand_valid" and shown["evidence"]["melds"] == ev["melds"]


def test_a_move_that_did_not_go_out_is_refused_with_nothing_stored(went_out):
    game, version, winner, _, discard = went_out
    before = Event.objects.filter(game=game).count()
    with pytest.raises(DisputeError, match=f"move {discard} .* did not go out") as exc:
        disputes.dispute_open(game=game, move_version=discard, kind="winning_hand")
    assert exc.value.code == "not-going-out"
    with pytest.raises(DisputeError, match="did not go out"):
        disputes.dispute_open(game=game, move_version=2, kind="winning_hand", seat=1)
    assert not Dispute.objects.exists() and Event.objects.filter(game=game).count() == before


def test_api_a_seat_disputes_a_going_out_and_everyone_sees_the_verdict(went_out, api):
    game, version, winner, _, discard = went_out
    other = (winner + 2) % 3
    token = services.seat_take(game=game, index=other)
    url = f"/api/games/{game.pk}/disputes/"
    response = api.post(url, {"move_version": version, "kind": "winning_hand"},
                        format="json", HTTP_AUTHORIZATION=f"Seat {token}")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["kind"] == "winning_hand" and body["status"] == "waiting" and body["opened_by"] == f"seat:{other}"
    outbox.drain()
    detail = api.get(f"/api/disputes/{body['id']}/").json()     # no credential at all
    assert detail["status"] == "done" and detail["verdict"] == "winning_hand_valid"
    assert detail["upheld"] is False and detail["evidence"]["seat"] == winner
    assert [d["verdict"] for d in api.get(url).json()] == ["winning_hand_valid"]


def test_api_bad_winning_hand_disputes_are_400_with_the_reason(went_out, api, staff_api):
    game, version, winner, _, discard = went_out
    url = f"/api/games/{game.pk}/disputes/"
    stored = Event.objects.filter(game=game).count()
    not_out = staff_api.post(url, {"move_version": discard, "kind": "winning_hand"}, format="json")
    assert not_out.status_code == 400 and not_out.json()["error"] == "not-going-out"
    assert f"move {discard}" in not_out.json()["detail"] and "did not go out" in not_out.json()["detail"]
    unknown = staff_api.post(url, {"move_version": version, "kind": "bad_hand"}, format="json")
    assert unknown.status_code == 400 and "bad_hand" in unknown.json()["detail"]
    assert "winning_hand" in unknown.json()["detail"]
    rummikub_kind = staff_api.post(url, {"move_version": version, "kind": "table_invalid"}, format="json")
    assert rummikub_kind.status_code == 400 and rummikub_kind.json()["error"] == "not-applicable"
    assert "not judged for contract games (their kinds: winning_hand)" in rummikub_kind.json()["detail"]
    claimed = staff_api.post(url, {"move_version": version, "kind": "winning_hand", "claimed_table": ["7H"]},
                             format="json")
    assert claimed.status_code == 400 and "only goes with a table_invalid" in claimed.json()["detail"]
    assert not Dispute.objects.exists() and Event.objects.filter(game=game).count() == stored


def test_a_game_entered_from_a_real_table_is_disputed_the_same_way(db, settle):
    game = services.game_create(variant="contract", players=3, deal=table_deal())
    assert game.mode == Game.Mode.TABLE
    version, winner, hand_no, _ = play_until_out(game)
    d = settle(game, move_version=version, kind="winning_hand")      # an official
    assert d.verdict == "winning_hand_valid" and d.evidence["seat"] == winner
    assert disputes.dispute_data(d)["opened_by"] == "official"


def test_the_unknown_kind_message_lists_winning_hand(db):
    game = services.game_create(variant="contract", players=3)
    with pytest.raises(DisputeError, match="unknown dispute kind 'out'.*winning_hand"):
        disputes.dispute_open(game=game, move_version=2, kind="out")


def test_a_rummikub_game_refuses_winning_hand_and_points_to_table_invalid(db):
    game = services.game_create(variant="sabra", players=2)
    services.game_record_move(game=game, move="draw", expected_version=1)
    with pytest.raises(DisputeError, match="not judged for rummikub games.*table_invalid on that play"):
        disputes.dispute_open(game=game, move_version=2, kind="winning_hand")
    assert not Dispute.objects.exists()


def _position(hands, table=(), down=(), took=False, hand=1):
    g = ContractGame.new(3, seed="dispute-judge")
    g.hand_no = hand - 1
    g.hands = [[int(c) for c in parse_cards(h)] for h in hands]
    g.table = [g._r.build([int(c) for c in parse_cards(m)], owner) for owner, m in table]
    g.down = [i in down for i in range(3)]
    g.active, g.phase, g.took, g.upcard, g.window = 0, "play", took, False, False
    return g


def test_the_judge_upholds_a_going_out_that_breaks_a_rule():
    """No stored move breaks a rule (the store refuses them), so the judge is
    asked directly: the discard was taken on this turn (seed 002)."""
    before = _position(["7C 7D 7H 9S 9C 9D", "3D 4D", "5S 6S"], took=True)
    payload = {"seat": 0, "move": "0 down 7C 7D 7H / 9S 9C 9D", "outcome": "hand-over"}
    answer = disputes.judge("winning_hand", before, before, payload)
    assert answer["upheld"] is True and answer["verdict"] == "winning_hand_not_valid"
    assert answer["evidence"]["rule"] == "no-out-after-take"
    assert "no-out-after-take" in answer["summary"] and "did not go out of hand 1 (two sets)" in answer["summary"]
    assert [m["kind"] for m in answer["evidence"]["melds"]] == ["set", "set"]
    fine = _position(["7C 7D 7H 9S 9C 9D", "3D 4D", "5S 6S"])
    assert disputes.judge("winning_hand", fine, fine, payload)["verdict"] == "winning_hand_valid"
    with pytest.raises(DisputeError, match="about a move that went out"):
        disputes.judge("winning_hand", fine, fine, {"seat": 0, "move": "0 discard 7C"})
