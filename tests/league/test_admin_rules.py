"""The tournament in the Django admin: the variant from a list and its rule
options as real fields (the engine's sentence under each) instead of a JSON
text area; values checked by the engine, refusals at the field; a changed
variant starts from its defaults."""

from __future__ import annotations

import io
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from league.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def official(django_user_model):
    user = django_user_model.objects.create_superuser("official", "o@example.invalid", "a-long-pass")
    client = Client()
    client.force_login(user)
    return client


def form_of(variant="sabra", **rules):
    data = {"name": "Club night", "slug": "club-night", "variant": variant, "status": "draft", "rounds": "3",
            "table_size": "4", "seating_method": "random", "tiebreaks": '["wins", "points"]', "ai_level": "",
            "entries-TOTAL_FORMS": "0", "entries-INITIAL_FORMS": "0", "entries-MIN_NUM_FORMS": "0",
            "entries-MAX_NUM_FORMS": "1000"}
    base = {"initial_meld": "30", "joker_penalty": "30", "joker_reuse": "new-meld", "joker_sets": "free",
            "joker_freed_from": "rack-or-table", "direction": "clockwise", "turn_time_limit": "60",
            "pool_empty_end": "all-pass", "rack_size": "14"} if variant != "contract" else {}
    base.update(rules)
    for key, value in base.items():
        if value is not None:
            data[f"rules__{key}"] = value
    return data


def test_the_add_page_shows_each_option_as_a_field_with_its_sentence(official):
    html = official.get("/admin/league/tournament/add/").content.decode()
    assert '<textarea name="rules"' not in html
    assert re.search(r'<select name="rules__joker_sets"[^>]*>.*<option value="keep-tile">split and rearranged',
                     html, re.S)
    assert "keep-tile:" not in html   # the values' meanings, not the engine's keys
    assert 'type="number" name="rules__initial_meld" id="id_rules__initial_meld" value="30" min="0" max="500"' in html
    assert "Points the first meld must reach from the rack alone" in html
    assert '<select name="variant"' in html and 'value="international"' in html


def test_options_are_saved_as_the_changes_from_the_defaults(official):
    response = official.post("/admin/league/tournament/add/", form_of(initial_meld="50", direction="counterclockwise"))
    assert response.status_code == 302, response.content.decode()[:3000]
    t = Tournament.objects.get(slug="club-night")
    assert t.rules == {"initial_meld": 50, "direction": "counterclockwise"} and t.family == "rummikub"
    html = official.get(f"/admin/league/tournament/{t.pk}/change/").content.decode()
    assert 'name="rules__initial_meld" id="id_rules__initial_meld" value="50"' in html


@pytest.mark.parametrize("rules, words", [
    ({"initial_meld": "lots"}, "a whole number from 0 to 500"),
    ({"initial_meld": "900"}, "from 0 to 500, not 900"),
    ({"joker_sets": "sometimes"}, "one of rearranged like any tile (the box); split and rearranged"),
    ({"joker_group_both_colours": "on"}, "has no effect while joker_sets=free"),  # the engine's own check
])
def test_a_refused_value_is_shown_at_the_field_and_nothing_is_saved(official, rules, words):
    response = official.post("/admin/league/tournament/add/", form_of(**rules))
    assert response.status_code == 200 and words in response.content.decode()
    assert response.context["adminform"].form.errors.get("rules")
    assert not Tournament.objects.exists()


def test_a_changed_variant_starts_from_its_defaults(official):
    official.post("/admin/league/tournament/add/", form_of(initial_meld="50"))
    t = Tournament.objects.get(slug="club-night")
    data = form_of("international")
    data.update({"rules__initial_meld": "50", "table_size": "3"})  # the old variant's inputs, still on the page
    response = official.post(f"/admin/league/tournament/{t.pk}/change/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    t.refresh_from_db()
    assert (t.family, t.variant, t.rules) == ("contract", "international", {})
    html = official.get(f"/admin/league/tournament/{t.pk}/change/").content.decode()
    assert 'name="rules__undo_discard" id="id_rules__undo_discard" checked' in html  # the profile's values shown


def test_a_changed_variant_without_option_inputs_drops_the_old_options(official):
    official.post("/admin/league/tournament/add/", form_of(initial_meld="50"))
    t = Tournament.objects.get(slug="club-night")
    data = {k: v for k, v in form_of("international").items() if not k.startswith("rules__")}
    data["table_size"] = "3"
    assert official.post(f"/admin/league/tournament/{t.pk}/change/", data).status_code == 302
    t.refresh_from_db()
    assert (t.variant, t.rules) == ("international", {})


def test_tiebreaks_are_numbered_from_the_metric_registry(official):
    html = official.get("/admin/league/tournament/add/").content.decode()
    assert '<textarea name="tiebreaks"' not in html and 'name="tiebreaks__h2h"' in html
    assert "Fewest penalty points" in html and "move Points up" in html
    data = {k: v for k, v in form_of().items() if k != "tiebreaks"}
    data.update({"tiebreaks__points": "1", "tiebreaks__wins": "2", "tiebreaks__h2h": "", "tiebreaks__penalty": "3"})
    assert official.post("/admin/league/tournament/add/", data).status_code == 302
    t = Tournament.objects.get(slug="club-night")
    assert t.tiebreaks == ["points", "wins", "penalty"]
    html = official.get(f"/admin/league/tournament/{t.pk}/change/").content.decode()
    assert 'name="tiebreaks__points" id="id_tiebreaks__points" value="1"' in html
    data.update({"tiebreaks__wins": "1"})
    response = official.post(f"/admin/league/tournament/{t.pk}/change/", data)
    assert response.status_code == 200 and "two tie-breaks have the same position" in response.content.decode()


def test_the_projector_shows_the_draw_by_name_and_the_standings(make_tournament):
    from league import services

    t = make_tournament(4, rounds=2)
    page = Client().get(f"/t/{t.slug}/projector/").content.decode()
    assert "The draw is not made yet" in page and 'http-equiv="refresh" content="20"' in page
    rnd = services.round_seat(tournament=t, seed="proj")
    page = Client().get(f"/t/{t.slug}/projector/?every=10").content.decode()
    names = re.findall(r'<span class="name"[^>]*>([^<]+)</span><span class="to">→ (\d+), seat \d</span>', page)
    assert len(names) == 4 and [n for n, _ in names] == sorted((n for n, _ in names), key=str.casefold)
    assert "After the first round" in page and 'content="10"' in page
    assert 'id="round-clock"' not in page
    services.round_start_clock(round=rnd)                      # the round's clock, for everyone
    page = Client().get(f"/t/{t.slug}/projector/").content.decode()
    rnd.refresh_from_db()
    assert f'id="round-clock" data-started="{int(rnd.started_at.timestamp())}"' in page
    from league.models import TableGame

    for game in TableGame.objects.filter(table__round=rnd):
        services.result_record_score_sheet(game=game, racks=["", "R1", "R2", "R3"])
    services.round_close(round=rnd)
    page = Client().get(f"/t/{t.slug}/projector/").content.decode()
    assert "Standings after round 1" in page and page.count('<span class="num rank">') == 4


def test_the_check_in_desk_taps_players_in_adds_walk_ins_and_withdraws(official, make_tournament):
    from league import services
    from league.models import Entry

    t = make_tournament(4, rounds=2)
    Entry.objects.filter(tournament=t).update(checked_in=False)
    url = f"/t/{t.slug}/check-in/"
    assert Client().get(url).status_code == 302            # staff only: to the login
    html = official.get(url).content.decode()
    assert "0 of 4 here" in html and 'id="find"' in html
    first = Entry.objects.filter(tournament=t).order_by("player__name").first()
    response = official.post(url, {"action": "in", "entry": first.pk})
    assert response.status_code == 302 and "checked%20in" in response["Location"]
    first.refresh_from_db()
    assert first.checked_in
    assert official.post(url, {"action": "walk-in", "name": "  Wanda   Walk-in "}).status_code == 302
    walk = Entry.objects.get(tournament=t, player__name="Wanda Walk-in")
    assert walk.checked_in and walk.from_round == 1
    bad = official.post(url, {"action": "walk-in", "name": " "})
    assert bad.status_code == 400 and "type the walk-in" in bad.content.decode()
    # seating takes the checked-in players only (two here: too few for a table of 4 without AI)
    for e in Entry.objects.filter(tournament=t, checked_in=False)[:2]:
        official.post(url, {"action": "in", "entry": e.pk})
    rnd = services.round_seat(tournament=t, seed="desk")
    seated = {s.entry_id for table in rnd.tables.all() for s in table.seats.all()}
    assert seated == set(Entry.objects.filter(tournament=t, checked_in=True).values_list("pk", flat=True))
    # a late arrival plays from round 2; a drop-out is not seated again
    late = Entry.objects.filter(tournament=t, checked_in=False).first()
    official.post(url, {"action": "in", "entry": late.pk})
    late.refresh_from_db()
    assert late.from_round == 2
    assert official.post(url, {"action": "withdraw", "entry": first.pk}).status_code == 302
    again = official.post(url, {"action": "withdraw", "entry": first.pk})
    assert again.status_code == 400 and "already withdrew" in again.content.decode()
    assert "withdrew after round 1" in official.get(url).content.decode()


def test_the_round_prints_seating_and_one_score_sheet_per_table(make_tournament):
    from league import services

    t = make_tournament(8, rounds=1)
    rnd = services.round_seat(tournament=t, seed="paper")
    public = Client().get(f"/t/{t.slug}/round/{rnd.number}/print/").content.decode()
    assert public.count('class="page sheet"') == 2 and "<svg" not in public    # no table keys for all
    staff = Client()
    staff.force_login(get_user_model().objects.create_user("desk", password="pw", is_staff=True))
    html = staff.get(f"/t/{t.slug}/round/{rnd.number}/print/").content.decode()
    assert "@page { size: A4" in html
    assert html.count('class="page sheet"') == 2 and html.count("<svg") == 2          # a sheet and a QR per table
    names = re.findall(r"<tr><td>([^<]+)</td><td>\d+</td><td>\d+</td></tr>", html)
    assert len(names) == 8 and names == sorted(names, key=str.casefold)
    assert html.count("Game 1 (seat 1 starts)") == 2
    from league.models import Table
    code = Table.objects.get(round=rnd, number=1).entry_code
    import segno
    want = segno.make(f"http://testserver/s/{code}/", error="m")
    assert code and want.svg_inline(scale=3, dark="#000") in html   # the table's QR opens its score entry


def test_a_contract_round_prints_the_seven_contracts(make_tournament):
    from league import services

    t = make_tournament(3, rounds=1, family="contract", variant="international", table_size=3)
    rnd = services.round_seat(tournament=t, seed="paper")
    html = Client().get(f"/t/{t.slug}/round/{rnd.number}/print/").content.decode()
    assert "1 (two sets)" in html and "7 (three runs)" in html


def test_the_round_downloads_as_one_pdf_a_page_per_table(make_tournament):
    """The PDF is the print page through WeasyPrint: a page of seating, then
    one score sheet per table, with the players' names in the text."""
    from pypdf import PdfReader

    from league import services

    t = make_tournament(12, rounds=1)
    rnd = services.round_seat(tournament=t, seed="pdf")
    staff = Client()
    staff.force_login(get_user_model().objects.create_user("desk", password="pw", is_staff=True))
    response = staff.get(f"/t/{t.slug}/round/{rnd.number}/print.pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert f'filename="{t.slug}-round-1.pdf"' in response["Content-Disposition"]
    pages = PdfReader(io.BytesIO(response.content)).pages
    assert len(pages) == 1 + rnd.tables.count() == 4
    for number, page in enumerate(pages[1:], start=1):
        text = page.extract_text()
        assert f"Score sheet · table {number}" in text
        for seat in rnd.tables.get(number=number).seats.select_related("entry__player"):
            assert seat.entry.player.name in text
    assert "By name" in pages[0].extract_text()
