"""A whole club evening in Chromium, by clicks (and the typing a form
needs): the organiser creates a 16-player Sabra tournament with rule options
chosen in the form, imports the club's list from a CSV (one doubtful row
resolved), checks 15 players in, seats round 1 (one table gets an AI seat),
swaps two players with the cost shown, prints the round and downloads its
PDF (a page of seating and a page per table), every table enters and
confirms its result from two phones (one discrepancy settled on the desk),
the projector shows the standings, round 2 is seated, played and closed,
and the tournament is finished. Then the first screens in Dutch (the
browser's language) and in Turkish (the header's switch)."""

from __future__ import annotations

import io
import re

import pytest

from league.models import Club, Entry, Player, Result, Round, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ["Ada Lovelace", "Boris Becker", "Chen Wei", "Dora Dorn", "Emil Eder", "Fatma Kaya",
           "Göran Berg", "Hana Ito", "Ines Ruiz", "Jan de Vries", "Kemal Aydın", "Lena Vogel",
           "Mia Rossi", "Nils Holm", "Oskar Lind", "Pia Sand"]
ABSENT = "Pia Sand"
RACKS = ["R1 R2", "K13", "B5 O7", "J"]     # what the losers keep; the winner's rack is empty


@pytest.fixture
def club(django_user_model):
    django_user_model.objects.create_superuser("desk", "desk@example.invalid", "a-long-pass")
    club = Club.objects.create(name="Arad Rummy Club", slug="arad")
    Player.objects.create(name="Ada Lovelace", club=club)          # matched by the import
    Player.objects.create(name="Boris Beker", club=club)           # Boris Becker is doubtful
    return club


def sign_in(page, base):
    page.goto(f"{base}/admin/login/?next=/")
    page.fill("#id_username", "desk")
    page.fill("#id_password", "a-long-pass")
    with page.expect_navigation():
        page.click("input[type=submit]")


def click_and_wait(page, selector):
    with page.expect_navigation():
        page.click(selector)


def new_tournament(page, name, *, joker_penalty="25"):
    """The new-tournament page from the tournaments list: Sabra, two rounds of
    tables of four with AI seats for a short table, a rule option and the
    tie-breaks set in the form."""
    click_and_wait(page, "#new-tournament")
    if page.locator("#pick").input_value() != "sabra":
        with page.expect_navigation():
            page.select_option("#pick", "sabra")
    page.fill("#id_name", name)
    page.select_option("#id_club", label="Arad Rummy Club")
    page.fill("#id_rounds", "2")
    page.fill("#id_table_size", "4")
    page.check("#id_ai_fill")
    page.fill("#id_rules__joker_penalty", joker_penalty)
    page.fill("#id_tiebreaks__wins", "1")
    page.fill("#id_tiebreaks__points", "2")
    click_and_wait(page, "#create")


def racks_for(game: int, seats: int) -> list[str]:
    """Game ``game`` (1-based) is won by seat game-1; the others keep racks."""
    winner = (game - 1) % seats
    losers = iter(RACKS)
    return ["" if s == winner else next(losers) for s in range(seats)]


def codes_at(link: str) -> dict[str, str]:
    """Each player's code at the table of ``link``, as the organiser's
    printed sheet has it beside their name."""
    from league import table_entry
    from league.models import Table

    table = Table.objects.get(entry_code=link.rstrip("/").rsplit("/", 1)[-1])
    codes = table_entry.seat_codes(table)
    return {s.entry.player.name: codes[s.position] for s in table.seats.select_related("entry__player")
            if s.entry_id}


def enter_table(first, second, link, *, clash_game=None, clash_rack="O13", codes=None, racks=racks_for):
    """Two phones at one table: the first enters every game's racks
    (``racks(game, seats)``), the second checks and confirms each (or, for
    ``clash_game``, enters ``clash_rack`` for the first loser: a
    discrepancy for the organiser). Each gives their own code: ``codes``
    by name, as read from the organiser's print (by default the table's
    own). Returns the names, in seat order."""
    first.goto(link)
    names = [o for o in first.locator("#game-1 select[name=by] option").all_inner_texts() if o not in ("choose", "")]
    codes = codes or codes_at(link)
    games = first.locator("section.game").count()
    seats = first.locator('#game-1 input[name^="rack_"]').count()
    for k in range(1, games + 1):
        section = first.locator(f"#game-{k}")
        section.locator("select[name=by]").select_option(names[0])
        section.locator("input[name=code]").fill(codes[names[0]])
        for seat, rack in enumerate(racks(k, seats)):
            section.locator(f'input[name="rack_{seat}"]').fill(rack)
        with first.expect_navigation():
            section.locator("button").click()
        assert "another player now confirms it" in first.inner_text("#entry-message")
    second.goto(link)
    for k in range(1, games + 1):
        section = second.locator(f"#game-{k}")
        section.locator("select[name=by]").select_option(names[1])
        section.locator("input[name=code]").fill(codes[names[1]])
        if k == clash_game:
            loser = next(s for s, r in enumerate(racks(k, seats)) if r)
            section.locator(f'input[name="rack_{loser}"]').fill(clash_rack)
        with second.expect_navigation():
            section.locator("button").click()
        expected = "differs from the other entry" if k == clash_game else "confirmed, the result is recorded"
        assert expected in second.inner_text("#entry-message")
    return names


def play_round(desk, phones, base, slug, number, *, clash_table=None, screenshot=None):
    """Every table of the round enters and confirms its sheet from two
    phones; the organiser settles a discrepancy, sees every table in, and
    closes the round."""
    desk_url = f"{base}/t/{slug}/round/{number}/desk/?every=600"
    desk.goto(desk_url)
    rows = desk.locator("#desk tbody tr")
    links = {int(rows.nth(i).get_attribute("data-table")): rows.nth(i).locator("a.entry-link").get_attribute("href")
             for i in range(rows.count())}
    who = {}
    for table, link in sorted(links.items()):
        who[table] = enter_table(*phones, f"{base}{link}" if link.startswith("/") else link,
                                 clash_game=1 if table == clash_table else None)
    desk.goto(desk_url)
    if clash_table is not None:
        row = desk.locator(f'#desk tr[data-table="{clash_table}"]')
        assert row.get_attribute("data-state") == "discrepancy"
        if screenshot:
            screenshot(desk, "round-desk-discrepancy")
        with desk.expect_navigation():
            row.locator("button", has_text=f"Accept {who[clash_table][0]}'s").click()
    states = {rows.nth(i).get_attribute("data-state") for i in range(rows.count())}
    assert states == {"result in"}, states
    click_and_wait(desk, "#close-round")
    assert f"round {number} closed" in desk.inner_text("#desk-message")


def test_a_whole_evening_by_clicks(asgi_live_server, browser, screenshot, club, tmp_path):
    from pypdf import PdfReader

    base = asgi_live_server
    desk = browser.new_context(viewport={"width": 1200, "height": 950}, accept_downloads=True).new_page()
    sign_in(desk, base)

    # 1. the tournament, its rules and tie-breaks in the form
    new_tournament(desk, "Friday Sabra")
    t = Tournament.objects.get(name="Friday Sabra")
    assert (t.variant, t.rounds, t.table_size, t.ai_fill) == ("sabra", 2, 4, True)
    assert t.rules == {"joker_penalty": 25} and t.tiebreaks == ["wins", "points"]
    assert "Friday Sabra created" in desk.inner_text("#desk-message")   # on the check-in desk

    # 2. the club's list from a CSV into this tournament, the doubtful row resolved
    click_and_wait(desk, "#import-players")
    csv = "name,club,membership\n" + "".join(f"{n},Arad Rummy Club,\n" for n in PLAYERS)
    desk.fill("#csv-text", csv)
    click_and_wait(desk, "#preview")
    assert desk.inner_text("#counts") == "14 new · 1 matched · 1 doubtful · 0 not readable"
    doubtful = desk.locator("tr.doubtful")
    assert "close to Boris Beker" in doubtful.inner_text()
    doubtful.locator('input[name="take"]').check()                 # Boris Becker is someone else
    click_and_wait(desk, "#do-import")
    assert "16 entered in Friday Sabra" in desk.inner_text("#import-done")
    click_and_wait(desk, "#to-check-in")

    # 3. fifteen arrive
    for name in PLAYERS:
        if name != ABSENT:
            desk.locator("#entries li", has_text=name).locator("button.tap").click()   # in place
            desk.wait_for_selector(f'#entries li.in[data-name="{name.lower()}"]')
    assert "15 of 16 here" in desk.inner_text("#present")

    # 4. round 1 seated: four tables, one AI seat
    click_and_wait(desk, "#seat-round button")
    assert "round 1 seated at 4 tables" in desk.inner_text("#desk-message")
    names = desk.locator("#desk tbody tr td:nth-child(2)").all_inner_texts()
    assert sum(n.count("AI (") for n in names) == 1 and ABSENT not in " ".join(names)

    # a swap by hand, its cost shown first
    desk.select_option("#swap-a", index=0)
    desk.select_option("#swap-b", index=5)
    click_and_wait(desk, "#swap-cost")
    assert "repeat meetings" in desk.inner_text("#swap-preview")
    screenshot(desk, "round-desk-swap")
    click_and_wait(desk, "#swap-do")
    assert "seats swapped" in desk.inner_text("#desk-message")

    # 5. the round on paper: the PDF, a page of seating and one per table
    click_and_wait(desk, "text=Print the round")
    with desk.expect_download() as download:
        desk.click("#pdf")
    path = tmp_path / "round-1.pdf"
    download.value.save_as(path)
    pages = PdfReader(io.BytesIO(path.read_bytes())).pages
    assert len(pages) == 5 and "By name" in pages[0].extract_text()
    assert all(f"Score sheet · table {n}" in pages[n].extract_text() for n in range(1, 5))

    # 6. every table enters its sheets from phones; a discrepancy settled
    phones = [browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True).new_page()
              for _ in range(2)]
    play_round(desk, phones, base, t.slug, 1, clash_table=2, screenshot=screenshot)
    assert Result.objects.filter(game__table__round__number=1, game__table__round__tournament=t,
                                 status="confirmed").count() == 16

    # 7. the projector: the draw and the standings after round 1
    wall = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    wall.goto(f"{base}/t/{t.slug}/projector/")
    assert "Standings after round 1" in wall.locator("#standings h2").text_content()
    rows = wall.locator("#standings ol.rows li").all_text_contents()   # on the standings' page(s)
    assert len(rows) == 15 and ABSENT not in " ".join(rows)        # everyone who played; not the absent one

    # 8. round 2 from the desk, played and closed: the tournament is over
    click_and_wait(desk, "#seat-next")
    assert "round 2 seated at 4 tables" in desk.inner_text("#desk-message")
    play_round(desk, phones, base, t.slug, 2)
    assert desk.locator("#finished").is_visible()
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    assert Round.objects.filter(tournament=t, status=Round.Status.CLOSED).count() == 2
    click_and_wait(desk, "#final-standings")
    rows = desk.locator("table.standings tbody tr").all_inner_texts()
    assert len(rows) == 15 and ABSENT not in " ".join(rows)        # ranked: everyone who played
    unranked = desk.inner_text("#unranked")                         # the absent one listed apart, and why
    assert ABSENT in unranked and "not checked in" in unranked
    assert Entry.objects.get(tournament=t, player__name=ABSENT).checked_in is False
    wall.reload()
    assert "Standings after round 2" in wall.inner_text("#standings")


@pytest.mark.parametrize("language", ["nl", "tr"])
def test_the_evening_s_first_screens_in_dutch_and_turkish(asgi_live_server, browser, club, language):
    """Dutch from the browser's language; Turkish from the header's switch.
    The new tournament, its rule sentences, the import and the check-in desk
    speak it, and the tournament is made as in English."""
    words = {
        "nl": {"new": "Nieuw toernooi", "rule": "Punten die een joker op het rek aan het eind kost",
               "create": "Maak het toernooi aan", "created": "aangemaakt", "import": "Spelers importeren",
               "counts": "1 nieuw · 1 herkend · 0 twijfelachtig · 0 onleesbaar", "here": "Aanwezig",
               "seat": "Deel ronde 1 in"},
        "tr": {"new": "Yeni turnuva", "rule": "Oyun sonunda ıstakada kalan jokerin cezası",
               "create": "Turnuvayı oluştur", "created": "oluşturuldu", "import": "Oyuncu aktar",
               "counts": "1 yeni · 1 eşleşti · 0 şüpheli · 0 okunamadı", "here": "Burada",
               "seat": "Tur 1 yerleştir"},
    }[language]
    base = asgi_live_server
    context = browser.new_context(viewport={"width": 1100, "height": 900},
                                  locale="nl-NL" if language == "nl" else "en-GB")
    page = context.new_page()
    sign_in(page, base)
    if language == "tr":                        # the switch in the header
        assert page.locator("html").get_attribute("lang") == "en"
        with page.expect_navigation():
            page.select_option("#language select", "tr")
    assert page.locator("html").get_attribute("lang") == language
    assert words["new"] in page.inner_text("#new-tournament")
    click_and_wait(page, "#new-tournament")
    assert words["new"] in page.inner_text("h1")
    assert words["rule"] in page.inner_text("#row-rules")
    assert words["create"] == page.inner_text("#create")
    page.fill("#id_name", f"Avond {language}")
    page.fill("#id_rounds", "1")
    click_and_wait(page, "#create")
    assert words["created"] in page.inner_text("#desk-message")
    click_and_wait(page, "#import-players")
    assert words["import"] in page.inner_text("h1")
    page.fill("#csv-text", "name,club\nAda Lovelace,Arad Rummy Club\nZeynep Demir,Arad Rummy Club\n")
    click_and_wait(page, "#preview")
    assert page.inner_text("#counts") == words["counts"]
    click_and_wait(page, "#do-import")
    click_and_wait(page, "#to-check-in")
    row = page.locator("#entries li", has_text="Zeynep Demir")
    assert row.locator("button.tap").inner_text() == words["here"]
    assert page.inner_text("#seat-round button") == words["seat"]
    assert re.search(r"\b0\b", page.inner_text("#present"))
