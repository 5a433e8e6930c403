"""Score entry at the table, on a phone, without an account (issue: the
organiser's evening): the table's short link from its printed sheet; a
sheet entered by one player and confirmed by a second (the result
recorded); two different sheets go to the organiser as a discrepancy, who
accepts one on the round desk; bad sheets, strangers' names and a closed
round are refused in words, nothing stored."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from league import services, table_entry
from league.models import Result, ResultEvent, SheetEntry, Table, TableGame

pytestmark = pytest.mark.django_db

SHEET = {"rack_0": "", "rack_1": "R1 R2", "rack_2": "K13", "rack_3": "J"}
OTHER = {"rack_0": "", "rack_1": "R1 R2", "rack_2": "K12", "rack_3": "J"}


@pytest.fixture
def table(make_tournament):
    t = make_tournament(4, rounds=1)
    rnd = services.round_seat(tournament=t, seed="entry")
    table = Table.objects.get(round=rnd)
    return table, table_entry.table_entry_code(table=table)


def names(table):
    return [s.entry.player.name for s in table.seats.order_by("position")]


def code_of(game, name):
    """``name``'s code on ``game``'s table (printed beside the name)."""
    seat = game.table.seats.get(entry__player__name=name)
    rnd = game.table.round
    return table_entry.player_code(tournament_id=rnd.tournament_id, round_number=rnd.number,
                                   entry_id=seat.entry_id)


def enter(client, code, game, by, sheet, player_code=None):
    try:
        mine = code_of(game, by) if player_code is None else player_code
    except Exception:          # a name not at the table: no code to give
        mine = "AAAA"
    return client.post(f"/s/{code}/", {"game": game.pk, "by": by, "code": mine, **sheet})


def test_a_sheet_entered_and_confirmed_by_a_second_player_is_the_result(table):
    table, code = table
    ann, ben = names(table)[:2]
    phone, other = Client(), Client()           # two phones, no accounts
    page = phone.get(f"/s/{code}/").content.decode()
    assert f"Table {table.number}" in page and page.count('<section class="game"') == 4
    assert 'data-state="open"' in page
    game = TableGame.objects.filter(table=table).order_by("number").first()
    response = enter(phone, code, game, ann, SHEET)
    assert response.status_code == 302
    entry = SheetEntry.objects.get(game=game)
    assert entry.status == "entered" and entry.by == ann and sum(entry.checked["scores"]) == 0
    assert not Result.objects.filter(game=game).exists()        # one player's word is not enough
    page = other.get(f"/s/{code}/").content.decode()
    assert f"Entered by {ann}" in page and 'value="R1 R2"' in page     # shown to check
    assert enter(other, code, game, ben, SHEET).status_code == 302
    result = Result.objects.get(game=game, status="confirmed")
    assert result.scores == entry.checked["scores"]
    actor = ResultEvent.objects.get(game=game).actor
    assert re.fullmatch(rf"table: {ann} \(phone [0-9a-f]{{6}}\), confirmed by {ben} \(phone [0-9a-f]{{6}}\)", actor)
    assert actor.split("(")[1] != actor.split("(")[2]                 # two phones
    assert set(SheetEntry.objects.filter(game=game).values_list("status", flat=True)) == {"confirmed"}
    # the game's sheet is closed for entry now
    again = enter(other, code, game, ben, OTHER)
    assert again.status_code == 400 and "has its result already" in again.content.decode()


def test_different_sheets_are_a_discrepancy_the_organiser_settles(table):
    table, code = table
    ann, ben, cy, _ = names(table)
    game = TableGame.objects.filter(table=table).order_by("number")[1]
    phone = Client()
    enter(phone, code, game, ann, SHEET)
    enter(phone, code, game, ann, SHEET)                          # the same player again: replaced
    assert list(SheetEntry.objects.filter(game=game).values_list("status", flat=True)) == \
        ["replaced", "entered"]
    enter(phone, code, game, ben, OTHER)
    assert sorted(SheetEntry.objects.filter(game=game).values_list("status", flat=True)) == \
        ["discrepancy", "discrepancy", "replaced"]
    assert not Result.objects.filter(game=game).exists()       # never silently overwritten
    official = Client()
    official.force_login(get_user_model().objects.create_user("desk", password="pw", is_staff=True))
    url = f"/t/{table.round.tournament.slug}/round/1/desk/"
    desk = official.get(url).content.decode()
    assert 'data-state="discrepancy"' in desk and f"Accept {ben}" in desk
    bens = SheetEntry.objects.get(game=game, by=ben)
    assert official.post(url, {"action": "accept", "entry": bens.pk}).status_code == 302
    assert Result.objects.get(game=game, status="confirmed").scores == bens.checked["scores"]
    assert "accepted" in ResultEvent.objects.get(game=game).actor
    assert sorted(SheetEntry.objects.filter(game=game).values_list("status", flat=True)) == \
        ["accepted", "replaced", "replaced"]
    # a third player's late sheet changes nothing
    assert enter(phone, code, game, cy, SHEET).status_code == 400


def test_bad_sheets_and_names_are_refused_and_nothing_is_stored(table):
    table, code = table
    ann = names(table)[0]
    game = TableGame.objects.filter(table=table).first()
    phone = Client()
    bad = enter(phone, code, game, ann, {**SHEET, "rack_2": "Z9"})
    assert bad.status_code == 400 and "Z9" in bad.content.decode()
    stranger = enter(phone, code, game, "Mallory", SHEET)
    assert stranger.status_code == 400 and "choose your name" in stranger.content.decode()
    assert not SheetEntry.objects.exists() and not ResultEvent.objects.exists()
    unknown = phone.get("/s/not-a-code/")
    assert unknown.status_code == 404 and "not known" in unknown.content.decode()


def test_the_link_stops_when_the_round_closes(table):
    table, code = table
    for game in TableGame.objects.filter(table=table):
        services.result_record_score_sheet(game=game, racks=["", "R1", "R2", "R3"])
    services.round_close(round=table.round)
    closed = Client().get(f"/s/{code}/")
    assert closed.status_code == 404 and "is closed" in closed.content.decode()


def test_the_organiser_sends_a_sheet_back_or_accepts_a_lone_one(table):
    """On the round desk: "Send back" sets the game's open entries aside and
    the table's page asks for the sheet again; a lone entry nobody
    confirmed can be accepted by the organiser (a result event like any)."""
    table, code = table
    ann, ben = names(table)[:2]
    desk = Client()
    desk.force_login(get_user_model().objects.create_user("desk", password="pw", is_staff=True))
    url = f"/t/{table.round.tournament.slug}/round/1/desk/"
    first, second = TableGame.objects.filter(table=table).order_by("number")[:2]
    enter(Client(), code, first, ann, SHEET)
    entry = SheetEntry.objects.get(game=first)
    page = desk.get(url).content.decode()
    assert f'data-entry="{entry.pk}"' in page and "waiting for a second player" in page
    assert desk.post(url, {"action": "send-back", "entry": entry.pk}).status_code == 302
    entry.refresh_from_db()
    assert entry.status == "returned" and not Result.objects.filter(game=first).exists()
    phone = Client().get(f"/s/{code}/").content.decode()
    assert "sent this sheet back: please enter it again" in phone
    again = desk.post(url, {"action": "send-back", "entry": entry.pk})
    assert again.status_code == 400 and "not waiting for the organiser" in again.content.decode()
    # entered again, then accepted alone by the organiser
    enter(Client(), code, first, ben, OTHER)
    lone = SheetEntry.objects.get(game=first, status="entered")
    assert desk.post(url, {"action": "accept", "entry": lone.pk}).status_code == 302
    result = Result.objects.get(game=first, status="confirmed")
    assert result.scores == lone.checked["scores"]
    assert ResultEvent.objects.get(game=first).actor == f"desk: accepted {ben}'s entry"
    # a game with its result sends nothing back
    enter(Client(), code, second, ann, SHEET)
    enter(Client(), code, second, ben, SHEET)
    done = SheetEntry.objects.filter(game=second).first()
    refused = desk.post(url, {"action": "send-back", "entry": done.pk})
    assert refused.status_code == 400


# --- each player proves who they are: a code per player, printed beside the name


def test_one_phone_cannot_confirm_for_a_second_player_without_their_code(table):
    """Dilek enters, then on the same phone "Bram" confirms: without Bram's
    code nothing is recorded and nothing is stored; with it the result is
    recorded, and the desk shows who confirmed, from which phone, when,
    and that both came from one phone."""
    table, code = table
    dilek, bram = names(table)[:2]
    game = TableGame.objects.filter(table=table).order_by("number").first()
    phone = Client()
    assert enter(phone, code, game, dilek, SHEET).status_code == 302
    stored = list(SheetEntry.objects.values_list("pk", "status"))
    for wrong in ("", code_of(game, dilek), "ZZZZ"):               # none, Dilek's own, a guess
        response = enter(phone, code, game, bram, SHEET, player_code=wrong)
        assert response.status_code == 400
        page = response.content.decode()
        assert f"{bram}&#x27;s code" in page and "nothing was entered" in page
        assert list(SheetEntry.objects.values_list("pk", "status")) == stored    # nothing stored
        assert not Result.objects.filter(game=game).exists()
    assert enter(phone, code, game, bram, SHEET, player_code=code_of(game, bram).lower()).status_code == 302
    assert Result.objects.filter(game=game, status="confirmed").count() == 1
    official = Client()
    official.force_login(get_user_model().objects.create_user("desk", password="pw", is_staff=True))
    desk = official.get(f"/t/{table.round.tournament.slug}/round/1/desk/").content.decode()
    device = SheetEntry.objects.get(game=game, by=bram).device
    assert re.fullmatch(r"[0-9a-f]{6}", device)
    line = re.search(r'<div class="settled"[^>]*>(.*?)</div>', desk, re.S).group(1)
    assert f"entered by {dilek}" in line and f"confirmed by {bram}" in line
    assert line.count(f"phone {device}") == 2 and "both from one phone" in line
    entry = SheetEntry.objects.get(game=game, by=bram)
    assert entry.created_at.astimezone().strftime("%H:%M:%S") in desk or \
        entry.created_at.strftime("%H:%M:%S") in desk


def test_the_codes_are_four_unambiguous_letters_one_per_player_and_round(make_tournament):
    t = make_tournament(8, rounds=2)
    rnd = services.round_seat(tournament=t, seed="codes")
    codes = {}
    for tbl in Table.objects.filter(round=rnd):
        codes.update({(tbl.pk, p): c for p, c in table_entry.seat_codes(tbl).items()})
    assert len(codes) == 8 and len(set(codes.values())) == 8
    assert all(len(c) == 4 and set(c) <= set(table_entry.CODE_ALPHABET) for c in codes.values())
    assert not set("0O1IL25SZ8B") & set(table_entry.CODE_ALPHABET)
    entry = t.entries.first()
    one = table_entry.player_code(tournament_id=t.pk, round_number=1, entry_id=entry.pk)
    assert one == table_entry.player_code(tournament_id=t.pk, round_number=1, entry_id=entry.pk)
    assert one != table_entry.player_code(tournament_id=t.pk, round_number=2, entry_id=entry.pk)


def test_the_organisers_print_has_each_code_beside_its_name_the_public_print_none(table):
    table, code = table
    rnd = table.round
    public = Client().get(f"/t/{rnd.tournament.slug}/round/1/print/").content.decode()
    staff = Client()
    staff.force_login(get_user_model().objects.create_user("desk", password="pw", is_staff=True))
    printed = staff.get(f"/t/{rnd.tournament.slug}/round/1/print/").content.decode()
    for seat in table.seats.select_related("entry__player"):
        mine = table_entry.player_code(tournament_id=rnd.tournament_id, round_number=1, entry_id=seat.entry_id)
        assert re.search(rf">{seat.entry.player.name}</span><br><span class=\"code\">code <b>{mine}</b>", printed)
        assert mine not in public


def test_wrong_codes_lock_a_players_entry_for_a_while(table):
    table, code = table
    ann = names(table)[0]
    game = TableGame.objects.filter(table=table).order_by("number").first()
    right = code_of(game, ann)
    wrong = next(c for c in ("AAAA", "CCCC") if c != right)
    for _ in range(table_entry.CODE_TRIES):
        assert enter(Client(), code, game, ann, SHEET, player_code=wrong).status_code == 400
    locked = enter(Client(), code, game, ann, SHEET)                # even the right code, for a while
    assert locked.status_code == 400 and "too many wrong codes" in locked.content.decode()
    assert not SheetEntry.objects.exists()
