"""A club's player list from CSV: a preview of new, matched, doubtful and
unreadable rows before anything is saved; Import saves them at once
(doubtful rows only when ticked); the export writes the same columns."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client

from league.models import Club, Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def official(django_user_model):
    client = Client()
    client.force_login(django_user_model.objects.create_superuser("desk", "d@example.invalid", "a-long-pass"))
    return client


CSV = """name,club,membership,rating,email
Ada Lovelace,Arad Rummy Club,A-1,1500,ada@example.org
Boris Becker,Arad Rummy Club,,,
Chen  Wei,Arad Rummy Club,A-7,,chen@example.org
Dora Dorn,Arad Rummy Club,,lots,
,Arad Rummy Club,,,
Eva Estrada,Other Club,,,
"""


@pytest.fixture
def club_players():
    club = Club.objects.create(name="Arad Rummy Club", slug="arad")
    Player.objects.create(name="Ada Lovelace", club=club)                       # matched by name
    Player.objects.create(name="Old Name", club=club, membership="A-7")         # matched by membership
    Player.objects.create(name="Boris Beker", club=club)                        # Boris Becker is doubtful
    Player.objects.create(name="Eva Estrada", club=Club.objects.create(name="Home", slug="home"))  # same name elsewhere
    return club


def test_the_preview_classifies_every_row_and_saves_nothing(official, club_players):
    before = list(Player.objects.values_list("name", "membership", "rating", "email"))
    response = official.post("/players/import/", {"csv": CSV, "action": "preview"})
    html = response.content.decode()
    assert response.status_code == 200
    assert "0 new · 2 matched · 2 doubtful · 2 not readable" in html
    assert "matches Ada Lovelace: membership – → A-1; rating – → 1500; email – → ada@example.org" in html
    assert "matches Old Name" in html and "name Old Name → Chen Wei" in html
    assert "close to Boris Beker" in html and "the same name in Home" in html
    assert "rating &#x27;lots&#x27; is not a number" in html and "no name" in html
    assert list(Player.objects.values_list("name", "membership", "rating", "email")) == before


def test_import_saves_new_and_matched_rows_and_only_the_ticked_doubtful_ones(official, club_players):
    response = official.post("/players/import/", {"csv": CSV, "action": "import", "take": ["3"]})
    assert response.status_code == 302
    assert "1%20player%28s%29%20added%2C%202%20updated%2C%203%20skipped" in response["Location"]
    ada = Player.objects.get(name="Ada Lovelace")
    assert (ada.membership, ada.rating, ada.email) == ("A-1", 1500, "ada@example.org")
    assert Player.objects.get(membership="A-7").name == "Chen Wei"
    assert Player.objects.filter(name="Boris Becker", club=club_players).exists()     # ticked
    assert Player.objects.filter(name="Eva Estrada").count() == 1                     # not ticked
    assert Club.objects.filter(name="Other Club").exists() is False
    assert not Player.objects.filter(name="Dora Dorn").exists()


@pytest.mark.parametrize("text, words", [
    ("", "the file is empty"),
    ("who,club\nAda,X\n", "with a &#x27;name&#x27; column"),
    ("name,shoe size\nAda,42\n", "unknown column(s) shoe size"),
])
def test_a_file_that_cannot_be_read_is_refused_whole(official, text, words):
    response = official.post("/players/import/", {"csv": text, "action": "preview"})
    assert response.status_code == 400 and words in response.content.decode()
    assert not Player.objects.exists()


def test_export_writes_the_same_columns_and_round_trips(official, club_players):
    official.post("/players/import/", {"csv": CSV, "action": "import"})
    out = official.get("/players.csv")
    assert out.status_code == 200 and out["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(out.content.decode())))
    assert list(rows[0]) == ["name", "club", "membership", "rating", "email"]
    assert {"name": "Ada Lovelace", "club": "Arad Rummy Club", "membership": "A-1", "rating": "1500",
            "email": "ada@example.org"} in rows
    again = official.post("/players/import/", {"csv": out.content.decode(), "action": "preview"}).content.decode()
    assert 'id="counts">0 new · 4 matched · 0 doubtful' in again                   # every row matches itself
    assert Client().get("/players.csv").status_code == 302                          # staff only (emails)


def test_an_uploaded_file_is_read_too(official):
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("club.csv", "\ufeffname;club\nZoe;Arad\n".encode("utf-8"), content_type="text/csv")
    html = official.post("/players/import/", {"file": upload, "action": "preview"}).content.decode()
    assert "1 new · 0 matched" in html


def test_an_import_from_the_check_in_desk_enters_the_players_in_the_tournament(official, club_players):
    """From a tournament's desk the saved and matched rows are entered in it,
    not yet checked in; a finished tournament takes no one and nothing is
    saved."""
    from league.models import Entry, Tournament

    t = Tournament.objects.create(name="Friday", club=club_players)
    desk = official.get(f"/t/{t.slug}/check-in/").content.decode()
    assert f'href="/players/import/?tournament={t.slug}"' in desk
    response = official.post(f"/players/import/?tournament={t.slug}",
                             {"csv": CSV, "action": "import", "take": ["3"], "tournament": t.slug})
    assert response.status_code == 302 and "3%20entered%20in%20Friday" in response["Location"]
    entered = set(Entry.objects.filter(tournament=t).values_list("player__name", flat=True))
    assert entered == {"Ada Lovelace", "Chen Wei", "Boris Becker"}
    assert not Entry.objects.filter(tournament=t, checked_in=True).exists()
    done = Tournament.objects.create(name="Last year", club=club_players, status=Tournament.Status.FINISHED)
    players = Player.objects.count()
    refused = official.post("/players/import/", {"csv": CSV + "Zed New,,,,\n", "action": "import",
                                                 "tournament": done.slug})
    assert refused.status_code == 400 and "is finished: no new entries" in refused.content.decode()
    assert Player.objects.count() == players and not Entry.objects.filter(tournament=done).exists()


def test_a_player_twice_in_one_file_is_one_new_and_one_duplicate_in_the_preview_and_the_import(official):
    club = Club.objects.create(name="Arad Rummy Club", slug="arad")
    text = ("name,club,membership\nDilek Kaya,Arad Rummy Club,A-9\nBram Dekker,Arad Rummy Club,\n"
            "Dilek Kaya,Arad Rummy Club,A-9\n")
    html = official.post("/players/import/", {"csv": text, "action": "preview"}).content.decode()
    assert "2 new · 0 matched · 0 doubtful · 0 not readable" in html
    assert '<span id="duplicates">1 line twice in the file</span>' in html
    assert 'data-line="4"' in html and "not imported again: the same player as line 2" in html
    response = official.post("/players/import/", {"csv": text, "action": "import"})
    assert response.status_code == 302
    assert "2 player(s) added, 0 updated, 1 skipped" in official.get(response["Location"]).content.decode()
    assert sorted(Player.objects.filter(club=club).values_list("name", flat=True)) == ["Bram Dekker", "Dilek Kaya"]


def test_a_near_name_is_doubtful_in_the_same_club_elsewhere_and_within_the_file(official):
    from league.players_csv import edit_distance, near_names

    assert edit_distance("annekedevris", "annekedevries") == 1
    assert near_names("Anneke de Vris", "Anneke de Vries") and near_names("Jan", "Jan.")
    assert not near_names("Jan", "Jon Smit") and not near_names("Ann", "Ben")
    club = Club.objects.create(name="Arad Rummy Club", slug="arad")
    Player.objects.create(name="Anneke de Vries", club=club)
    Player.objects.create(name="Pieter Bakker", club=None)
    text = ("name,club\nAnneke de Vris,Arad Rummy Club\nPieter Baker,Arad Rummy Club\n"
            "Greta Hoekstra,Arad Rummy Club\nGreta Hoekstr,Arad Rummy Club\n")
    html = official.post("/players/import/", {"csv": text, "action": "preview"}).content.decode()
    assert "1 new · 0 matched · 3 doubtful · 0 not readable" in html
    assert "doubtful, close to Anneke de Vries (Arad Rummy Club)" in html
    assert "doubtful, close to Pieter Bakker (no club)" in html
    assert "doubtful, close to Greta Hoekstra (line 4)" in html
    # only the ticked doubtful rows are added
    official.post("/players/import/", {"csv": text, "action": "import", "take": ["5"]})
    assert sorted(Player.objects.filter(club=club).values_list("name", flat=True)) == [
        "Anneke de Vries", "Greta Hoekstr", "Greta Hoekstra"]


def test_the_export_never_writes_a_formula_and_reads_back_unchanged(official):
    """OWASP's CSV injection advice: a name or membership such as
    ``=HYPERLINK(...)`` goes out after an apostrophe, and the import takes
    the apostrophe off again, so the exported list matches itself."""
    club = Club.objects.create(name="@Club", slug="at-club")
    Player.objects.create(name='=HYPERLINK("http://x.invalid","Ada")', club=club, membership="+1-2", rating=-5)
    Player.objects.create(name="-Bob", club=club, membership="-7")
    out = official.get("/players.csv").content.decode()
    rows = list(csv.DictReader(io.StringIO(out)))
    assert {r["name"] for r in rows} == {'\'=HYPERLINK("http://x.invalid","Ada")', "'-Bob"}
    assert {r["club"] for r in rows} == {"'@Club"}
    assert {r["membership"] for r in rows} == {"'+1-2", "-7"}                  # a number stays a number
    assert {r["rating"] for r in rows} == {"-5", ""}
    again = official.post("/players/import/", {"csv": out, "action": "preview"}).content.decode()
    assert 'id="counts">0 new · 2 matched · 0 doubtful' in again                   # every row matches itself
