"""Public pages with two game families: the places-over-rounds chart on the
tournament page, club leaderboards, league tables and ratings per family,
the club chart's choice of tournament; and the chart module itself."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from django.urls import reverse

from league import selectors, services
from league.charts import Series, places_chart, places_series
from league.models import Club, League, Player, TableGame
from league.ratings import compute_ratings

SVG = "{http://www.w3.org/2000/svg}"
RACKS = ["", "R5", "K10 O6", "B3"]


def _rummikub_round(t, seed):
    rnd = services.round_seat(tournament=t, seed=seed)
    games = TableGame.objects.filter(table__round=rnd).order_by("table__number", "number")
    for k, game in enumerate(games):
        services.result_record_score_sheet(game=game, racks=RACKS[k % 4:] + RACKS[:k % 4])
    services.round_close(round=rnd)


def _contract_round(t, seed, out_seat):
    """Every hand the seat ``out_seat`` goes out; the others keep cards."""
    rnd = services.round_seat(tournament=t, seed=seed)
    for game in TableGame.objects.filter(table__round=rnd):
        left = ["3C", "4D 5D", "KS"]
        row = [left[i] for i in range(3)]
        row[out_seat] = ""
        services.result_record_score_sheet(game=game, hands=[row] * 7)
    services.round_close(round=rnd)


@pytest.fixture
def two_families(make_tournament):
    """P01-P04 (Test club) play a 2-round Rummikub night; P01-P03 then a
    2-round contract rummy event (created later, so the newest); an
    outsider of another club plays neither."""
    league = League.objects.create(name="Mixed season", slug="mixed-season")
    rummikub = make_tournament(4, rounds=2, name="Tile night", league=league)
    _rummikub_round(rummikub, "r1")
    _rummikub_round(rummikub, "r2")
    contract = make_tournament(3, rounds=2, name="Card night", family="contract",
                               variant="contract", table_size=3,
                               tiebreaks=selectors.default_precedence("contract"),
                               league=league)
    _contract_round(contract, "c1", 0)
    _contract_round(contract, "c2", 1)
    other = Club.objects.create(name="Other club", slug="other-club")
    Player.objects.create(name="Outsider", club=other)
    return rummikub, contract


def _names(ids):
    players = selectors.players_by_id(ids)
    return {players[i].name for i in ids}


def _section(html, ident):
    match = re.search(rf'<section[^>]*id="{ident}"[^>]*>(.*?)</section>', html, re.S)
    assert match, f"no section {ident}"
    return match.group(1)


def _standings_names(fragment):
    body = fragment.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return re.findall(r'<a href="/players/\d+/"[^>]*>([^<]+)</a>', body)


def _chart(html):
    svg = re.search(r"<svg.*?</svg>", html, re.S)
    assert svg, "no chart"
    root = ET.fromstring(svg.group(0))
    return {g.get("data-label"): [(int(c.get("data-round")), int(c.get("data-place")))
                                   for c in g.iter(f"{SVG}circle")]
            for g in root.iter(f"{SVG}g") if g.get("class") == "series"}, root


# --- the tournament page's chart ---------------------------------------------------

@pytest.mark.parametrize("which", [0, 1])
def test_tournament_page_charts_every_player_once_per_round(client, two_families, which):
    t = two_families[which]
    html = client.get(reverse("league:tournament", args=[t.slug])).content.decode()
    assert "<h2>Places over rounds</h2>" in html
    lines, root = _chart(html)
    entrants = list(t.entries.values_list("player_id", flat=True))
    assert set(lines) == _names(entrants)                     # one line per player
    places = selectors.tournament_places(t)
    names = selectors.players_by_id(entrants)
    for pid in entrants:
        # one point per round: the cumulative place after that round
        assert lines[names[pid].name] == [(r, places[r][pid]) for r in (1, 2)]
    # the final points are the standings' ranks
    final = {names[r.player].name: r.rank for r in selectors.tournament_standings(t)}
    assert {label: pts[-1][1] for label, pts in lines.items()} == final
    # the legend lists every player, by final place
    legend = [e.text for g in root.iter(f"{SVG}g") if g.get("class") == "legend"
              for e in g.iter(f"{SVG}text")][1:]
    assert len(legend) == len(entrants)
    assert [int(text.split(".")[0]) for text in legend] == sorted(final.values())


def test_tournament_page_has_no_chart_before_any_result(client, make_tournament):
    t = make_tournament(4, rounds=2, name="Not yet")
    html = client.get(reverse("league:tournament", args=[t.slug])).content.decode()
    assert "<svg" not in html and "Places over rounds" not in html


# --- club, league and ratings per family ---------------------------------------------

def test_club_leaderboard_has_a_section_per_family_with_its_players(client, two_families):
    rummikub, contract = two_families
    club = rummikub.club
    html = client.get(reverse("league:club", args=[club.slug])).content.decode()
    tiles = _section(html, "board-rummikub")
    cards = _section(html, "board-contract")
    assert "Leaderboard: Rummikub" in tiles and "Leaderboard: Contract rummy" in cards
    assert html.index("board-rummikub") < html.index("board-contract")
    assert set(_standings_names(tiles)) == {"P01", "P02", "P03", "P04"}
    assert set(_standings_names(cards)) == {"P01", "P02", "P03"}
    # Each board ranks its own family's games: the same order as the
    # tournament of that family (the club's players are all its entrants).
    for t, fragment in ((rummikub, tiles), (contract, cards)):
        expected = [selectors.players_by_id([r.player])[r.player].name
                    for r in selectors.tournament_standings(t)]
        assert _standings_names(fragment) == expected
    # The contract board ranks by fewest penalty points, not mixed points.
    assert "Pen" in cards and ">Pts<" not in cards and ">Pts<" in tiles
    other = client.get(reverse("league:club", args=["other-club"])).content.decode()
    assert "No results for this club" in other and "<svg" not in other


def test_club_chart_defaults_to_rummikub_and_switches_by_link(client, two_families):
    rummikub, contract = two_families
    url = reverse("league:club", args=[rummikub.club.slug])
    html = client.get(url).content.decode()
    chart = _section(html, "chart")
    assert f'href="/t/{rummikub.slug}/">{rummikub.name}</a></h2>' in chart
    assert f'href="?chart={contract.slug}#chart"' in chart     # the other one is a link
    lines, _ = _chart(chart)
    assert set(lines) == {"P01", "P02", "P03", "P04"}
    html = client.get(url, {"chart": contract.slug}).content.decode()
    chart = _section(html, "chart")
    assert f'href="/t/{contract.slug}/">{contract.name}</a></h2>' in chart
    lines, _ = _chart(chart)
    assert set(lines) == {"P01", "P02", "P03"}
    assert all(len(points) == 2 for points in lines.values())
    # an unknown choice falls back to the default
    html = client.get(url, {"chart": "no-such"}).content.decode()
    assert f'href="/t/{rummikub.slug}/">{rummikub.name}</a></h2>' in _section(html, "chart")


def test_league_table_per_family(client, two_families):
    league = two_families[0].league
    html = client.get(reverse("league:league", args=[league.slug])).content.decode()
    assert "League table: Rummikub" in html and "League table: Contract rummy" in html
    assert set(_standings_names(_section(html, "board-rummikub"))) == {"P01", "P02", "P03", "P04"}
    assert set(_standings_names(_section(html, "board-contract"))) == {"P01", "P02", "P03"}


def test_ratings_page_rates_each_family_apart(client, two_families):
    html = client.get(reverse("league:ratings")).content.decode()
    for family, players, games in (("rummikub", 4, 8), ("contract", 3, 2)):
        section = _section(html, f"ratings-{family}")
        rows = re.findall(r"<tr><td>(\d+)</td><td><a href=\"/players/(\d+)/\">([^<]+)</a>"
                          r"</td><td>.*?</td><td>(-?\d+)</td>.*?<td>(\d+)</td></tr>", section)
        assert len(rows) == players
        expected = compute_ratings(g for g in selectors.all_results(family))
        for _, pid, _, shown, played in rows:
            assert int(shown) == expected[int(pid)].display   # this family's games only
            assert int(played) == games
        shown_order = [int(r[3]) for r in rows]
        assert shown_order == sorted(shown_order, reverse=True)
    assert "Outsider" not in html


def test_player_page_sums_each_family_apart(client, two_families):
    p01 = Player.objects.get(name="P01")
    html = client.get(reverse("league:player", args=[p01.pk])).content.decode()
    summary = html.split('<table class="summary">', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r"<tr><td>([^<]+)</td><td>(\d+)</td><td>(\d+)</td><td>([^<]+)</td>", summary)
    history = selectors.player_history(p01)
    by_family = {f: [h for h in history if h.tournament.family == f]
                 for f in ("rummikub", "contract")}
    assert rows[0][:3] == ("Rummikub", "8", str(sum(h.won for h in by_family["rummikub"])))
    assert rows[0][3] == f'{sum(h.score for h in by_family["rummikub"]):+d}'
    assert rows[1][:3] == ("Contract rummy", "2", str(sum(h.won for h in by_family["contract"])))
    assert rows[1][3] == f'{-sum(h.score for h in by_family["contract"])} in hand (fewer is better)'


# --- the chart module (pure) -----------------------------------------------------------

def test_places_series_orders_by_final_place_and_filters():
    places = {1: {"a": 2, "b": 1, "c": 3}, 2: {"a": 1, "b": 3, "c": 2}}
    labels = {"a": "Ann", "b": "Bo", "c": "Cy"}
    series = places_series(places, labels)
    assert [s.label for s in series] == ["Ann", "Cy", "Bo"]
    assert series[0].points == [(1, 2), (2, 1)]
    assert [s.label for s in places_series(places, labels, players={"b"})] == ["Bo"]
    assert [s.label for s in places_series(places, {"a": "Ann"})] == ["Ann"]
    with pytest.raises(ValueError, match="place 0 of 'a' is below 1"):
        places_series({1: {"a": 0}}, labels)


def test_places_chart_spreads_tied_lines_and_escapes_labels():
    svg = places_chart([Series("<b>", [(1, 1), (2, 1)]), Series("x & y", [(1, 1), (2, 2)])])
    root = ET.fromstring(svg)
    assert "<b>" not in svg and "&lt;b&gt;" in svg and "x &amp; y" in svg
    first = [c for g in root.iter(f"{SVG}g") if g.get("data-label") == "<b>"
             for c in g.iter(f"{SVG}circle")]
    second = [c for g in root.iter(f"{SVG}g") if g.get("data-label") == "x & y"
              for c in g.iter(f"{SVG}circle")]
    # both start in 1st place: drawn apart, not on top of each other
    assert first[0].get("cy") != second[0].get("cy")
    assert abs(float(first[0].get("cy")) - float(second[0].get("cy"))) < 10
    empty = places_chart([])
    assert "no rounds played yet" in empty and ET.fromstring(empty) is not None
