"""With Turkish chosen, every public and organiser page of a small seeded
tournament shows no English sentence: the visible text (tags, scripts and
styles stripped) of each page is cut into sentences, and a sentence with
three or more common English words fails, named with its page."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from league import services, table_entry
from league.models import Club, League, Player, Tournament

pytestmark = pytest.mark.django_db

# Common English words; none is a Turkish word the pages use (Turkish "on",
# ten, "her", every, and "a" are left out).
ENGLISH = frozenset("""
the is are was were be been not no your you yours his its our their this that these those
has have had and or but of to for from with without by at into onto as if then than when where
which who what why how all any each every some more most other only also yet still here there
can cannot could will would should must may might do does did done
game games round rounds table tables player players seat seats score scores sheet sheets
enter entered entry new open closed close start started finish finished name names
points point place places result results rule rules tournament tournaments club clubs
standings print printed desk check turn move moves draw drawn tile tiles rack hand hands
page back next previous show shown hide none one two three four yes after before over under
please sign log out about between per
""".split())

WORD = re.compile(r"[A-Za-zÇĞİÖŞÜçğıöşü']+")


class _Text(HTMLParser):
    """The text a reader sees, a chunk per block (inline tags such as
    <code> or <b> do not cut a sentence): no script, style or template
    contents."""

    HIDDEN = {"script", "style", "template", "noscript"}
    CODE = {"code", "kbd"}          # the engine's notation and tile codes, not words
    INLINE = {"a", "b", "i", "em", "strong", "code", "span", "small", "abbr", "time", "kbd", "var", "sub", "sup"}

    def __init__(self):
        super().__init__()
        self.depth = 0
        self.chunks: list[str] = [""]

    def handle_starttag(self, tag, attrs):
        if tag not in self.INLINE:
            self.chunks.append("")
        if tag in self.HIDDEN or tag in self.CODE:
            self.depth += 1
        elif not self.depth:     # the texts a reader sees in attributes
            attrs = dict(attrs)
            shown = [attrs.get(name) for name in ("title", "placeholder", "aria-label", "alt")]
            if tag == "input" and attrs.get("type") in ("submit", "button"):
                shown.append(attrs.get("value"))
            shown = [text for text in shown if text]
            if shown:
                self.chunks += [*shown, ""]

    def handle_endtag(self, tag):
        if tag not in self.INLINE:
            self.chunks.append("")
        if (tag in self.HIDDEN or tag in self.CODE) and self.depth:
            self.depth -= 1

    def handle_data(self, data):
        if not self.depth:
            self.chunks[-1] += data


def english_sentences(html: str) -> list[str]:
    parser = _Text()
    parser.feed(html)
    found = []
    for chunk in parser.chunks:
        for sentence in re.split(r"[.!?;:·\n]+", chunk):
            words = [w.lower() for w in WORD.findall(sentence)]
            if sum(w in ENGLISH for w in words) >= 3:
                found.append(" ".join(sentence.split()))
    return found


def test_the_detector_finds_english_and_passes_turkish():
    assert english_sentences("<p>The round has no result.</p>") == ["The round has no result"]
    assert english_sentences("<p>1. tur kapanamaz: 4 oyunun henüz sonucu yok</p>") == []
    assert english_sentences('<input placeholder="the name of the player">') == ["the name of the player"]
    assert english_sentences("<li><code>draw</code> one <b>tile</b>, <code>play the tile</code></li>") == []
    assert english_sentences("<li><code>pass</code> when <b>the</b> pool is empty</li>") == ["when the pool is empty"]
    assert english_sentences("<script>the game is not over</script><style>a {}</style>") == []


@pytest.fixture
def evening():
    """A club, a tournament of four players with its first round seated and
    one game scored, an online game with a seat taken, and a staff client
    and a seated player's client, both in Turkish."""
    from games import services as game_services

    club = Club.objects.create(name="Kadıköy Kulübü")
    league = League.objects.create(name="Anadolu Ligi", club=club)
    tournament = Tournament.objects.create(name="Kış Kupası", club=club, league=league, rounds=2)
    players = []
    for name in ("Ayşe", "Barış", "Cem", "Deniz"):
        player = Player.objects.create(name=name, club=club)
        services.tournament_enter(tournament=tournament, player=player, checked_in=True)
        players.append(player)
    rnd = services.round_seat(tournament=tournament, seed="tr-pages")
    table = rnd.tables.get()
    services.result_record_score_sheet(game=table.games.get(number=1), racks=["", "R1 R2", "B3", "K4 K5"],
                                       actor="test")
    seated, online = Client(HTTP_ACCEPT_LANGUAGE="tr"), {}
    for variant, n in (("sabra", 2), ("okey", 4), ("contract", 3), ("american", 2)):   # each family's seat page
        online[variant] = game_services.game_create(variant=variant, players=n,
                                                    seats=["Ayşe", "Barış", "Cem", "Deniz"][:n])
        assert seated.post(f"/games/{online[variant].pk}/seats/0/take/", {"name": "Ayşe"}).status_code == 302
    staff = Client(HTTP_ACCEPT_LANGUAGE="tr")
    staff.force_login(get_user_model().objects.create_user("masa", password="pw", is_staff=True))
    slug = tournament.slug
    pages = {
        "_": (tournament, table),
        "the tournament list": (staff, "/"),
        "a tournament and its standings": (staff, f"/t/{slug}/"),
        "a round": (staff, f"/t/{slug}/round/1/"),
        "the round desk": (staff, f"/t/{slug}/round/1/desk/"),
        "check-in": (staff, f"/t/{slug}/check-in/"),
        "print": (staff, f"/t/{slug}/round/1/print/"),
        "projector": (staff, f"/t/{slug}/projector/"),
        "a player's page": (staff, f"/players/{players[0].pk}/"),
        "a club page": (staff, f"/clubs/{club.slug}/"),
        "ratings": (staff, "/ratings/"),
        "the games list": (staff, "/games/"),
        "a game page": (staff, f"/games/{online['sabra'].pk}/"),
        **{f"a seat page ({variant})": (seated, f"/games/{game.pk}/play/") for variant, game in online.items()},
        "the table-entry phone page": (Client(HTTP_ACCEPT_LANGUAGE="tr"),
                                       f"/s/{table_entry.table_entry_code(table=table)}/"),
        "the new-tournament form": (staff, "/tournaments/new/"),
        **{f"the new-tournament form ({variant})": (staff, f"/tournaments/new/?variant={variant}")
           for variant in ("okey", "contract", "american", "international-rummikub")},
        "the players' import": (staff, "/players/import/"),
        "a new game": (staff, "/games/new/"),
        "a league": (staff, f"/leagues/{league.slug}/"),
    }
    return pages


def walk(pages: dict) -> list[str]:
    failures = []
    for page, (client, url) in pages.items():
        if page == "_":          # the seeded tournament and table, not a page
            continue
        response = client.get(url)
        assert response.status_code == 200, (page, url, response.status_code)
        html = response.content.decode()
        assert 'lang="tr"' in html, (page, url)
        failures += [f"{page} ({url}): {sentence}" for sentence in english_sentences(html)]
    return failures


def test_every_page_in_turkish_has_no_english_sentence(evening):
    failures = walk(evening)
    assert not failures, "English on Turkish pages:\n" + "\n".join(failures)


def test_the_pages_of_a_closed_round_and_a_finished_game_in_turkish(evening):
    """Round 1 scored and closed, the tournament's last round seated: the
    tournament's and the games' pages again."""
    tournament, table = evening["_"]
    for game in table.games.filter(results__isnull=True):
        services.result_record_score_sheet(game=game, racks=["R1", "", "B3 B4", "K4 K5"], actor="test")
    services.round_close(round=table.round)
    services.round_seat(tournament=tournament, seed="tr-pages-2")
    pages = {page: where for page, where in evening.items()
             if page != "_" and ("/t/" in where[1] or "/games/" in where[1] or where[1] in ("/", "/ratings/"))}
    pages["round 2's desk"] = (evening["the round desk"][0], f"/t/{tournament.slug}/round/2/desk/")
    failures = walk(pages)
    assert not failures, "English on Turkish pages:\n" + "\n".join(failures)


def test_the_contract_seat_page_names_the_hand_s_contract_in_turkish(evening):
    client, url = evening["a seat page (contract)"]
    html = client.get(url).content.decode()
    assert "El <b>1</b>: iki grup</span>" in html and "Hand <b>1</b>" not in html
    # the browser table names it from the script catalogue
    assert '"two sets": "iki grup"' in Client().get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="tr").content.decode()


def test_the_same_walk_in_english_finds_english_on_every_page(evening):
    """The walk would see an untranslated page: in English each page but
    the player's (names and numbers) has sentences the detector catches."""
    silent = [page for page, (client, url) in evening.items() if page != "_" and not english_sentences(client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode())]
    assert silent == ["a player's page"]


def test_the_refusals_a_player_meets_are_in_turkish(evening):
    """An unknown score-entry link, a wrong seat credential, a seat page
    without a seat, and a move the engine refuses: each answer in Turkish."""
    client, seat_url = evening["a seat page (sabra)"]
    version = re.search(r'name="expected_version" value="(\d+)"', client.get(seat_url).content.decode())[1]
    answers = {
        "an unknown score-entry link": (Client(HTTP_ACCEPT_LANGUAGE="tr").get("/s/nothing-here/"), 404),
        "no seat credential": (Client(HTTP_ACCEPT_LANGUAGE="tr").post("/games/play/", {"token": ""}), 400),
        "a wrong seat credential": (Client(HTTP_ACCEPT_LANGUAGE="tr").post("/games/play/", {"token": "wrong"}), 400),
        "a seat page without a seat": (Client(HTTP_ACCEPT_LANGUAGE="tr").get(seat_url), 403),
        "a move without its version": (client.post(seat_url, {"move": "draw"}), 400),
        "a refused move": (client.post(seat_url, {"move": "pass", "expected_version": version}), 400),
    }
    failures = []
    for what, (response, status) in answers.items():
        assert response.status_code == status, (what, response.status_code)
        failures += [f"{what}: {sentence}" for sentence in english_sentences(response.content.decode())]
    assert not failures, "English in Turkish refusals:\n" + "\n".join(failures)


def test_a_refused_move_on_the_phone_table_is_in_the_readers_language(evening):
    """The API a browser table posts to answers a refused move with the
    rule's sentence in the request's language ("message"), the engine's
    English one in "detail"; in English "message" is the engine's own."""
    from games.models import Game
    from games.refusals import REFUSALS, refusal_text

    client, seat_url = evening["a seat page (sabra)"]
    game = Game.objects.get(pk=int(seat_url.split("/")[2]))
    url = f"/api/games/{game.pk}/moves/"
    body = {"move": "pass", "expected_version": game.version}   # the pool is full, or not seat 0's turn
    turkish = client.post(url, body, content_type="application/json")
    english = client.post(url, body, content_type="application/json", HTTP_ACCEPT_LANGUAGE="en")
    assert turkish.status_code == english.status_code == 400
    said = {"pool-not-empty": "Havuzda hâlâ taş var: pas geçmek yerine çekin.", "not-your-turn": "Sıra sizde değil."}
    assert turkish.json()["message"] == said[turkish.json()["error"]]
    assert "draw instead of passing" in turkish.json()["detail"] or "turn, not seat" in turkish.json()["detail"]
    assert english.json()["message"] == english.json()["detail"] == turkish.json()["detail"]
    assert refusal_text("a-code-not-listed", "the engine's words") == "the engine's words"
    from django.utils import translation
    with translation.override("tr"):
        untranslated = [code for code, text in REFUSALS.items() if refusal_text(code, "") == text]
    assert not untranslated


def test_the_phone_entry_and_the_desk_with_sheets_in_turkish(evening):
    """A sheet waiting for its confirmation, two sheets that differ, a sheet
    with a tile that is no tile and one from a name not at the table: the
    phone page, its refusals and the round desk in Turkish."""
    tournament, table = evening["_"]
    phone, url = evening["the table-entry phone page"]
    seats = list(table.seats.select_related("entry__player").order_by("position"))

    def enter(game, seat, racks):
        mine = table_entry.player_code(tournament_id=tournament.pk, round_number=1, entry_id=seat.entry_id)
        return phone.post(url, {"game": game.pk, "by": seat.entry.player.name, "code": mine,
                                **{f"rack_{i}": rack for i, rack in enumerate(racks)}})

    second, third = table.games.order_by("number")[1:3]
    assert enter(second, seats[0], ["", "R1 R2", "K13", "J"]).status_code == 302
    assert enter(third, seats[0], ["", "R1 R2", "K13", "J"]).status_code == 302
    assert enter(third, seats[1], ["", "R1 R2", "K12", "J"]).status_code == 302
    refused = {"a tile that is no tile": enter(second, seats[1], ["", "R1 Z99", "K13", "J"]),
               "a wrong player code": phone.post(url, {"game": second.pk, "by": seats[1].entry.player.name,
                                                       "code": "AAAA", "rack_0": ""})}
    assert "“Z99” oyunun gösterimiyle yazılmamış" in refused["a tile that is no tile"].content.decode()
    assert f"bu {seats[1].entry.player.name} oyuncusunun kodu değil" in refused["a wrong player code"].content.decode()
    failures = []
    for what, response in refused.items():
        assert response.status_code == 400, what
        failures += [f"{what}: {s}" for s in english_sentences(response.content.decode())]
    failures += walk({"the phone page with sheets": (phone, url),
                      "the desk with a discrepancy": evening["the round desk"]})
    assert not failures, "English on Turkish pages:\n" + "\n".join(failures)


@pytest.mark.parametrize("variant", ["okey", "contract", "american"])
def test_the_tournament_pages_of_every_family_in_turkish(variant):
    """A tournament of each other family, its first round seated: its
    pages, the printed sheets and the phone's sheet form in Turkish."""
    club = Club.objects.create(name="Kadıköy Kulübü")
    tournament = Tournament.objects.create(name="Kış Kupası", club=club, rounds=2, variant=variant,
                                           family=_family_of(variant))
    for name in ("Ayşe", "Barış", "Cem", "Deniz"):
        services.tournament_enter(tournament=tournament, player=Player.objects.create(name=name, club=club),
                                  checked_in=True)
    table = services.round_seat(tournament=tournament, seed="tr-family").tables.get()
    staff = Client(HTTP_ACCEPT_LANGUAGE="tr")
    staff.force_login(get_user_model().objects.create_user("masa", password="pw", is_staff=True))
    slug = tournament.slug
    failures = walk({
        "a tournament": (staff, f"/t/{slug}/"),
        "a round": (staff, f"/t/{slug}/round/1/"),
        "the round desk": (staff, f"/t/{slug}/round/1/desk/"),
        "print": (staff, f"/t/{slug}/round/1/print/"),
        "projector": (staff, f"/t/{slug}/projector/"),
        "the table-entry phone page": (Client(HTTP_ACCEPT_LANGUAGE="tr"),
                                       f"/s/{table_entry.table_entry_code(table=table)}/"),
    })
    assert not failures, "English on Turkish pages:\n" + "\n".join(failures)


def _family_of(variant: str) -> str:
    from engine.registry import find_variant

    return find_variant(variant).family
