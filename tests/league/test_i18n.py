"""The pages in English, Dutch, Turkish and German: chosen by the browser's
Accept-Language and by the switch in the header; the rule options' sentences
translated; dates and numbers in the locale's format; every catalogue whole,
compiled, and in step with the engine's rule options and the metrics."""

from __future__ import annotations

import datetime
import glob
import json
import re

import polib
import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from games import rule_texts

pytestmark = pytest.mark.django_db

LANGS = [code for code, _ in settings.LANGUAGES if code != "en"]


@pytest.fixture
def official():
    client = Client()
    client.force_login(get_user_model().objects.create_user("desk", password="pw", is_staff=True))
    return client


@pytest.mark.parametrize("lang, words", [
    ("en", ["New tournament", "Create the tournament", "Points a joker left on a rack costs at the end"]),
    ("nl", ["Nieuw toernooi", "Maak het toernooi aan", "Punten die een joker op het rek aan het eind kost"]),
    ("tr", ["Yeni turnuva", "Turnuvayı oluştur", "Oyun sonunda ıstakada kalan jokerin cezası"]),
    ("de", ["Neues Turnier", "Turnier anlegen", "Punkte, die ein Joker auf dem Bänkchen am Ende kostet"]),
])
def test_the_browser_language_chooses_the_page_and_its_rule_sentences(official, lang, words):
    page = official.get("/tournaments/new/?variant=sabra", HTTP_ACCEPT_LANGUAGE=f"{lang};q=1, en;q=0.5")
    html = page.content.decode()
    assert f'<html lang="{lang}">' in html
    for text in words:
        assert text in html, (lang, text)


def test_the_switch_overrides_the_browser_and_stays(official):
    response = official.post("/i18n/setlang/", {"language": "tr", "next": "/"}, HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 302 and response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "tr"
    html = official.get("/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Turnuvalar" in html and '<option value="tr" selected>Türkçe</option>' in html
    bad = official.post("/i18n/setlang/", {"language": "xx", "next": "/"})
    assert settings.LANGUAGE_COOKIE_NAME not in bad.cookies            # an unknown language changes nothing


def test_dates_and_numbers_follow_the_locale(make_tournament):
    t = make_tournament(4, rounds=1, date=datetime.date(2026, 11, 27))
    german = Client().get(f"/t/{t.slug}/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    dutch = Client().get(f"/t/{t.slug}/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    english = Client().get(f"/t/{t.slug}/").content.decode()
    assert ">27. November 2026</time>" in german and ">27 november 2026</time>" in dutch
    assert ">Nov. 27, 2026</time>" in english
    assert "1 Runde" in german and "tables of 4" in english
    # a rating's μ with the locale's decimal mark
    from league import services, table_entry

    rnd = services.round_seat(tournament=t, seed="num")
    game = rnd.tables.get().games.get(number=1)
    services.result_record_score_sheet(game=game, racks=["", "R1 R2", "B3", "K4 K5"], actor="test")
    ratings_de = Client().get("/ratings/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    ratings_en = Client().get("/ratings/").content.decode()
    assert re.search(r"<td>\d+,\d\d</td>", ratings_de) and not re.search(r"<td>\d+,\d\d</td>", ratings_en)


def test_the_phone_entry_and_the_printed_sheet_speak_the_language(make_tournament):
    from league import services, table_entry

    t = make_tournament(4, rounds=1)
    rnd = services.round_seat(tournament=t, seed="lang")
    table = rnd.tables.get()
    code = table_entry.table_entry_code(table=table)
    entry = Client().get(f"/s/{code}/", HTTP_ACCEPT_LANGUAGE="tr").content.decode()
    assert "Puan girişi" not in entry and "Masa 1" in entry and "Kâğıdı gir" in entry
    paper = Client().get(f"/t/{t.slug}/round/1/print/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Scoreformulier · tafel 1" in paper and "Op naam" in paper and "Getekend" in paper


@pytest.mark.parametrize("path", sorted(glob.glob(str(settings.BASE_DIR / "locale/*/LC_MESSAGES/django*.po"))))
def test_every_catalogue_is_whole_and_compiled(path):
    po = polib.pofile(path)
    assert not po.untranslated_entries() and not po.fuzzy_entries(), \
        f"{path}: translate these, then bin/messages: {[e.msgid for e in po.untranslated_entries()][:5]}"
    mo = polib.mofile(path[:-3] + ".mo")
    compiled = {(e.msgctxt, e.msgid): (e.msgstr, e.msgstr_plural) for e in mo}
    for e in po.translated_entries():
        assert (e.msgctxt, e.msgid) in compiled, f"{path} is not compiled: run bin/messages"
    assert sorted(p.rsplit("/", 1)[-1] for p in glob.glob(str(settings.BASE_DIR / "locale/*"))) == sorted(LANGS)


def test_the_engine_rule_sentences_are_listed_for_the_catalogues():
    listed = list(rule_texts.TEXTS)
    assert listed == rule_texts.engine_texts(), "run python -m games.rule_texts (or bin/messages)"
    po = polib.pofile(str(settings.BASE_DIR / "locale/nl/LC_MESSAGES/django.po"))
    ids = {e.msgid for e in po}
    assert set(listed) <= ids


def test_every_metric_name_and_sentence_is_in_the_catalogues():
    from league.standings import METRICS
    from league.tournament_forms import METRIC_TEXTS, metric_sentence

    for metric in METRICS.values():
        assert metric.name in METRIC_TEXTS
        if metric_sentence(metric):
            assert metric_sentence(metric) in METRIC_TEXTS


def test_the_games_pages_and_the_tables_script_texts_speak_the_language():
    """The games list, a game's page and the seat page in the reader's
    language, and the browser table's texts from the JavaScript catalogue
    (/jsi18n/) the seat page loads before the table's script."""
    from games import services as game_services

    game = game_services.game_create(variant="sabra", players=2, seats=["Ann", "Ben"])
    listing = Client().get("/games/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Alle Spiele" in listing and "Offene Spiele" in listing
    page = Client().get(f"/games/{game.pk}/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert 'aria-label="terugspelen"' in page and "<h3>Tafel" in page and "Neem plaats 0" in page
    assert "/jsi18n/" in page
    client = Client(HTTP_ACCEPT_LANGUAGE="tr")
    assert client.post(f"/games/{game.pk}/seats/0/take/", {"name": "Ann"}).status_code == 302
    seat = client.get(f"/games/{game.pk}/play/").content.decode()
    assert "Hamleyi gönder" in seat and "Hamle gösterimi" in seat and '<script src="/jsi18n/"></script>' in seat
    catalogue = Client().get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="tr").content.decode()
    for english, turkish in (("End turn", "Sırayı bitir"), ("Go down", "Aç"), ("Bell on my turn", "Sıram gelince zil")):
        assert f'"{english}": {json.dumps(turkish)}' in catalogue, english
    assert '"End turn"' not in Client().get("/jsi18n/").content.decode()   # English needs no catalogue


def test_every_text_of_the_tables_scripts_is_in_the_catalogue():
    """Each _("...") and gettext_noop("...") text in static/games/*.js is in
    the JavaScript catalogue (bin/messages finds them; a text added without
    running it fails here)."""
    texts = set()
    for path in glob.glob(str(settings.BASE_DIR / "static/games/**/*.js"), recursive=True):
        src = open(path, encoding="utf-8").read()
        texts |= {m.encode().decode("unicode_escape") if "\\u" in m else m
                  for m in re.findall(r'(?<![\w.])(?:_|gettext_noop)\("((?:[^"\\]|\\.)*)"', src)}
    assert len(texts) > 100
    for lang in LANGS:
        ids = {e.msgid for e in polib.pofile(str(settings.BASE_DIR / f"locale/{lang}/LC_MESSAGES/djangojs.po"))}
        assert texts <= ids, (lang, sorted(texts - ids)[:5])
