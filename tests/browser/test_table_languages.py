"""The browser tables in the reader's language: the table's script takes its
texts from Django's JavaScript catalogue (/jsi18n/), chosen by the
browser's language like the pages around it. A contract rummy seat in Dutch
and a Rummikub seat in Turkish, drawn and played by a click."""

from __future__ import annotations

import pytest

from games import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_contract_table_in_dutch_and_a_rummikub_table_in_turkish(seat_pages, screenshot):
    game = services.game_create(variant="international", players=2, seats=["Ann", "Ben"], title="Taal")
    ann = seat_pages.open(game, services.seat_take(game=game, index=0), locale="nl-NL",
                          viewport={"width": 1000, "height": 850})
    assert ann.inner_text(".tk-sort-suit") == "Sorteer op kleur"
    assert ann.inner_text(".tk-sort-rank") == "Sorteer op waarde"
    assert "Jouw hand" in ann.inner_text("#table-app") and "Ann (jij)" in ann.inner_text(".tk-seats")
    assert "Hand 1 van 7" in ann.inner_text(".tk-contract")
    assert ann.inner_text(".tk-say") == "Jij bent aan de beurt: klik op de stapel om te trekken, of op de aflegstapel om te pakken."
    assert "stapel, " in ann.locator(".tk-stock").get_attribute("aria-label")
    ann.click(".tk-stock")                                         # draw, by a click
    seat_pages.wait(ann, "2")
    assert ann.inner_text(".tk-say") == "Kom uit als je kunt en leg dan af."
    assert "Je zet is vastgelegd" not in ann.content()            # the table redraws itself
    screenshot(ann, "contract-table-nl")

    sabra = services.game_create(variant="sabra", players=2, seats=["Ayşe", "Can"], title="Dil")
    ayse = seat_pages.open(sabra, services.seat_take(game=sabra, index=0), locale="tr-TR",
                           viewport={"width": 1000, "height": 850})
    assert ayse.inner_text(".tk-end") == "Sırayı bitir" and ayse.inner_text(".tk-draw") == "Çek"
    assert "Istakanız" in ayse.inner_text("#table-app")
    ayse.click(".tk-draw")
    seat_pages.wait(ayse, "2")
    assert ayse.inner_text(".tk-say") == "Diğerleri bekleniyor."
    # the server-drawn parts of the page in the same language
    assert "Koltuğunuz bu tarayıcıda" in ayse.content()
