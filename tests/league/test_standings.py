"""Standings: a pure algorithm, no database."""

import os
import re
from pathlib import Path

import pytest

from league.ratings import compute_ratings
from league.standings import (METRICS, GameResult, StandingsError,
                              compute_standings, places_by_round, round_totals)

# The rule sources sit in shared/ beside the repository (as in CI's checkout).
SEEDS = Path(os.environ.get("TABLEKEEPER_SEEDS",
                            Path(__file__).resolve().parents[2].parent / "shared" / "seeds"))


def seed_001_table():
    """The sample score table of seed 001, read from the rule source."""
    files = sorted(SEEDS.glob("001_*.txt"))
    if not files:
        message = f"seed 001 not found under {SEEDS} (set TABLEKEEPER_SEEDS)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    text = files[0].read_text()
    rows = {}
    for line in text.splitlines():
        m = re.match(r"(Game \d|Total Round's)\t(.*)", line)
        if m:
            cells = [c.replace(" ", "") for c in m.group(2).split("\t") if c.strip()]
            # The source has a stray "1" cell after Player B's column.
            numbers = [int(c) for c in cells if c[0] in "+-"]
            rows[m.group(1)] = numbers
    return rows


def test_seed_001_sample_score_table():
    rows = seed_001_table()
    games = [GameResult(game=i, round=1, scores=dict(zip("ABCD", rows[f"Game {i}"])))
             for i in (1, 2, 3)]
    for g in games:
        assert sum(g.scores.values()) == 0  # zero-sum, as the source checks
    table = compute_standings(games)
    points = {row.player: row.metrics["points"] for row in table}
    assert points == dict(zip("ABCD", rows["Total Round's"]))
    assert points == {"A": -14, "B": -29, "C": 4, "D": 39}
    # One win each for A, C and D: games won tie, points decide.
    assert [(r.player, r.rank, r.metrics["wins"]) for r in table] == [
        ("D", 1, 1), ("C", 2, 1), ("A", 3, 1), ("B", 4, 0)]
    assert not any(r.tied for r in table)


def g(n, rnd, **scores):
    return GameResult(game=n, round=rnd, scores=scores)


def test_games_won_come_before_points():
    games = [g(1, 1, A=10, B=-10), g(2, 1, A=5, B=-5), g(3, 1, B=100, A=-100)]
    table = compute_standings(games)
    assert [r.player for r in table] == ["A", "B"]
    assert table[0].metrics == {"wins": 2, "points": -85, "h2h": None,
                                 "penalty": 100}


def test_remaining_ties_are_shown_as_ties():
    games = [g(1, 1, A=10, B=-10, C=0, D=0), g(2, 1, B=10, A=-10, C=0, D=0)]
    table = compute_standings(games, precedence=["wins", "points"])
    labels = {r.player: r.rank_label for r in table}
    # A and B: one win each and 0 points; C and D: no win, 0 points.
    assert labels == {"A": "1=", "B": "1=", "C": "3=", "D": "3="}


def test_head_to_head_breaks_a_tie_within_the_tied_group_only():
    games = [
        g(1, 1, A=10, B=-4, C=-6),        # A outscores B and C
        g(2, 1, B=6, D=-6),
        g(3, 1, C=20, D=-20),
        g(4, 1, D=30, C=-30),
    ]
    # Wins: one each. Points: A 10, B 2, C -16, D 4 -> no tie at all.
    # Make A and B level on wins and points, C and D too:
    games[1] = g(2, 1, B=12, D=-12)
    games[3] = g(4, 1, D=20, C=-20)
    # A: W1 10; B: W1 8 ... adjust B's loss in game 1 so both reach 10.
    games[0] = g(1, 1, A=10, B=-2, C=-8)
    no_h2h = compute_standings(games, precedence=["wins", "points"])
    labels = {r.player: r.rank_label for r in no_h2h}
    assert labels["A"] == labels["B"] == "1="
    table = compute_standings(games, precedence=["wins", "points", "h2h"])
    # A outscored B in the only game they shared.
    assert [r.player for r in table][:2] == ["A", "B"]
    assert table[0].metrics["h2h"] == 1 and table[1].metrics["h2h"] == 0
    assert not table[0].tied and not table[1].tied


def test_head_to_head_level_falls_through_to_the_next_tiebreak():
    games = [g(1, 1, A=5, B=-5), g(2, 1, B=9, A=-9), g(3, 1, A=4, C=-4),
             g(4, 1, B=3, D=-3)]
    # Wins: A 2, B 2. A beat B once, B beat A once: head-to-head level.
    table = compute_standings(games, precedence=["wins", "h2h", "penalty"])
    assert {r.player for r in table[:2]} == {"A", "B"}
    assert table[0].metrics["h2h"] == table[1].metrics["h2h"] == 1
    # Fewest penalty points decides: A lost 9, B lost 5.
    assert [r.player for r in table[:2]] == ["B", "A"]


def test_fewest_penalty_points():
    games = [g(1, 1, A=30, B=-10, C=-20), g(2, 1, B=30, A=-25, C=-5),
             g(3, 1, C=25, A=0, B=-25)]
    # Everyone one win; points A 5, B -5, C 0; penalty A 25, B 35, C 25.
    table = compute_standings(games, precedence=["wins", "penalty", "points"])
    assert [(r.player, r.metrics["penalty"]) for r in table] == [
        ("A", 25), ("C", 25), ("B", 35)]
    assert [r.rank_label for r in table] == ["1", "2", "3"]
    assert METRICS["penalty"].ascending is True


@pytest.mark.parametrize("key", sorted(METRICS))
def test_every_metric_orders_in_its_direction(key):
    # Two players, identical except on what each metric reads: X does better.
    games = [g(1, 1, X=20, Z=-20), g(2, 1, Y=10, Z=-10),
             g(3, 1, X=-1, Y=-2, Z=3), g(4, 1, X=1, Y=-1)]
    table = compute_standings(games, precedence=[key])
    metric = METRICS[key]
    assert metric.name and metric.abbr
    vals = [r.metrics[key] for r in table]
    assert vals == sorted(vals, reverse=not metric.ascending)


def test_opponent_wins_counts_each_shared_game():
    games = [g(1, 1, A=5, B=-5), g(2, 1, B=5, C=-5), g(3, 1, B=5, A=-5)]
    table = {r.player: r.metrics for r in compute_standings(
        games, precedence=["opp_wins"])}
    # A met B twice (B has 2 wins); C met B once.
    assert table["A"]["opp_wins"] == 4
    assert table["C"]["opp_wins"] == 2
    assert table["B"]["opp_wins"] == 1 + 0 + 1


def test_unknown_tiebreak_is_named():
    with pytest.raises(StandingsError, match="unknown tie-break.*coin_toss"):
        compute_standings([], precedence=["wins", "coin_toss"])
    with pytest.raises(StandingsError, match="listed twice"):
        compute_standings([], precedence=["wins", "wins"])


def test_per_round_and_cumulative():
    games = [g(1, 1, A=10, B=-10), g(2, 2, B=30, A=-30), g(3, 2, B=1, A=-1)]
    r1 = compute_standings(games, rounds=[1])
    r2 = compute_standings(games, rounds=[2])
    both = compute_standings(games, rounds=[1, 2])
    assert r1[0].player == "A" and r2[0].player == "B" and both[0].player == "B"
    assert round_totals(games) == {1: {"A": 10, "B": -10}, 2: {"A": -31, "B": 31}}
    assert places_by_round(games) == {1: {"A": 1, "B": 2}, 2: {"B": 1, "A": 2}}


def test_players_without_games_are_listed_after_the_ranked_unranked():
    # A late arrival with no game yet has 0 points, but is never placed
    # above a player who lost: listed last, without a rank.
    table = compute_standings([g(1, 1, A=1, B=-1)], players=["A", "B", "Late"])
    assert [(r.player, r.record.played, r.rank, r.rank_label) for r in table] == [
        ("A", 1, 1, "1"), ("B", 1, 2, "2"), ("Late", 0, None, "–")]


def test_explicit_winners_for_a_pool_empty_end():
    # The pool-empty end: lowest rack wins; the engine names the winner.
    game = GameResult(game=1, round=1, scores={"A": 7, "B": -3, "C": -4},
                      winners={"A"})
    assert game.winners == {"A"}
    with pytest.raises(StandingsError, match="have no score"):
        GameResult(game=2, round=1, scores={"A": 0}, winners={"Q"})


def test_ratings_follow_results():
    games = [GameResult(game=i, round=1, order=(i,),
                        scores={"strong": 30, "mid": -10, "weak": -20})
             for i in range(10)]
    ratings = compute_ratings(games)
    assert ratings["strong"].ordinal > ratings["mid"].ordinal > ratings["weak"].ordinal
    assert ratings["strong"].games == 10
    assert ratings["strong"].sigma < 25 / 3
