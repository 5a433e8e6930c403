"""The league's workers in the embedded default (eager tasks): a
tournament on autoplay plays to the end by itself; each finished stream's
result is recorded once and rounds close when their last game ends; final
standings and leaderboards are recorded as events only when they change."""

import pytest

from games import outbox
from games.audit import audit_game
from games.models import StandingsEvent, TaskRun
from league import handlers, selectors, services
from league.models import Result, Round, TableGame, Tournament


@pytest.fixture
def autoplayed(make_tournament):
    # short racks keep the games short; the rules are the tournament's own
    tournament = make_tournament(3, rounds=2, table_size=3, ai_level="random", rules={"rack_size": 7})
    run = handlers.tournament_autoplay_start(tournament=tournament)
    tournament.refresh_from_db()
    return tournament, run


def test_a_tournament_on_autoplay_plays_to_the_end(autoplayed):
    tournament, run = autoplayed
    assert tournament.status == Tournament.Status.FINISHED, run.error
    assert run.status == "done"
    rounds = list(tournament.round_set.order_by("number"))
    assert [r.status for r in rounds] == [Round.Status.CLOSED] * 2
    games = TableGame.objects.filter(table__round__tournament=tournament)
    assert games.count() == 6
    for game in games.select_related("stream"):
        assert game.stream.is_over
        assert audit_game(game.stream).ok
        [result] = game.results.filter(status=Result.Status.CONFIRMED)
        assert result.scores == game.stream.scores and result.source == "moves"
    assert outbox.pending_count() == 0

    # final standings recorded once, equal to the league's selectors
    subjects = set(StandingsEvent.objects.values_list("subject", flat=True))
    assert {f"tournament:{tournament.pk}:round:1", f"tournament:{tournament.pk}:round:2",
            f"tournament:{tournament.pk}", f"club:{tournament.club_id}:rummikub"} <= subjects
    final = StandingsEvent.objects.get(subject=f"tournament:{tournament.pk}")
    live = selectors.tournament_standings(tournament)
    assert [(r["player"], r["rank"], r["metrics"]["wins"], r["metrics"]["points"])
            for r in final.payload["standings"]] == \
        [(s.player, s.rank, s.metrics["wins"], s.metrics["points"]) for s in live]
    count = StandingsEvent.objects.count()
    again = handlers.final_standings_record(tournament_id=tournament.pk, round_number=2)
    assert again["written"] == [] and StandingsEvent.objects.count() == count
    state = TaskRun.objects.get(key=handlers.standings_key(tournament.pk, 2))
    assert state.status == "done" and state.attempts >= 2

    # a result recorded twice changes nothing
    game = games.first()
    before = game.result_events.count()
    out = handlers.stream_result_record(stream_id=game.stream_id)
    assert out["status"] == "already-recorded" and out["round_closed"]
    assert game.result_events.count() == before


def test_a_correction_changes_the_standings_and_is_recorded_as_a_new_version(autoplayed):
    tournament, _ = autoplayed
    game = TableGame.objects.filter(table__round__tournament=tournament, table__round__number=2).first()
    scores = game.results.get(status="confirmed").scores
    loser = min(range(len(scores)), key=lambda i: scores[i])
    racks = ["R1 R2 R3 R4 R5 R6 R7" if i != loser else "" for i in range(len(scores))]
    services.result_record_score_sheet(game=game, racks=racks, correction=True)
    out = handlers.final_standings_record(tournament_id=tournament.pk, round_number=2)
    assert "tournament" in out["written"] and "round" in out["written"]
    versions = StandingsEvent.objects.filter(subject=f"tournament:{tournament.pk}").values_list("version", flat=True)
    assert sorted(versions) == [1, 2]


def test_closing_a_round_in_the_admin_queues_its_standings(make_tournament):
    tournament = make_tournament(3, rounds=1, table_size=3)
    rnd = services.round_seat(tournament=tournament, seed="s")
    for game in TableGame.objects.filter(table__round=rnd):
        services.result_record_score_sheet(game=game, racks=["", "R5 K5", "B13"])
    services.round_close(round=rnd)
    topics = list(outbox.OutboxMessage.objects.filter(status="pending").values_list("topic", "args"))
    # the standings, and a checkpoint of every stream's head (once a round)
    assert topics == [(handlers.STANDINGS_TASK, [tournament.pk, 1]), (handlers.CHECKPOINT_TASK, [])]
    assert TaskRun.objects.get(key=handlers.standings_key(tournament.pk, 1)).status == "waiting"
    outbox.drain()
    assert TaskRun.objects.get(key=handlers.standings_key(tournament.pk, 1)).status == "done"
    assert StandingsEvent.objects.filter(subject=f"tournament:{tournament.pk}", type="FinalStandings").exists()


def test_standings_of_an_open_round_are_refused(make_tournament):
    tournament = make_tournament(3, rounds=1, table_size=3)
    services.round_seat(tournament=tournament, seed="s")
    with pytest.raises(services.LeagueError, match="is not closed"):
        handlers.final_standings_record(tournament_id=tournament.pk, round_number=1)
    state = TaskRun.objects.get(key=handlers.standings_key(tournament.pk, 1))
    assert state.status == "failed" and "not closed" in state.error


def test_recorded_standings_are_served_by_the_api(make_tournament, client):
    tournament = make_tournament(3, rounds=1, table_size=3)
    rnd = services.round_seat(tournament=tournament, seed="s")
    for game in TableGame.objects.filter(table__round=rnd):
        services.result_record_score_sheet(game=game, racks=["", "R5 K5", "B13"])
    services.round_close(round=rnd)
    outbox.drain()
    body = client.get(f"/api/standings/tournament:{tournament.pk}/").json()
    assert body["type"] == "FinalStandings" and body["version"] == 1
    assert [r["player"] for r in body["payload"]["standings"]] == \
        [s.player for s in selectors.tournament_standings(tournament)]
    task = client.get(f"/api/tasks/{handlers.standings_key(tournament.pk, 1)}/").json()
    assert task["status"] == "done" and task["result"]["written"]
    assert client.get("/api/standings/tournament:999999/").status_code == 404


def test_the_autoplay_command_names_a_bad_slug(make_tournament):
    from django.core.management import CommandError, call_command

    make_tournament(3, name="Known night")
    with pytest.raises(CommandError, match="no tournament with slug 'nope' \\(known: known-night\\)"):
        call_command("autoplay", "nope")


def test_lost_league_tasks_are_re_driven_until_the_tournament_is_finished(make_tournament, monkeypatch):
    """Every league message after the first is lost (sent to a broker that
    dropped it): the tournament stalls; ``redrive`` queues each task again
    until its effect is seen, and the tournament finishes with its
    standings."""
    from games.models import OutboxMessage

    lost = []
    real_enqueue = outbox.enqueue
    redriving = [False]

    def lose(rows):
        for row in rows:
            if row.topic.startswith("league.") and not redriving[0] and \
                    (row.topic != handlers.AUTOPLAY_TASK or Round.objects.exists()):
                OutboxMessage.objects.filter(pk=row.pk).update(status="sent")  # taken, never run
                lost.append(row.topic)

    def losing(topic, args=(), kwargs=None, **kw):
        row = real_enqueue(topic, args, kwargs, **kw)
        lose([row])
        return row

    real_publish = outbox.publish

    def losing_publish(game, events, *args, **kw):
        # a move's messages are written with its events (outbox.publish or
        # the move's one statement), not through enqueue
        n = real_publish(game, events, *args, **kw)
        lose(OutboxMessage.objects.filter(game=game, status="pending", topic__startswith="league."))
        return n

    monkeypatch.setattr(outbox, "enqueue", losing)
    monkeypatch.setattr(outbox, "publish", losing_publish)
    tournament = make_tournament(3, rounds=2, table_size=3, ai_level="random", rules={"rack_size": 7})
    handlers.tournament_autoplay_start(tournament=tournament)
    tournament.refresh_from_db()
    assert tournament.status != Tournament.Status.FINISHED
    assert handlers.RESULT_TASK in lost
    rnd = tournament.round_set.get()
    assert rnd.status != Round.Status.CLOSED  # its games ended, their results never came
    assert handlers.redrive(idle_seconds=60) == {"results": 0, "standings": 0, "autoplay": 0}  # not idle yet
    queued = []
    for _ in range(12):  # what the tasks queue is still lost; only the re-driven messages arrive
        redriving[0] = True
        out = handlers.redrive(idle_seconds=0)
        redriving[0] = False
        queued.append(out)
        while outbox.pending_count():
            outbox.drain()
        tournament.refresh_from_db()
        if tournament.status == Tournament.Status.FINISHED and not any(out.values()):
            break  # finished, and nothing left to re-drive
    assert tournament.status == Tournament.Status.FINISHED, queued
    assert queued[0]["results"] == 3 and any(q["autoplay"] for q in queued) and any(q["standings"] for q in queued)
    assert {handlers.STANDINGS_TASK, handlers.AUTOPLAY_TASK} <= set(lost)
    assert StandingsEvent.objects.filter(subject=f"tournament:{tournament.pk}").exists()
    monkeypatch.setattr(outbox, "enqueue", real_enqueue)
    monkeypatch.setattr(outbox, "publish", real_publish)
    while outbox.pending_count():
        outbox.drain()
    assert handlers.redrive(idle_seconds=0) == {"results": 0, "standings": 0, "autoplay": 0}  # nothing left
