"""Contract rummy tournaments in the league: a game is seven hands; score
sheets of games played at a real table (each player's cards left per hand)
scored by the engine; standings by games won, then fewest points."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from engine.cards import parse_cards
from engine.contract import score_hands
from engine.contract.ai import play_game
from engine.errors import RecordError
from engine.registry import find_variant
from league import selectors, services
from league.models import Result, ResultEvent, TableGame
from engine.family import SheetError as ScoreSheetError
from engine.registry import family_for


def contract_score_sheet(hands, *, seats, variant="contract", rules=None):
    """The contract family's reading of a hands sheet, its payload's keys as
    attributes (``totals``: the game's points, fewer is better)."""
    read = family_for("contract").read_sheet({"hands": hands}, seats=seats, variant=variant, rules=rules)
    return SimpleNamespace(**read, totals=read["raw_scores"])
from league.services import LeagueError

# Cards left per hand (rows) and seat (columns) of a four-player game.
SHEET = [
    ["", "3C 4D", "KS", "AH JK"],          # 0 10 10 35   (seat 1 out)
    ["5H", "", "2S 2D", "TC"],              # 5 0 40 10    (twos wild: 20 each)
    ["", "9C", "9D", "QH QS"],              # 0 5 5 20
    ["AS", "KD", "", "3H"],                 # 15 10 0 5
    ["", "JK", "4C 5C 6C", "7D"],           # 0 20 15 5
    ["8S", "", "TD", "TH"],                 # 5 0 10 10
    ["", "AC AD", "JC", "5S"],              # 0 30 10 5
]
TOTALS = [25, 75, 90, 90]


@pytest.fixture
def contract_tournament(make_tournament):
    def make(n=4, rounds=1, variant="contract", **fields):
        return make_tournament(n, rounds=rounds, family="contract", variant=variant,
                               table_size=n, **fields)
    return make


def only_game(rnd) -> TableGame:
    games = list(TableGame.objects.filter(table__round=rnd))
    assert len(games) == 1  # one game of seven hands per table and round
    return games[0]


# --- the engine's scoring ---------------------------------------------------------

@pytest.mark.parametrize("variant, players", [("contract", 3), ("international", 4)])
def test_score_hands_is_the_engines_own_scoring_of_a_played_game(variant, players):
    game = find_variant(variant).new(players, seed=f"sheet-{variant}")
    play_game(game)
    left = [[parse_cards(cards) for cards in r["cards"]] for r in game.results]
    points = score_hands(left, game.rules, players=players)
    assert points == [r["points"] for r in game.results]
    assert [sum(col) for col in zip(*points)] == game.scores()


def test_score_hands_values_follow_the_profile():
    three = find_variant("contract").rules_from_dict({})
    intl = find_variant("international").rules_from_dict({})
    hand = [parse_cards("2H 3C TD AS JK"), [], parse_cards("KC")]
    assert score_hands([hand] * 7, three)[0] == [20 + 5 + 10 + 15 + 20, 0, 10]
    assert score_hands([hand] * 7, intl)[0] == [5 + 5 + 10 + 15 + 20, 0, 10]


def test_score_hands_refuses_impossible_sheets():
    rules = find_variant("contract").rules_from_dict({})
    ok = [parse_cards("3C"), [], parse_cards("4C")]
    with pytest.raises(RecordError, match="7 hands; the sheet gives 6"):
        score_hands([ok] * 6, rules)
    with pytest.raises(RecordError, match="hand 3 .*2 lines for 3 players"):
        score_hands([ok, ok, ok[:2], ok, ok, ok, ok], rules)
    with pytest.raises(RecordError, match="hand 1: seats 1, 2 have no cards"):
        score_hands([[parse_cards("3C"), [], []]] + [ok] * 6, rules)
    with pytest.raises(RecordError, match=r"pack of 3 decks holds \(JK x7\)"):
        score_hands([[parse_cards("JK " * 7), [], parse_cards("4C")]] + [ok] * 6, rules)


# --- score sheets -----------------------------------------------------------------

def test_a_contract_sheet_is_scored_per_hand_and_fewest_points_win():
    sheet = contract_score_sheet(SHEET, seats=4)
    assert sheet.points[0] == [0, 10, 10, 35] and sheet.points[1] == [5, 0, 40, 10]
    assert sheet.totals == TOTALS and sheet.scores == [-t for t in TOTALS]
    assert sheet.winners == [0]
    assert sheet.hands[0][3] == "AH JK"   # canonical, sorted
    tied = contract_score_sheet([["3C", "", "4C"], ["3D", "4D", ""]] + [["", "5C", "5D"]] * 5, seats=3)
    assert tied.totals == [10, 30, 30] and tied.winners == [0]
    both = contract_score_sheet([["KC", "", "QC"], ["", "TD", "JD"], ["", "5C", "5D"], ["", "5C", "5D"],
                                 ["", "5C", "5D"], ["", "5C", "5D"], ["KH KS", "", "3S"]], seats=3)
    assert both.totals == [30, 30, 45] and both.winners == [0, 1]  # a tie: both win


@pytest.mark.parametrize("mutate, words", [
    (lambda s: s[:6], "a contract game is 7 hands"),
    (lambda s: [s[0][:3]] + s[1:], "hand 1 (two sets): expected 4 entries"),
    (lambda s: [["", "3C", "X5", ""]] + s[1:], "hand 1, seat 3: 'X5' is not a card"),
    (lambda s: s[:2] + [["", "", "9D", "QH"]] + s[3:], "hand 3: seats 1, 2 all have no cards"),
    (lambda s: s[:4] + [["", "JK JK JK JK JK JK JK", "4C", "7D"]] + s[5:], "JK x7"),
    (lambda s: "3C 4D", "a contract game is 7 hands"),
])
def test_bad_contract_sheets_are_refused_by_name(mutate, words):
    with pytest.raises(ScoreSheetError, match=re.escape(words)):
        contract_score_sheet(mutate([list(row) for row in SHEET]), seats=4)


def test_a_rummikub_variant_takes_no_contract_sheet():
    with pytest.raises(ScoreSheetError, match="(?i)sabra is not a contract rummy variant"):
        contract_score_sheet(SHEET, seats=4, variant="sabra")


def test_international_rules_and_options_score_the_sheet():
    # natural twos count five in the international profile; options apply
    sheet = contract_score_sheet(SHEET, seats=4, variant="international")
    assert sheet.points[1] == [5, 0, 10, 10]
    cheap = contract_score_sheet(SHEET, seats=4, variant="international",
                                 rules={"point_ace": 1})
    assert cheap.points[0][3] == 1 + 20
    with pytest.raises(ScoreSheetError, match="rule options refused"):
        contract_score_sheet(SHEET, seats=4, variant="international", rules={"aces": "sideways"})


# --- the league -------------------------------------------------------------------

def test_a_sheet_records_a_result_and_a_correction(contract_tournament):
    t = contract_tournament()
    game = only_game(services.round_seat(tournament=t, seed="c"))
    with pytest.raises(LeagueError, match="contract rummy sheet gives the cards"):
        services.result_record_score_sheet(game=game, racks=["", "", "", ""])
    with pytest.raises(LeagueError, match="hand 1, seat 3: 'X5' is not a card"):
        services.result_record_score_sheet(game=game, hands=[["", "3C", "X5", ""]] + SHEET[1:])
    result = services.result_record_score_sheet(game=game, hands=SHEET, actor="official")
    assert result.scores == [-25, -75, -90, -90] and result.winners == [0]
    event = result.event
    assert event.payload["raw_scores"] == TOTALS and event.payload["points"][0] == [0, 10, 10, 35]
    assert event.payload["hands"][0] == SHEET[0]
    with pytest.raises(LeagueError, match="already has a result"):
        services.result_record_score_sheet(game=game, hands=SHEET)
    fixed = [list(r) for r in SHEET]
    fixed[6] = ["AC AD", "", "JC", "5S"]      # seat 2 went out in hand 7, not seat 1
    corrected = services.result_record_score_sheet(game=game, hands=fixed, correction=True)
    assert corrected.scores == [-55, -45, -90, -90] and corrected.winners == [1]
    assert ResultEvent.objects.filter(game=game).count() == 2
    assert Result.objects.get(game=game, status="confirmed").pk == corrected.pk


def test_rummikub_sheets_take_no_hands(make_tournament):
    t = make_tournament(4, rounds=1)
    game = TableGame.objects.filter(table__round=services.round_seat(tournament=t, seed="r")).first()
    with pytest.raises(LeagueError, match="gives the racks, not hands"):
        services.result_record_score_sheet(game=game, hands=SHEET)


def _play_round(t, seed, sheet_for):
    rnd = services.round_seat(tournament=t, seed=seed)
    for table in rnd.tables.all():
        game = only_game_of(table)
        names = [s.entry.player.name for s in table.seats.select_related("entry__player")
                 .order_by("position")]
        services.result_record_score_sheet(game=game, hands=sheet_for(names))
    services.round_close(round=rnd)
    return rnd


def only_game_of(table) -> TableGame:
    games = list(table.games.all())
    assert len(games) == 1
    return games[0]


def _sheet(left_by_name: dict[str, list[str]]):
    """A sheet from the cards left by player name (seven texts each)."""
    def make(names):
        return [[left_by_name[n][h] for n in names] for h in range(7)]
    return make


def test_standings_rank_games_won_then_fewest_points(contract_tournament, client):
    t = contract_tournament(n=3, rounds=2)
    t.tiebreaks = selectors.default_precedence("contract")
    t.save()
    assert t.precedence == ["wins", "penalty", "h2h"]
    # round 1: P01 10 points (wins), P02 25, P03 35
    r1 = {"P01": ["", "", "", "3D", "", "", "4D"],
          "P02": ["3C", "4C", "5C", "", "6C", "7C", ""],
          "P03": ["3S", "4S", "5S", "6S", "7S", "8S", "9S"]}
    _play_round(t, "c1", _sheet(r1))
    rows = selectors.tournament_standings(t)
    assert [name(r) for r in rows] == ["P01", "P02", "P03"]
    assert [(r.metrics["wins"], r.metrics["penalty"]) for r in rows] == [(1, 10), (0, 25), (0, 35)]
    # round 2: P01 70, P02 15 (wins), P03 25
    r2 = {"P01": ["AH", "AC", "KH", "KD", "QH", "JH", ""],
          "P02": ["", "", "3H", "", "4H", "", "5H"],
          "P03": ["3D", "4D", "", "5D", "", "6D", "7D"]}
    _play_round(t, "c2", _sheet(r2))
    rows = selectors.tournament_standings(t)
    # games won first: P03 has fewer points than P01 (60 < 80) but no win;
    # among one-win players the fewer points (P02, 40) rank higher
    assert [name(r) for r in rows] == ["P02", "P01", "P03"]
    assert [(r.metrics["wins"], r.metrics["penalty"]) for r in rows] == [(1, 40), (1, 80), (0, 60)]
    # the league's default precedence ranks the same (points are minus the game points)
    t.tiebreaks = []
    t.save()
    default = selectors.tournament_standings(t)
    assert [r.player for r in default] == [r.player for r in rows]
    assert [r.metrics["points"] for r in default] == [-40, -80, -60]
    # the public page shows the contract columns, fewer points marked better
    t.tiebreaks = selectors.default_precedence("contract")
    t.save()
    html = client.get(reverse("league:tournament", args=[t.slug])).content.decode()
    assert "fewest penalty points (fewer is better)" in html
    assert html.index("P02") < html.index("P01") < html.index("P03")


def name(row) -> str:
    return selectors.players_by_id([row.player])[row.player].name


def test_default_precedence_follows_the_family():
    assert selectors.default_precedence("contract") == ["wins", "penalty", "h2h"]
    assert selectors.default_precedence("rummikub") == []


@pytest.fixture
def official(client, db):
    user = get_user_model().objects.create_superuser("official", "o@example.invalid", "pw")
    client.force_login(user)
    return client


def test_admin_contract_sheet_form(official, contract_tournament):
    t = contract_tournament()
    game = only_game(services.round_seat(tournament=t, seed="adm"))
    url = reverse("admin:league_game_sheet", args=[game.pk])
    page = official.get(url).content.decode()
    assert "Hand 7 (three runs), seat 4" in page and "cards each player had left" in page
    data = {f"hand_{h + 1}_{s}": SHEET[h][s] for h in range(7) for s in range(4)}
    bad = official.post(url, {**data, "hand_2_1": "ZZ"}).content.decode()
    assert "hand 2, seat 2: &#x27;ZZ&#x27; is not a card" in bad
    assert not ResultEvent.objects.filter(game=game).exists()
    assert official.post(url, data).status_code == 302
    assert Result.objects.get(game=game, status="confirmed").scores == [-25, -75, -90, -90]
    # the correction form starts from the sheet in force
    assert 'value="AH JK"' in official.get(url).content.decode()


def test_admin_gives_a_new_contract_tournament_its_tiebreaks(official, db):
    from league.models import Tournament

    url = reverse("admin:league_tournament_add")
    base = {"name": "Contract night", "slug": "contract-night", "status": "draft", "family": "x",
            "variant": "contract-004", "rules": "{}", "rounds": 2, "table_size": 4,
            "seating_method": "random", "tiebreaks": "[]",
            "ai_level": "random", "entries-TOTAL_FORMS": 0, "entries-INITIAL_FORMS": 0}
    page = official.post(url, {**base, "ai_level": "grandmaster"}).content.decode()
    assert "international has the AI level(s) basic, expert, random, strong, not &#x27;grandmaster&#x27;" in page
    response = official.post(url, base)
    assert response.status_code == 302, response.content.decode()[:2000]
    t = Tournament.objects.get(slug="contract-night")
    assert (t.family, t.variant, t.tiebreaks) == ("contract", "international", ["wins", "penalty", "h2h"])
    assert t.ai_level == "random"   # contract rummy has a random level too
    response = official.post(url, {**base, "name": "Contract night 2", "slug": "contract-night-2",
                                   "ai_level": "standard"})
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Tournament.objects.get(name="Contract night 2").ai_level == "strong"   # the old name of strong


def test_a_contract_table_game_is_played_by_ai_seats_through_the_games_app(contract_tournament):
    from games.audit import audit_game
    from games.models import Event

    t = contract_tournament(n=3, variant="international", ai_level="standard")
    assert t.ai_level == "standard"   # a stored old name: the seats play "strong"
    game = only_game(services.round_seat(tournament=t, seed="ai"))
    game = services.table_game_open_stream(game=game, all_ai=True)
    stream = game.stream
    assert set(stream.seats.values_list("ai_level", flat=True)) == {"strong"}
    result = services.table_game_play_ai(game=game)
    stream.refresh_from_db()
    assert stream.status == "finished" and result.source == "moves"
    assert result.scores == [-s for s in stream.scores]
    assert result.winners == [i for i, s in enumerate(stream.scores) if s == min(stream.scores)]
    moves = Event.objects.filter(game=stream, type="MoveRecorded")
    assert moves.count() > 100 and {e.actor for e in moves} == {"ai:strong"}
    buys = [e for e in moves if e.payload["move"].split()[1:2] == ["buy"]]
    assert buys  # buys by seats off turn, each recorded for the buyer
    assert all(e.payload["seat"] == int(e.payload["move"].split()[0]) for e in buys)
    assert audit_game(stream).ok
    services.round_close(round=game.table.round)
    rows = selectors.tournament_standings(t)
    assert sum(r.metrics["wins"] for r in rows) == len(result.winners)
    assert sorted(r.metrics["penalty"] for r in rows) == sorted(stream.scores)
    # playing again returns the recorded result
    assert services.table_game_play_ai(game=game).pk == result.pk


def test_autoplay_plays_a_contract_tournament_with_ai_seats(contract_tournament):
    """The workers' path in the embedded default (eager tasks): rounds
    seated, games opened with AI seats moved by ``games.ai_move``, results
    recorded from the finished streams, rounds closed."""
    from games.audit import audit_game
    from league import handlers
    from league.models import Tournament

    t = contract_tournament(n=3, rounds=2, variant="international", ai_level="expert")
    handlers.tournament_autoplay_start(tournament=t)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    games = list(TableGame.objects.filter(table__round__tournament=t).select_related("stream"))
    assert len(games) == 2
    for game in games:
        assert game.stream.is_over and audit_game(game.stream).ok
        assert {e.actor for e in game.stream.events.filter(type="MoveRecorded")} == {"ai:expert"}
        result = game.results.get(status="confirmed")
        assert result.scores == [-s for s in game.stream.scores]
    rows = selectors.tournament_standings(t)
    assert sum(r.record.played for r in rows) == 6
