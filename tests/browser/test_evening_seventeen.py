"""The organiser's evening with 17 entrants, by clicks in Chromium, its
final standings checked against a table worked out by hand.

A Sabra tournament of 2 rounds ranked by games won per game played
(``win_rate``), made on the new-tournament form. The club's 16 are
imported from a CSV; Pia Sand never comes (not checked in), so round 1
seats 15 at tables of 4, 4, 4 and 3. Quinn Adler walks in once round 1 is
seated (the 17th entrant: a late arrival, from round 2); Nils Holm
withdraws after round 1; round 2 seats 15 - 1 + 1 = 15, again at tables of
4, 4, 4 and 3. The codes and the tables' links are read from the
organiser's print of each round; at every table one phone (390x844) enters
each game as the first seat's player and a second phone confirms it as the
second seat's, each with their own code. At round 1's table 2 the second
phone enters a different rack for game 1: the desk shows the two sheets side
by side with the differing rack marked, and the organiser accepts the first
entry from there.

The seating is the real seating's, from a seed fixed by the test instead of
a random one (``seventeen-1``, ``seventeen-2``: the only thing not done by
clicks), so the tables are known and the standings can be worked out by
hand; the test checks the seats it reads on the print against that layout
first. Every game is decided by seat: at a table of 4 the first seat goes
out in games 1 and 2, the second in game 3, the third in game 4; at a table
of 3 the first seat in games 1 and 2, the second in game 3. A loser keeps
one tile worth their seat number (R1, R2, R3, R4)."""

from __future__ import annotations

import pytest

from league import manager
from league.models import Entry, Round, SheetEntry, Tournament

from .test_evening_whole import ABSENT, PLAYERS, click_and_wait, enter_table, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LATE = "Quinn Adler"            # walks in while round 1 is played
GONE = "Nils Holm"              # withdraws after round 1
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}

#: who goes out in each game, by seat, at a table of 4 and of 3
OUT = {4: [0, 0, 1, 2], 3: [0, 0, 1]}

#: the seats read back from each round's print (seeds seventeen-1, -2)
ROUND_1 = {1: ["Nils Holm", "Ines Ruiz", "Fatma Kaya", "Oskar Lind"],
           2: ["Kemal Aydın", "Lena Vogel", "Hana Ito", "Mia Rossi"],
           3: ["Chen Wei", "Jan de Vries", "Göran Berg", "Emil Eder"],
           4: ["Boris Becker", "Dora Dorn", "Ada Lovelace"]}
ROUND_2 = {1: ["Quinn Adler", "Kemal Aydın", "Boris Becker", "Jan de Vries"],
           2: ["Ada Lovelace", "Chen Wei", "Mia Rossi", "Fatma Kaya"],
           3: ["Ines Ruiz", "Göran Berg", "Lena Vogel", "Dora Dorn"],
           4: ["Emil Eder", "Hana Ito", "Oskar Lind"]}

# By hand. A seat's round, (games, won, points, penalty), a loser paying
# its seat number, the winner taking what the others pay:
#   table of 4, seat 1: 2 won, 2x(2+3+4) - 1 - 1 = 16, penalty 1+1 = 2
#               seat 2: 1 won, (1+3+4) - 3x2 = 2, penalty 6
#               seat 3: 1 won, (1+2+4) - 3x3 = -2, penalty 9
#               seat 4: 0 won, -4x4 = -16, penalty 16
#   table of 3, seat 1: 2 won, 2x(2+3) - 1 = 9, penalty 1
#               seat 2: 1 won, (1+3) - 2x2 = 0, penalty 4
#               seat 3: 0 won, -3x3 = -9, penalty 9
# Each player's two rounds (4/1 = table of 4, seat 1), added up; W/G = won
# / games to 3 decimals:
#   Nils   4/1, withdrew          4 g, 2 w,  16, pen  2   2/4 = 0.5
#   Quinn  -, late: 4/1           4 g, 2 w,  16, pen  2   0.5
#   Boris  3/1 + 4/3              7 g, 3 w, 9-2 = 7, pen 1+9 = 10   3/7 = 0.429
#   Chen   4/1 + 4/2              8 g, 3 w, 16+2 = 18, pen 2+6 = 8  3/8 = 0.375
#   Ines   4/2 + 4/1, Kemal 4/1 + 4/2: the same as Chen
#   Ada    3/3 + 4/1              7 g, 2 w, -9+16 = 7, pen 9+2 = 11   2/7 = 0.286
#   Hana   4/3 + 3/2              7 g, 2 w, -2+0 = -2, pen 9+4 = 13   0.286
#   Emil   4/4 + 3/1              7 g, 2 w, -16+9 = -7, pen 16+1 = 17 0.286
#   Göran  4/3 + 4/2              8 g, 2 w, -2+2 = 0, pen 9+6 = 15    2/8 = 0.25
#   Lena   4/2 + 4/3: the same as Göran
#   Dora   3/2 + 4/4              7 g, 1 w, 0-16 = -16, pen 4+16 = 20  1/7 = 0.143
#   Jan    4/2 + 4/4              8 g, 1 w, 2-16 = -14, pen 6+16 = 22  1/8 = 0.125
#   Mia    4/4 + 4/3              8 g, 1 w, -16-2 = -18, pen 16+9 = 25 0.125
#   Fatma  4/3 + 4/4: the same as Mia
#   Oskar  4/4 + 3/3              7 g, 0 w, -16-9 = -25, pen 16+9 = 25 0.0
#   Pia    never came: not ranked.
# Ranked by W/G, then games won, points, head-to-head, penalty. H2H counts,
# among the players still tied, in the games where they met, the others
# each outscored ("–" for a player not tied then):
#   Nils and Quinn never met: 0 each, penalty 2 each: 1= both.
#   Chen, Ines, Kemal never met: 0 each, penalty 8 each: 4= all three.
#   Göran (seat 2) and Lena (seat 3) met at round 2's table 3: Göran
#     outscored her in games 1, 2 (-2 against -3) and 3 (his), she him in
#     game 4 (hers): Göran 3, Lena 1.
#   Mia (seat 3) and Fatma (seat 4) met at round 2's table 2: Mia is above
#     in all four games (-3 against -4 three times, and her win): 4 and 0.
STANDINGS = [  # rank, player, G, W/G, W, Pts, H2H, Pen
    ("1=", "Nils Holm", "4", "0.5", "2", "16", "0", "2"),
    ("1=", "Quinn Adler", "4", "0.5", "2", "16", "0", "2"),
    ("3", "Boris Becker", "7", "0.429", "3", "7", "–", "10"),
    ("4=", "Chen Wei", "8", "0.375", "3", "18", "0", "8"),
    ("4=", "Ines Ruiz", "8", "0.375", "3", "18", "0", "8"),
    ("4=", "Kemal Aydın", "8", "0.375", "3", "18", "0", "8"),
    ("7", "Ada Lovelace", "7", "0.286", "2", "7", "–", "11"),
    ("8", "Hana Ito", "7", "0.286", "2", "-2", "–", "13"),
    ("9", "Emil Eder", "7", "0.286", "2", "-7", "–", "17"),
    ("10", "Göran Berg", "8", "0.25", "2", "0", "3", "15"),
    ("11", "Lena Vogel", "8", "0.25", "2", "0", "1", "15"),
    ("12", "Dora Dorn", "7", "0.143", "1", "-16", "–", "20"),
    ("13", "Jan de Vries", "8", "0.125", "1", "-14", "–", "22"),
    ("14", "Mia Rossi", "8", "0.125", "1", "-18", "4", "25"),
    ("15", "Fatma Kaya", "8", "0.125", "1", "-18", "0", "25"),
    ("16", "Oskar Lind", "7", "0.0", "0", "-25", "–", "25"),
]


def racks_by_seat(game: int, seats: int) -> list[str]:
    """Game ``game`` (1-based) at a table of ``seats``: the seat in
    :data:`OUT` goes out, every other seat keeps one tile worth its seat
    number."""
    out = OUT[seats][game - 1]
    return ["" if s == out else f"R{s + 1}" for s in range(seats)]


@pytest.fixture
def organiser(django_user_model):
    from league.models import Club

    django_user_model.objects.create_superuser("desk", "desk@example.invalid", "a-long-pass")
    return Club.objects.create(name="Arad Rummy Club", slug="arad")


@pytest.fixture
def fixed_seeds(monkeypatch):
    """Each round seated from the seed ``seventeen-<n>`` instead of a random
    one: the same draw on every run (the server runs in this process)."""
    real = manager.create_round_seating

    def seeded(*, tournament, number, seed):
        return real(tournament=tournament, number=number, seed=f"seventeen-{number}")

    monkeypatch.setattr(manager, "create_round_seating", seeded)


def read_print(desk) -> dict[int, dict]:
    """From the round's desk, the organiser's print: each table's players in
    seat order, the code printed beside each name and the table's link."""
    click_and_wait(desk, "text=Print the round")
    out = {}
    for section in desk.locator("section.sheet").all():
        heads = section.locator("table.games thead th:has(.who)")
        names = [heads.nth(i).locator(".who").get_attribute("title") for i in range(heads.count())]
        codes = [heads.nth(i).locator(".code b").inner_text() for i in range(heads.count())]
        out[int(section.get_attribute("data-table"))] = {
            "names": names, "codes": dict(zip(names, codes)), "link": section.locator(".qr small").inner_text()}
    desk.go_back()
    return out


def play_round(desk, phones, desk_url, number, expected, *, clash_table=None):
    """Round ``number`` from the print to the close: every table's sheets
    entered and confirmed from the two phones; at ``clash_table`` game 1's
    second entry differs, and the organiser accepts the first from the
    side-by-side view."""
    desk.goto(desk_url)
    sheets = read_print(desk)
    assert {n: s["names"] for n, s in sheets.items()} == expected, "not the seating the hand table assumes"
    assert all(len(set(s["codes"].values())) == len(s["names"]) for s in sheets.values())
    for table, sheet in sorted(sheets.items()):
        link = sheet["link"]
        if link.startswith("/"):                  # no SITE_URL: the address the desk browses with
            link = desk_url.split("/t/")[0] + link
        enter_table(*phones, link, codes=sheet["codes"], racks=racks_by_seat,
                    clash_game=1 if table == clash_table else None, clash_rack="R5")
    desk.reload()
    if clash_table is not None:
        first, second = expected[clash_table][:2]
        loser = expected[clash_table][1]          # game 1: seat 1 goes out, seat 2 keeps R2
        row = desk.locator(f'#desk tr[data-table="{clash_table}"]')
        assert row.get_attribute("data-state") == "discrepancy"
        sides = row.locator(".compare table.side")
        assert sides.count() == 2
        for i, (by, rack) in enumerate([(first, "R2"), (second, "R5")]):
            side = sides.nth(i)
            assert by in side.locator("caption").inner_text()
            marked = side.locator("tbody td.differs")
            assert marked.count() == 1 and rack in marked.inner_text()       # only that rack differs
            assert marked.locator("xpath=../th").inner_text() == loser
            assert side.locator("tfoot .score.differs").count() == 2         # the winner's and seat 2's scores
        with desk.expect_navigation():
            row.locator("button", has_text=f"Accept {first}'s").click()
        assert row.get_attribute("data-state") == "result in"
        assert SheetEntry.objects.filter(by=first, status=SheetEntry.Status.ACCEPTED).count() == 1
    rows = desk.locator("#desk tbody tr")
    assert {rows.nth(i).get_attribute("data-state") for i in range(rows.count())} == {"result in"}
    click_and_wait(desk, "#close-round")
    assert f"round {number} closed" in desk.inner_text("#desk-message")


def test_seventeen_entrants_to_hand_computed_standings(asgi_live_server, browser, screenshot, organiser,
                                                        fixed_seeds):
    base = asgi_live_server
    desk = browser.new_context(viewport={"width": 1200, "height": 950}).new_page()
    desk.on("dialog", lambda dialog: dialog.accept())        # "Withdraw Nils Holm?"
    sign_in(desk, base)

    # the tournament: 2 rounds of Sabra at tables of 4, ranked by games won per game played
    click_and_wait(desk, "#new-tournament")
    if desk.locator("#pick").input_value() != "sabra":
        with desk.expect_navigation():
            desk.select_option("#pick", "sabra")
    desk.fill("#id_name", "Seventeen")
    desk.select_option("#id_club", label="Arad Rummy Club")
    desk.fill("#id_rounds", "2")
    desk.fill("#id_table_size", "4")
    desk.select_option("#id_ranking", "win_rate")
    click_and_wait(desk, "#create")
    t = Tournament.objects.get(name="Seventeen")
    assert (t.rounds, t.table_size, t.ranking, t.ai_fill) == (2, 4, "win_rate", False)

    # the club's 16 from a CSV; 15 arrive
    click_and_wait(desk, "#import-players")
    desk.fill("#csv-text", "name,club\n" + "".join(f"{n},Arad Rummy Club\n" for n in PLAYERS))
    click_and_wait(desk, "#preview")
    assert desk.inner_text("#counts") == "16 new · 0 matched · 0 doubtful · 0 not readable"
    click_and_wait(desk, "#do-import")
    click_and_wait(desk, "#to-check-in")
    for name in PLAYERS:
        if name != ABSENT:
            desk.locator("#entries li", has_text=name).locator("button.tap").click()
            desk.wait_for_selector(f'#entries li.in[data-name="{name.lower()}"]')
    assert "15 of 16 here" in desk.inner_text("#present")

    # round 1: 15 at tables of 4, 4, 4 and 3
    click_and_wait(desk, "#seat-round button")
    assert "round 1 seated at 4 tables" in desk.inner_text("#desk-message")

    # the late arrival walks in while round 1 is played: from round 2
    desk.goto(f"{base}/t/{t.slug}/check-in/")
    desk.fill("#walk-in-name", LATE)
    desk.click("#walk-in button")
    late = desk.locator(f'#entries li.in[data-name="{LATE.lower()}"]')
    late.wait_for()
    assert "from round 2" in late.inner_text()

    phones = [browser.new_context(**PHONE).new_page() for _ in range(2)]
    play_round(desk, phones, f"{base}/t/{t.slug}/round/1/desk/?every=600", 1, ROUND_1, clash_table=2)

    # Nils withdraws after round 1; round 2 seats 15 again
    desk.goto(f"{base}/t/{t.slug}/check-in/")
    desk.locator("#entries li", has_text=GONE).locator('button[value="withdraw"]').click()
    desk.wait_for_selector(f'#entries li.gone[data-name="{GONE.lower()}"]')
    assert "withdrew after round 1" in desk.locator("#entries li", has_text=GONE).inner_text()
    click_and_wait(desk, "#seat-round button")
    assert "round 2 seated at 4 tables" in desk.inner_text("#desk-message")
    play_round(desk, phones, f"{base}/t/{t.slug}/round/2/desk/?every=600", 2, ROUND_2)

    assert desk.locator("#finished").is_visible()
    assert Round.objects.filter(tournament=t, status=Round.Status.CLOSED).count() == 2
    click_and_wait(desk, "#final-standings")
    heads = desk.locator("table.standings thead th").all_inner_texts()
    assert heads[:9] == ["Rank", "Player", "Club", "G", "W/G", "W", "Pts", "H2H", "Pen"], heads
    rows = []
    for tr in desk.locator("table.standings tbody tr").all():
        cells = tr.locator("td").all_inner_texts()
        name = tr.locator("td.name a").inner_text()
        rows.append((cells[0], name, *cells[3:9]))
    by_rank = sorted(rows, key=lambda r: (r[0].rstrip("=").zfill(3), r[1]))   # a shared rank: by name
    assert by_rank == STANDINGS
    gone = desk.locator("table.standings tbody tr", has_text=GONE).locator(".mark.withdrawn")
    assert gone.inner_text() == "withdrew after round 1"
    assert desk.locator("table.standings .mark.withdrawn").count() == 1
    unranked = desk.locator("#unranked li").all_inner_texts()
    assert len(unranked) == 1 and ABSENT in unranked[0] and "not checked in" in unranked[0]
    assert Entry.objects.get(tournament=t, player__name=ABSENT).checked_in is False
    screenshot(desk, "evening-seventeen-standings")
