""""That was not a winning hand" in Okey: a typed-in game whose starter
finishes at once, disputed through the service and the API, judged by
engine.okey.judge_finish (the hand checker of ``okey-hand``); a move that
did not finish and a Rummikub kind are refused by name, nothing stored."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.okey import TILES, check
from engine.okey.game import _code
from engine.okey.hand import tile_text
from games import disputes, outbox, services
from games.audit import audit_game
from games.disputes import DisputeError
from games.models import Dispute, Event, Game

pytestmark = pytest.mark.django_db

WIN = "R1 R2 R3 K5 R5 B5 O7 O8 O9 B10 B11 B12 B13 O5".split()


def finished_game():
    """A typed-in deal: seat 0 starts with the winning 14 and a K9, throws
    the K9, the others draw and throw what they drew, and seat 0 draws the
    other K9 and finishes with it. ``(game, finish version, discard version)``."""
    left = Counter(TILES)
    for t in WIN + ["K9", "K9", "K3"]:
        left[_code(t)] -= 1
    spare = [tile_text(t) for t in sorted(left.elements(), key=lambda c: (c == 3 or c == 52, -(c % 13), c))]
    deal = {"hands": [WIN + ["K9"], spare[0:14], spare[14:28], spare[28:42]], "indicator": "K3",
            "middle": spare[42:45] + ["K9"] + spare[45:]}
    game = services.game_create(variant="okey", players=4, seats=["Ayşe", "Burak", "Cem", "Deniz"],
                                rules={"start_points": 2}, deal=deal)
    first = services.game_record_move(game=game, move="discard K9", expected_version=game.version)
    for seat in (1, 2, 3):
        game.refresh_from_db()
        services.game_record_move(game=game, move="draw", expected_version=game.version)
        game.refresh_from_db()
        tile = tile_text(services.load_state(game).racks[seat][-1])
        services.game_record_move(game=game, move=f"discard {tile}", expected_version=game.version)
    game.refresh_from_db()
    services.game_record_move(game=game, move="draw", expected_version=game.version)  # the K9
    game.refresh_from_db()
    services.game_record_move(game=game, move="finish K9", expected_version=game.version)
    game.refresh_from_db()
    assert game.is_over
    done = Event.objects.filter(game=game, type="MoveRecorded").latest("version")
    assert done.payload["move"] == "finish K9"
    return game, done.version, first.version


def test_the_finish_is_judged_by_the_hand_checker(settle):
    game, version, _ = finished_game()
    d = settle(game, move_version=version, kind="winning_hand", seat=2, note="not a hand")
    assert d.upheld is False and d.verdict == "winning_hand_valid"
    ev = d.evidence
    assert ev["seat"] == 0 and ev["discard"] == "K9" and ev["okey"] == "K4" and ev["kind"] == "melds"
    assert sorted(ev["tiles"]) == sorted(WIN)
    # the same answer as the command other tools call
    assert check(ev["tiles"], okey="K4").melds == ev["melds"]
    assert "seat 0 finished game 1 with a winning hand" in d.summary
    assert audit_game(Game.objects.get(pk=game.pk)).ok


def test_a_move_that_did_not_finish_is_refused_with_nothing_stored(api, staff_api):
    game, version, discard = finished_game()
    before = Event.objects.filter(game=game).count()
    with pytest.raises(DisputeError, match=f"move {discard} .* did not finish") as exc:
        disputes.dispute_open(game=game, move_version=discard, kind="winning_hand")
    assert exc.value.code == "not-going-out"
    url = f"/api/games/{game.pk}/disputes/"
    wrong = staff_api.post(url, {"move_version": version, "kind": "table_invalid"}, format="json")
    assert wrong.status_code == 400 and "not judged for okey games (their kinds: winning_hand)" in \
        wrong.json()["detail"]
    assert not Dispute.objects.exists() and Event.objects.filter(game=game).count() == before
    ok = staff_api.post(url, {"move_version": version, "kind": "winning_hand"}, format="json")
    assert ok.status_code == 201, ok.content
    outbox.drain()
    assert api.get(f"/api/disputes/{ok.json()['id']}/").json()["verdict"] == "winning_hand_valid"
