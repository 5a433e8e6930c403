"""Disputes settled by the solver (eager mode): a penalised play whose
table could not be divided, a valid table with its arrangement as evidence,
a seat that could have opened, a play that was not the best; duplicates do
nothing; bad disputes are refused by name; evidence from a rack stays
hidden while the game runs."""

from collections import Counter

import pytest

from engine.melds import meld_kind, parse_meld
from engine.tiles import STANDARD, parse_tiles
from games import disputes, outbox, services
from games.audit import audit_game
from games.disputes import DisputeError
from games.models import Dispute, Event, Game, TaskState

RACK0 = "R10 R11 R12 R13 K7 B7 O7 K1 B5 O9 K3 B12 O2 R5"
RACK1 = "K10 B10 O10 R2 K5 B8 O12 R6 K9 B3 O6 R8 K12 O1"
FIRST_DRAWS = "K13 B1 O4 K2"


def deal():
    used = Counter(str(t) for t in parse_tiles(f"{RACK0} {RACK1} {FIRST_DRAWS}"))
    rest = []
    for t in STANDARD.tiles():
        if used[str(t)]:
            used[str(t)] -= 1
        else:
            rest.append(str(t))
    return {"racks": [RACK0.split(), RACK1.split()], "pool": FIRST_DRAWS.split() + rest}


@pytest.fixture
def played(db):
    """v2: seat 0's play K1 B5 O9 refused (penalty); v3: seat 1 draws though
    it holds K10 B10 O10; v4: seat 0 opens with R10-R13 only (K7 B7 O7 kept
    back); v5: seat 1 opens with K10 B10 O10."""
    return play_fixture_moves(services.game_create(variant="sabra", players=2, deal=deal(), seats=["Ann", "Ben"],
                                                   training=True))


def play_fixture_moves(game):
    moves = ["play K1 B5 O9 -> [K1 B5 O9]", "draw", "play R10 R11 R12 R13 -> [R10 R11 R12 R13]",
             "play K10 B10 O10 -> [K10 B10 O10]"]
    for version, move in enumerate(moves, start=1):
        services.game_record_move(game=game, move=move, expected_version=version)
    game.refresh_from_db()
    penalty = Event.objects.get(game=game, version=2).payload
    assert penalty["outcome"] == "penalty" and penalty["refused"]["rule"] == "table-not-valid"
    return game


def divides(melds):
    """Every meld text valid by the engine's own meld rules."""
    return all(meld_kind(parse_meld(m)) for m in melds)


def tiles_in(melds):
    return Counter(t.split("(")[0] for m in melds for t in m.strip("[]").split())


def test_a_penalised_play_on_an_undividable_table_is_upheld(played, settle):
    d = settle(played, move_version=2, kind="table_invalid", seat=0, note="my table was fine")
    assert d.upheld is True and d.verdict == "table_not_valid"
    assert d.evidence["source"] == "refused-play" and sorted(d.evidence["tiles"]) == ["B5", "K1", "O9"]
    assert d.evidence["arrangement"] is None
    resolved = Event.objects.get(game=played, version=d.resolved_version)
    assert resolved.type == "DisputeResolved" and resolved.payload["verdict"] == "table_not_valid"
    opened = Event.objects.get(game=played, version=d.opened_version)
    assert opened.type == "DisputeOpened" and opened.payload["by"] == "seat:0"


def test_a_valid_table_is_dismissed_with_an_arrangement(played, settle):
    d = settle(played, move_version=5, kind="table_invalid")
    assert d.upheld is False and d.verdict == "table_valid" and d.evidence["source"] == "after-move"
    arrangement = d.evidence["arrangement"]
    assert divides(arrangement)
    assert tiles_in(arrangement) == Counter(d.evidence["tiles"])
    assert len(d.evidence["tiles"]) == 7


def test_a_claimed_table_from_a_real_table_is_judged_as_typed(played, settle):
    d = settle(played, move_version=5, kind="table_invalid", claimed_table=["R7", "R8", "K9"])
    assert d.upheld and d.evidence["source"] == "claimed"
    d2 = settle(played, move_version=5, kind="table_invalid", claimed_table="J R7 R8 K9 B9 O9")
    assert not d2.upheld and divides(d2.evidence["arrangement"])


def test_a_seat_that_drew_though_it_could_open_is_upheld_with_the_play(played, settle):
    d = settle(played, move_version=3, kind="could_open")
    assert d.upheld and d.verdict == "could_have_opened"
    play = d.evidence["play"]
    assert play["value_placed"] >= 30 and divides(play["melds"])
    assert not (Counter(play["play"]) - Counter(RACK1.split() + ["K2"])), "the play comes from seat 1's rack"


def test_a_play_that_kept_tiles_back_was_not_the_best(played, settle):
    d = settle(played, move_version=4, kind="not_best")
    assert d.upheld and d.verdict == "better_play_existed"
    assert d.evidence["played"]["tiles_placed"] == 4 and d.evidence["best"]["tiles_placed"] == 7
    assert sorted(d.evidence["best"]["play"]) == sorted("R10 R11 R12 R13 K7 B7 O7".split())
    best = settle(played, move_version=5, kind="not_best")
    assert not best.upheld and best.verdict == "best_play"


def test_not_best_applies_to_training_games_only(db, settle):
    game = play_fixture_moves(services.game_create(variant="sabra", players=2, deal=deal()))
    assert not game.training and "training" not in Event.objects.get(game=game, version=1).payload
    with pytest.raises(DisputeError, match=f"game {game.pk} is not a training game") as info:
        disputes.dispute_open(game=game, move_version=4, kind="not_best")
    assert info.value.code == "not-training" and not Dispute.objects.exists()
    assert settle(game, move_version=3, kind="could_open").upheld  # the rules' disputes still apply


def test_the_training_flag_is_in_the_log_and_survives_a_rebuild(played):
    assert Event.objects.get(game=played, version=1).payload["training"] is True
    Game.objects.filter(pk=played.pk).update(training=False)
    assert services.projection_rebuild(Game.objects.get(pk=played.pk)).training is True


def test_resolving_twice_changes_nothing_and_the_audit_stays_clean(played, settle):
    d = settle(played, move_version=2, kind="table_invalid")
    before = Event.objects.filter(game=played).count()
    again = disputes.dispute_resolve(dispute_id=d.pk)
    assert again.resolved_version == d.resolved_version and again.attempts == d.attempts
    assert Event.objects.filter(game=played).count() == before
    assert Event.objects.filter(game=played, type="DisputeResolved").count() == 1
    played.refresh_from_db()
    assert audit_game(played).ok


def test_moves_go_on_after_dispute_events(played, settle):
    settle(played, move_version=2, kind="table_invalid")
    played.refresh_from_db()
    assert played.version == 7 and played.to_move == 0
    result = services.game_record_move(game=played, move="draw", expected_version=7)
    assert result.version == 8


@pytest.mark.parametrize("kw, message", [
    ({"move_version": 1, "kind": "table_invalid"}, "is a GameCreated, not a move"),
    ({"move_version": 99, "kind": "table_invalid"}, "has no event 99"),
    ({"move_version": 2, "kind": "cheating"}, "unknown dispute kind 'cheating'"),
    ({"move_version": 4, "kind": "could_open"}, "made the initial meld with move 4"),
    ({"move_version": 5, "kind": "table_invalid", "claimed_table": ["R7", "X9"]}, "unknown tile"),
    ({"move_version": 5, "kind": "table_invalid", "claimed_table": ["J"] * 3}, "3 copies of J"),
    ({"move_version": 3, "kind": "could_open", "claimed_table": ["R7"]}, "only goes with a table_invalid"),
    ({"move_version": 3, "kind": "table_invalid", "seat": 5}, "seats 0 to 1, not 5"),
])
def test_bad_disputes_are_refused_by_name(played, kw, message):
    with pytest.raises((DisputeError, services.BadRequest), match=message):
        disputes.dispute_open(game=played, **kw)
    assert not Dispute.objects.exists()


def test_a_seat_cannot_ask_about_another_seats_rack_while_the_game_is_on(played):
    with pytest.raises(services.NotYourSeat, match="rack of seat 1: while the game is on"):
        disputes.dispute_open(game=played, move_version=3, kind="could_open", seat=0)
    with pytest.raises(services.NotYourSeat, match="rack of seat 0"):
        disputes.dispute_open(game=played, move_version=4, kind="not_best", seat=1)
    assert disputes.dispute_open(game=played, move_version=4, kind="not_best", seat=0).pk
    assert disputes.dispute_open(game=played, move_version=4, kind="table_invalid", seat=1).pk


def test_a_family_the_solver_does_not_judge_is_refused(new_game):
    game = new_game(players=2)
    services.game_record_move(game=game, move=str(services.load_state(game).legal_moves()[0]),
                              expected_version=1)
    with pytest.raises(DisputeError, match="disputes are judged for Rummikub, .*; game .* is test"):
        disputes.dispute_open(game=game, move_version=2, kind="table_invalid")


def test_evidence_from_a_rack_is_hidden_until_the_game_ends(played, settle):
    d = settle(played, move_version=3, kind="could_open")
    other = disputes.dispute_data(d, seat=0)
    assert "hidden" in other["evidence"] and other["verdict"] == "" and other["summary"] == ""
    assert other["upheld"] is None and other["status"] == "done"
    assert disputes.dispute_data(d, seat=1)["evidence"]["play"]["play"]
    assert disputes.dispute_data(d, staff=True)["evidence"]["rack"]
    public = settle(played, move_version=5, kind="table_invalid")
    assert disputes.dispute_data(public)["evidence"]["arrangement"]


def test_a_failing_resolution_is_marked_failed_with_the_error(played, monkeypatch):
    d = disputes.dispute_open(game=played, move_version=5, kind="table_invalid")

    def broken(*a, **k):
        raise RuntimeError("solver exploded")

    monkeypatch.setattr(disputes, "judge", broken)
    with pytest.raises(RuntimeError):
        disputes.dispute_resolve(dispute_id=d.pk)
    d.refresh_from_db()
    assert d.status == TaskState.FAILED and "solver exploded" in d.error
    monkeypatch.undo()
    disputes.dispute_retry(dispute=d)
    outbox.drain()
    d.refresh_from_db()
    assert d.status == TaskState.DONE and d.attempts == 2 and not d.upheld


# --- the API ---------------------------------------------------------------------

def test_api_a_seat_opens_a_dispute_and_follows_its_state(played, api):
    token = services.seat_take(game=played, index=0)
    url = f"/api/games/{played.pk}/disputes/"
    response = api.post(url, {"move_version": 2, "kind": "table_invalid", "note": "it was valid"},
                        format="json", HTTP_AUTHORIZATION=f"Seat {token}")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["status"] == "waiting" and body["opened_by"] == "seat:0" and body["verdict"] == ""
    outbox.drain()
    detail = api.get(f"/api/disputes/{body['id']}/", HTTP_AUTHORIZATION=f"Seat {token}").json()
    assert detail["status"] == "done" and detail["verdict"] == "table_not_valid" and detail["upheld"]
    assert detail["evidence"]["tiles"] == ["K1", "B5", "O9"]
    anonymous = api.get(f"/api/disputes/{body['id']}/").json()
    assert anonymous["status"] == "done" and anonymous["verdict"] == "" and "hidden" in anonymous["evidence"]
    listed = api.get(url).json()
    assert [d["id"] for d in listed] == [body["id"]]


def test_api_bad_disputes_are_clear_4xx(played, api, staff_api):
    url = f"/api/games/{played.pk}/disputes/"
    nobody = api.post(url, {"move_version": 2, "kind": "table_invalid"}, format="json")
    assert nobody.status_code == 403 and "seat credential" in nobody.json()["detail"]
    bad_kind = staff_api.post(url, {"move_version": 2, "kind": "vibes"}, format="json")
    assert bad_kind.status_code == 400 and "vibes" in bad_kind.json()["detail"]
    not_a_move = staff_api.post(url, {"move_version": 1, "kind": "table_invalid"}, format="json")
    assert not_a_move.status_code == 400 and "not a move" in not_a_move.json()["detail"]
    token = services.seat_take(game=played, index=1)
    claimed = api.post(url, {"move_version": 5, "kind": "table_invalid", "claimed_table": ["R7"]},
                       format="json", HTTP_AUTHORIZATION=f"Seat {token}")
    assert claimed.status_code == 403 and "official" in claimed.json()["detail"]
    assert not Dispute.objects.exists()
    official = staff_api.post(url, {"move_version": 5, "kind": "table_invalid", "claimed_table": ["R7", "R8"]},
                              format="json")
    assert official.status_code == 201 and official.json()["opened_by"] == "official"


def test_api_task_state_by_key(db, api):
    from games.task_state import task_waiting

    task_waiting("standings:tournament:9:round:1", "league.final_standings")
    body = api.get("/api/tasks/standings:tournament:9:round:1/").json()
    assert body["status"] == "waiting" and body["name"] == "league.final_standings"
    assert api.get("/api/tasks/nothing/").status_code == 404


def test_admin_lists_disputes_with_their_state(played, admin_client, settle):
    d = settle(played, move_version=2, kind="table_invalid")
    page = admin_client.get("/admin/games/dispute/")
    assert page.status_code == 200 and b"table_not_valid" in page.content
    detail = admin_client.get(f"/admin/games/dispute/{d.pk}/change/")
    assert detail.status_code == 200 and b"cannot be divided" in detail.content
    assert admin_client.get("/admin/games/taskrun/").status_code == 200
    assert admin_client.get("/admin/games/standingsevent/").status_code == 200


def test_a_lost_dispute_task_is_queued_again_by_the_repair(played):
    from datetime import timedelta

    from django.utils import timezone

    from games import tasks
    from games.models import OutboxMessage

    d = disputes.dispute_open(game=played, move_version=5, kind="table_invalid")
    OutboxMessage.objects.filter(topic=disputes.TASK).delete()  # the message was lost
    assert tasks.requeue_stalled.apply(kwargs={"idle_seconds": 60}).result["disputes"] == 0
    Dispute.objects.filter(pk=d.pk).update(created_at=timezone.now() - timedelta(minutes=5))
    assert tasks.requeue_stalled.apply(kwargs={"idle_seconds": 60}).result["disputes"] == 1
    outbox.drain()
    d.refresh_from_db()
    assert d.status == TaskState.DONE and d.verdict == "table_valid"


def test_api_the_same_dispute_again_answers_the_first_and_the_judge_runs_once(played, api, staff_api, monkeypatch,
                                                                             settings):
    settings.API_RATE_LIMITS = {**settings.API_RATE_LIMITS, "dispute": None}  # the limit has its own test
    judged = []
    real = disputes.judge
    monkeypatch.setattr(disputes, "judge", lambda *a, **k: judged.append(a[0]) or real(*a, **k))
    token = services.seat_take(game=played, index=0)
    url = f"/api/games/{played.pk}/disputes/"
    body = {"move_version": 2, "kind": "table_invalid", "note": "it was valid"}
    first = api.post(url, body, format="json", HTTP_AUTHORIZATION=f"Seat {token}")
    assert first.status_code == 201
    outbox.drain()
    events = Event.objects.filter(game=played).count()
    for _ in range(14):  # the 15 identical disputes of the probe
        again = api.post(url, {**body, "note": "really"}, format="json", HTTP_AUTHORIZATION=f"Seat {token}")
        assert again.status_code == 200 and again.json()["id"] == first.json()["id"]
        assert again.json()["status"] == "done" and again.json()["verdict"] == "table_not_valid"
        outbox.drain()
    assert judged == ["table_invalid"] and Dispute.objects.filter(game=played).count() == 1
    assert Event.objects.filter(game=played).count() == events  # nothing opened, nothing judged again
    # another question on the same move is another dispute
    official = staff_api.post(url, {"move_version": 2, "kind": "table_invalid", "claimed_table": ["K1", "B5"]},
                              format="json")
    assert official.status_code == 201 and official.json()["id"] != first.json()["id"]
