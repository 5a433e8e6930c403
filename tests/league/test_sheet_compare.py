"""A discrepancy side by side: two entries of one sheet, the differing
racks, hands or game-line cells marked, on the round desk and on the
table's phones."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from league import services, table_entry
from league.models import SheetEntry, Table, TableGame
from league.sheet_compare import compare

NAMES = ["Ann", "Ben", "Cy", "Dee"]


def marked(side):
    return [(label, j, c.text) for label, cells in side.rows for j, c in enumerate(cells) if c.differs]


def test_racks_mark_the_one_rack_and_the_scores_that_differ():
    a = {"racks": ["", "R1 R2", "K13", "J"], "scores": [46, -3, -13, -30]}
    b = {"racks": ["", "R1 R2", "K12", "J"], "scores": [45, -3, -12, -30]}
    left, right = compare([("Ann", 1, a), ("Ben", 2, b)], NAMES)
    assert marked(left) == [("Cy", 0, "K13")] and marked(right) == [("Cy", 0, "K12")]
    assert [c.differs for c in left.scores] == [True, False, True, False]
    assert left.differing == right.differing == 3


def test_hands_mark_the_hand_and_seat_that_differ():
    hands_a = [["", "KD", "7H"], ["QS", "", "2C"]]
    hands_b = [["", "KD", "7H"], ["QS", "", "3C"]]
    left, right = compare([("Ann", 1, {"hands": hands_a, "scores": [-5, 0, -3]}),
                           ("Ben", 2, {"hands": hands_b, "scores": [-5, 0, -3]})], NAMES[:3])
    assert left.head == NAMES[:3]
    assert marked(left) == [("Hand 2", 2, "2C")] and marked(right) == [("Hand 2", 2, "3C")]
    assert not any(c.differs for c in left.scores)


def test_game_lines_mark_the_part_of_the_line_and_a_missing_line():
    one = {"winner": 0, "kind": "melds", "okey_finish": False, "coloured": False, "shown": None}
    a = {"games": [one, {**one, "winner": 2}], "scores": [20, 14, 0, 12]}
    b = {"games": [one, {**one, "winner": 2, "okey_finish": True}, one], "scores": [20, 10, 0, 8]}
    left, right = compare([("Ann", 1, a), ("Ben", 2, b)], NAMES)
    assert left.head[:3] == ["Won by (seat)", "How", "Okey thrown"]
    assert [label for label, _cells in left.rows] == ["Game 1", "Game 2", "Game 3"]      # padded
    assert ("Game 2", 2, "") in marked(left) and ("Game 2", 2, "yes") in marked(right)
    assert ("Game 3", 0, "") in marked(left) and ("Game 3", 0, "1: Ann") in marked(right)
    assert not any(c.differs for _l, cells in left.rows[:1] for c in cells)             # game 1 agrees


SHEET = {"rack_0": "", "rack_1": "R1 R2", "rack_2": "K13", "rack_3": "J"}
OTHER = {"rack_0": "", "rack_1": "R1 R2", "rack_2": "K12", "rack_3": "J"}


@pytest.mark.django_db
def test_the_desk_and_the_phones_show_the_two_sheets_with_the_differing_rack_marked(make_tournament):
    t = make_tournament(4, rounds=1)
    rnd = services.round_seat(tournament=t, seed="clash")
    table = Table.objects.get(round=rnd)
    link = table_entry.table_entry_code(table=table)
    game = TableGame.objects.filter(table=table).order_by("number").first()
    seats = list(table.seats.select_related("entry__player").order_by("position"))
    codes = table_entry.seat_codes(table)

    def enter(client, seat, sheet):
        return client.post(f"/s/{link}/", {"game": game.pk, "by": seat.entry.player.name,
                                           "code": codes[seat.position], **sheet})

    enter(Client(), seats[0], SHEET)
    enter(Client(), seats[1], OTHER)
    assert set(SheetEntry.objects.filter(game=game).values_list("status", flat=True)) == {"discrepancy"}
    cy = seats[2].entry.player.name
    official = Client()
    official.force_login(get_user_model().objects.create_user("desk", password="pw", is_staff=True))
    pages = {"desk": official.get(f"/t/{t.slug}/round/1/desk/").content.decode(),
             "phone": Client().get(f"/s/{link}/").content.decode()}
    for where, page in pages.items():
        assert page.count('<table class="side"') == 2, where
        cells = re.findall(r'<tr><th class="name">([^<]+)</th><td class="differs"[^>]*>'
                           r'<span class="mark"[^>]*>≠</span> ([^<]*)</td></tr>', page)
        assert cells == [(cy, "K13"), (cy, "K12")], (where, cells)
        assert page.count('<td class="differs"') == 2                 # only Cy's rack, on each side
        for seat in seats[:2]:
            assert f"{seat.entry.player.name}'s sheet" in page
