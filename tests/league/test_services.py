"""League services on the database: seating rounds, score sheets, results as
events, closing rounds, standings equal to a rebuild."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from league import selectors, services
from league.models import (AppendOnlyError, Player, Result, ResultEvent, Round,
                           TableGame, Tournament)
from league.services import LeagueError

# Seed 001's sample score table as racks left at the end of each game:
# game 1 A +24 B -5 C -16 D -3; game 2 A -6 B -11 C +22 D -5;
# game 3 A -32 B -13 C -2 D +47 (A holds a joker: 30 + 2).
SEED_001_RACKS = [
    ["", "R5", "K10 O6", "B3"],
    ["R6", "K11", "", "O5"],
    ["J R2", "K13", "B2", ""],
]


def games_of(rnd, table=1):
    return list(TableGame.objects.filter(table__round=rnd, table__number=table)
                .order_by("number"))


def seat_names(rnd, table=1):
    t = rnd.tables.get(number=table)
    return [s.entry.player.name for s in t.seats.order_by("position")]


def play_round(rnd, racks_for=lambda table, game: ["", "R1", "R2", "R3"]):
    for table in rnd.tables.all():
        size = table.seats.count()
        for game in table.games.all():
            racks = racks_for(table, game)[:size]
            services.result_record_score_sheet(game=game, racks=racks, actor="official")


def test_round_is_n_games_for_n_players_first_rotating(make_tournament):
    t = make_tournament(8, rounds=2)
    rnd = services.round_seat(tournament=t, seed="night-1")
    assert rnd.seed == "night-1" and rnd.status == Round.Status.SEATED
    assert [tb.seats.count() for tb in rnd.tables.all()] == [4, 4]
    assert [g.first for g in games_of(rnd)] == [0, 1, 2, 3]
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING


def test_seed_001_score_sheets_give_the_sample_table(make_tournament):
    t = make_tournament(4, rounds=1)
    rnd = services.round_seat(tournament=t, seed="s")
    names = seat_names(rnd)
    for game, racks in zip(games_of(rnd), SEED_001_RACKS):
        services.result_record_score_sheet(game=game, racks=racks, actor="official")
    rows = selectors.tournament_standings(t)
    players = selectors.players_by_id(r.player for r in rows)
    points = {players[r.player].name: r.metrics["points"] for r in rows}
    assert [points[n] for n in names] == [-14, -29, 4, 39]
    assert players[rows[0].player].name == names[3]     # D: one win, +39
    scores = [r.scores for r in Result.objects.order_by("game__number")]
    assert scores == [[24, -5, -16, -3], [-6, -11, 22, -5], [-32, -13, -2, 47]]


def test_joker_value_is_the_rule_sets(make_tournament):
    t30 = make_tournament(4, rounds=1, name="thirty")
    t25 = make_tournament(4, rounds=1, name="twenty-five", rules={"joker_penalty": 25})
    for t in (t30, t25):
        rnd = services.round_seat(tournament=t, seed="j")
        services.result_record_score_sheet(game=games_of(rnd)[0],
                                           racks=["", "J", "R1", "R2"])
    r30 = Result.objects.get(game__table__round__tournament=t30)
    r25 = Result.objects.get(game__table__round__tournament=t25)
    assert r30.scores == [33, -30, -1, -2]
    assert r25.scores == [28, -25, -1, -2]
    assert r25.event.payload["joker_value"] == 25


@pytest.mark.parametrize("racks,message", [
    (["", "R5", "X9", "B3"], "seat 3: unknown tile 'X9'"),
    (["", "R5", "B3"], "expected 4 racks"),
    (["", "", "R1", "B3"], "only one player can go out"),
    (["", "R5 R5 R5", "K1", "B3"], "3 copies of R5"),
    (["", "J J J", "K1", "B3"], "3 copies of J"),
])
def test_bad_score_sheets_are_refused_with_a_clear_message(make_tournament, racks, message):
    t = make_tournament(4, rounds=1)
    rnd = services.round_seat(tournament=t, seed="b")
    with pytest.raises(LeagueError, match=message.replace("(", r"\(")):
        services.result_record_score_sheet(game=games_of(rnd)[0], racks=racks)
    assert not ResultEvent.objects.exists() and not Result.objects.exists()


def test_scores_are_zero_sum_including_the_pool_empty_end(make_tournament):
    t = make_tournament(4, rounds=1)
    rnd = services.round_seat(tournament=t, seed="z")
    game = games_of(rnd)[0]
    # Nobody went out: the lowest rack (3) wins, the others pay the difference.
    res = services.result_record_score_sheet(game=game, racks=["R3", "R5", "K10", "J"])
    assert res.scores == [2 + 7 + 27, -2, -7, -27]
    assert sum(res.scores) == 0 and res.winners == [0]
    assert res.event.payload["ending"] == "pool-empty"


def test_a_correction_supersedes_and_one_result_stays_confirmed(make_tournament):
    t = make_tournament(4, rounds=1)
    rnd = services.round_seat(tournament=t, seed="c")
    game = games_of(rnd)[0]
    services.result_record_score_sheet(game=game, racks=["", "R5", "R6", "R7"])
    with pytest.raises(LeagueError, match="already has a result"):
        services.result_record_score_sheet(game=game, racks=["", "R5", "R6", "R8"])
    fixed = services.result_record_score_sheet(game=game, racks=["", "R5", "R6", "R8"],
                                               correction=True)
    events = list(ResultEvent.objects.filter(game=game).order_by("version"))
    assert [(e.version, e.type) for e in events] == [(1, "ResultRecorded"),
                                                     (2, "ResultCorrected")]
    assert events[1].payload["supersedes"] == 1
    assert [r.status for r in Result.objects.filter(game=game).order_by("id")] == [
        "superseded", "confirmed"]
    assert fixed.scores == [19, -5, -6, -8]
    # The database itself refuses a second confirmed result for the game.
    stray = ResultEvent.objects.create(game=game, version=3, type="ResultCorrected",
                                       payload={"scores": [0, 0, 0, 0]})
    with pytest.raises(IntegrityError, match="result_one_confirmed_per_game|UNIQUE"), \
            transaction.atomic():
        Result.objects.create(game=game, event=stray, status="confirmed",
                              source="score_sheet", scores=[0, 0, 0, 0], winners=[0])


def test_correction_without_a_result_is_refused(make_tournament):
    t = make_tournament(4, rounds=1)
    rnd = services.round_seat(tournament=t, seed="c")
    with pytest.raises(LeagueError, match="no result to correct"):
        services.result_record_score_sheet(game=games_of(rnd)[0], racks=["", "R1", "R2", "R3"],
                                           correction=True)


def test_result_events_are_append_only(make_tournament):
    t = make_tournament(4, rounds=1)
    rnd = services.round_seat(tournament=t, seed="a")
    services.result_record_score_sheet(game=games_of(rnd)[0], racks=["", "R1", "R2", "R3"])
    event = ResultEvent.objects.get()
    event.payload = {"scores": [99, 0, 0, 0]}
    with pytest.raises(AppendOnlyError):
        event.save()
    with pytest.raises(AppendOnlyError):
        event.delete()
    with pytest.raises(AppendOnlyError):
        ResultEvent.objects.all().update(type="x")


def test_round_closes_only_when_every_game_has_a_result(make_tournament):
    t = make_tournament(8, rounds=2)
    rnd = services.round_seat(tournament=t, seed="r1")
    with pytest.raises(LeagueError, match="round 2 cannot|round 1 is not closed"):
        services.round_seat(tournament=t)
    services.result_record_score_sheet(game=games_of(rnd)[0], racks=["", "R1", "R2", "R3"])
    with pytest.raises(LeagueError, match=r"round 1 cannot close: 7 games have no result"):
        services.round_close(round=rnd)
    for table in rnd.tables.all():
        for game in table.games.exclude(results__status="confirmed"):
            services.result_record_score_sheet(game=game, racks=["", "R1", "R2", "R3"])
    services.round_close(round=rnd)
    assert services.round_close(round=rnd).status == Round.Status.CLOSED  # twice: same
    rnd2 = services.round_seat(tournament=t, seed="r2")
    play_round(rnd2)
    services.round_close(round=rnd2)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    with pytest.raises(LeagueError, match="all 2 rounds are already seated"):
        services.round_seat(tournament=t)


def test_later_rounds_avoid_repeat_table_mates(make_tournament):
    t = make_tournament(16, rounds=3, seating_method="standings")
    for k in range(3):
        rnd = services.round_seat(tournament=t, seed=f"k{k}")
        assert rnd.repeat_mates == 0
        play_round(rnd)
        services.round_close(round=rnd)
    pairs = {}
    for rnd in t.round_set.all():
        for table in rnd.tables.all():
            ids = [s.entry.player_id for s in table.seats.all()]
            for i, a in enumerate(ids):
                for b in ids[i + 1:]:
                    pairs[frozenset((a, b))] = pairs.get(frozenset((a, b)), 0) + 1
    assert max(pairs.values()) == 1


def test_mixed_table_sizes_and_ai_fill(make_tournament):
    mixed = make_tournament(10, rounds=1, name="mixed")
    rnd = services.round_seat(tournament=mixed, seed="m")
    assert sorted(tb.seats.count() for tb in rnd.tables.all()) == [3, 3, 4]
    for table in rnd.tables.all():  # N players: N games, first seat rotating
        assert [g.first for g in table.games.all()] == list(range(table.seats.count()))
    ai = make_tournament(10, rounds=1, name="with ai", ai_fill=True, ai_level="random")
    rnd = services.round_seat(tournament=ai, seed="m")
    assert [tb.seats.count() for tb in rnd.tables.all()] == [4, 4, 4]
    assert rnd.tables.filter(seats__entry__isnull=True).count() == 2


def test_too_few_players_named(make_tournament):
    t = make_tournament(2, rounds=1)
    with pytest.raises(LeagueError, match="round 1: 2 player"):
        services.round_seat(tournament=t)


def test_late_arrival_and_withdrawal(make_tournament):
    t = make_tournament(8, rounds=3)
    late = Player.objects.create(name="Late", club=None)
    rnd1 = services.round_seat(tournament=t, seed="l1")
    entry = services.tournament_enter(tournament=t, player=late)
    services.entry_check_in(entry=entry)
    entry.refresh_from_db()
    assert entry.from_round == 2
    assert not rnd1.tables.filter(seats__entry=entry).exists()
    play_round(rnd1)
    services.round_close(round=rnd1)
    gone = t.entries.get(player__name="P01")
    services.entry_withdraw(entry=gone)
    with pytest.raises(LeagueError, match="already withdrew after round 1"):
        services.entry_withdraw(entry=gone)
    rnd2 = services.round_seat(tournament=t, seed="l2")
    seated = set(rnd2.tables.values_list("seats__entry__player__name", flat=True))
    assert "Late" in seated and "P01" not in seated
    # P01's round-1 results still count.
    rows = {r.player: r for r in selectors.tournament_standings(t)}
    assert rows[gone.player_id].record.played == 4


def test_standings_equal_a_rebuild_from_events(make_tournament):
    t = make_tournament(12, rounds=2, tiebreaks=["wins", "points", "h2h", "penalty", "best"])
    racks = ["", "R5 J", "K10 O6", "B3"]

    def rotating(table, game):
        k = (game.number + table.number) % 4
        return racks[k:] + racks[:k]

    for k in range(2):
        rnd = services.round_seat(tournament=t, seed=f"e{k}")
        play_round(rnd, rotating)
        services.round_close(round=rnd)
    # A correction too: the rebuild must take the last event of each game.
    game = TableGame.objects.filter(table__round__tournament=t).first()
    services.result_record_score_sheet(game=game, racks=["K1", "", "K2", "K3"],
                                       correction=True)

    def snapshot(rows):
        return [(r.player, r.rank, r.tied, r.metrics) for r in rows]

    live = snapshot(selectors.tournament_standings(t))
    folded = snapshot(selectors.tournament_standings(t, from_events=True))
    assert live == folded
    for k in (1, 2):
        assert (snapshot(selectors.tournament_standings(t, rounds=[k]))
                == snapshot(selectors.tournament_standings(t, rounds=[k], from_events=True)))
    applied = services.results_rebuild(tournament=t)
    # 2 rounds x 3 tables x 4 games, plus the correction.
    assert applied == ResultEvent.objects.count() == 2 * 3 * 4 + 1
    assert snapshot(selectors.tournament_standings(t)) == live
    assert Result.objects.filter(status="confirmed").count() == 2 * 3 * 4


def test_unknown_tiebreak_refused(make_tournament):
    t = make_tournament(4, rounds=1)
    with pytest.raises(LeagueError, match="unknown tie-break.*coin"):
        services.tournament_set_tiebreaks(tournament=t, keys=["wins", "coin"])
    services.tournament_set_tiebreaks(tournament=t, keys=["wins", "penalty"])
    assert Tournament.objects.get(pk=t.pk).precedence == ["wins", "penalty"]


def test_ratings_across_events(make_tournament):
    t = make_tournament(4, rounds=1)
    rnd = services.round_seat(tournament=t, seed="x")
    names = seat_names(rnd)
    for game in games_of(rnd):
        services.result_record_score_sheet(game=game, racks=["", "R5", "R9", "K13"])
    ratings = selectors.player_ratings()
    by_name = {Player.objects.get(pk=p).name: r for p, r in ratings.items()}
    assert by_name[names[0]].ordinal > by_name[names[1]].ordinal > by_name[names[3]].ordinal
    assert by_name[names[0]].games == 4


def test_contract_rummy_round_is_one_game_and_fewer_points_win(make_tournament):
    from games.models import Game as Stream

    t = make_tournament(4, rounds=1, family="contract", variant="contract")
    rnd = services.round_seat(tournament=t, seed="c")
    game = TableGame.objects.get(table__round=rnd)  # one game of seven hands
    with pytest.raises(LeagueError, match="score sheets take Rummikub racks"):
        services.result_record_score_sheet(game=game, racks=["", "", "", ""])
    # A finished stream as the games app leaves it (penalty totals).
    game.stream = Stream.objects.create(family="contract", variant="contract", players=4,
                                        status="finished", version=300,
                                        scores=[10, 0, 45, 30])
    game.save()
    result = services.result_record_from_stream(game=game)
    assert result.scores == [-10, 0, -45, -30] and result.winners == [1]
    rows = selectors.tournament_standings(t)
    assert rows[0].metrics["points"] == 0 and rows[0].metrics["wins"] == 1


def test_stream_result_needs_a_finished_stream(make_tournament):
    t = make_tournament(4, rounds=1)
    rnd = services.round_seat(tournament=t, seed="s")
    game = games_of(rnd)[0]
    with pytest.raises(LeagueError, match="not played through the system"):
        services.result_record_from_stream(game=game)
    services.table_game_open_stream(game=game, all_ai=True)
    game.refresh_from_db()
    assert game.stream.seats.filter(kind="ai").count() == 4
    with pytest.raises(LeagueError, match="still being played"):
        services.result_record_from_stream(game=game)
    result = services.table_game_play_ai(game=game)
    assert sum(result.scores) == 0 and result.source == "moves"
    # Recording the same finished stream again (a task run twice) changes nothing.
    assert services.result_record_from_stream(game=game).pk == result.pk
    assert ResultEvent.objects.filter(game=game).count() == 1
    assert result.event.payload["stream_version"] == game.stream.version


def test_the_ai_does_not_play_a_persons_seat(make_tournament):
    t = make_tournament(4, rounds=1)
    game = games_of(services.round_seat(tournament=t, seed="p"))[0]
    with pytest.raises(LeagueError, match="has no game stream: open it first"):
        services.table_game_play_ai(game=game)
    game = services.table_game_open_stream(game=game)  # four people, no AI seat
    with pytest.raises(LeagueError, match=r"cannot be played to the end by the AI seats: "
                                          r"a person is to move \(game #\d+, version 1\)"):
        services.table_game_play_ai(game=game)
    assert game.stream.events.count() == 1 and not game.results.exists()


def test_rebuild_command_reports_a_stale_projection(make_tournament, capsys):
    from django.core.management import CommandError, call_command

    t = make_tournament(4, rounds=1, name="Rebuild me")
    rnd = services.round_seat(tournament=t, seed="rb")
    play_round(rnd)
    call_command("rebuild_results", tournament=t.slug)
    assert ("rebuild-me: 4 result events replayed; standings unchanged"
            in capsys.readouterr().out)
    # Tamper with the projection (not the events): the rebuild repairs it.
    Result.objects.filter(game__table__round=rnd).update(scores=[9, -3, -3, -3])
    with pytest.raises(CommandError, match="1 tournament"):
        call_command("rebuild_results")
    assert "rebuild-me: 4 result events replayed; standings CHANGED" in capsys.readouterr().out
    call_command("rebuild_results")
    assert "standings unchanged" in capsys.readouterr().out
