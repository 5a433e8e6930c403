"""The round's paper for every game family at the largest table it allows:
one A4 page per table (landscape where the table is wide), every seat's
column with its player's name, read back from the PDF (WeasyPrint's output,
read with pypdf). Families come from the engine's registry, so a new family
is tested without naming it here."""

from __future__ import annotations

import io
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from pypdf import PdfReader

from engine.registry import families
from league import services
from league.models import Club, Player, Tournament

pytestmark = pytest.mark.django_db

A4 = (595, 842)   # points, portrait

#: the largest table of each registered family: (family, variant, seats)
LARGEST = []
for _f in families():
    _cls = max(_f.variants(), key=lambda c: c.max_players)
    LARGEST.append((_f.name, _cls.variant, _cls.max_players))


def _flat(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _tournament(family, variant, seats, names):
    club, _ = Club.objects.get_or_create(name="Paper club")
    t = Tournament.objects.create(name="Paper night", club=club, family=family, variant=variant,
                                  table_size=seats, rounds=1)
    for name in names:
        player = Player.objects.create(name=name, club=club)
        services.tournament_enter(tournament=t, player=player, checked_in=True)
    return t


def _pdf(t, rnd):
    staff = Client()
    staff.force_login(get_user_model().objects.get_or_create(username="desk", is_staff=True)[0])
    response = staff.get(f"/t/{t.slug}/round/{rnd.number}/print.pdf")
    assert response.status_code == 200, response.content[:300]
    return PdfReader(io.BytesIO(response.content)).pages


def _visible_text(page) -> str:
    """The text drawn inside the page's box (WeasyPrint clips what overflows
    the page, but the PDF still holds it: pypdf's plain extraction would
    find a name no one can see)."""
    box = page.mediabox
    width, height = float(box.width), float(box.height)
    parts = []

    def visit(text, cm, tm, font, size):
        x = cm[0] * tm[4] + cm[2] * tm[5] + cm[4]
        y = cm[1] * tm[4] + cm[3] * tm[5] + cm[5]
        if text.strip() and 0 <= x < width - 1 and 0 <= y <= height:
            parts.append(text)
        elif text.strip():
            parts.append(" ")

    page.extract_text(visitor_text=visit)
    return " ".join(parts)


def _size(page):
    box = page.mediabox
    return round(float(box.width)), round(float(box.height))


@pytest.mark.parametrize("family, variant, seats", LARGEST, ids=[f[0] for f in LARGEST])
def test_every_seat_of_the_largest_table_is_on_its_a4_sheet(family, variant, seats):
    names = [f"Zeynep{k}Kaya" if k % 2 else f"Anneke{k}Vries" for k in range(1, seats + 1)]
    t = _tournament(family, variant, seats, names)
    rnd = services.round_seat(tournament=t, seed="paper")
    assert rnd.tables.count() == 1
    pages = _pdf(t, rnd)
    assert len(pages) == 2, f"{family}: the sheet takes {len(pages) - 1} pages"
    assert _size(pages[0]) == A4
    assert sorted(_size(pages[1])) == sorted(A4)           # A4, upright or on its side
    sheet = _visible_text(pages[1])
    flat = _flat(sheet)
    for seat in rnd.tables.get().seats.select_related("entry__player"):
        assert f"Seat {seat.position + 1}" in sheet, f"{family}: no column for seat {seat.position + 1}"
        assert _flat(seat.entry.player.name) in flat, f"{family}: {seat.entry.player.name} not on the sheet"
    seating = _flat(_visible_text(pages[0]))
    assert all(name in seating for name in names)


@pytest.mark.parametrize("family, variant, seats", LARGEST, ids=[f[0] for f in LARGEST])
def test_the_browser_print_page_has_a_column_per_seat(family, variant, seats):
    names = [f"Player {k}" for k in range(1, seats + 1)]
    t = _tournament(family, variant, seats, names)
    rnd = services.round_seat(tournament=t, seed="paper")
    html = Client().get(f"/t/{t.slug}/round/{rnd.number}/print/").content.decode()
    sheet = html[html.index('class="page sheet'):]
    for k in range(1, seats + 1):
        assert f"Seat {k}<br>" in sheet and f">Player {k}<" in sheet


LONG = "Wolfeschlegelsteinhausenbergerdorff" * 4            # one unbroken word...
LONG = (LONG + "X" * 120)[:120]                              # ...of the 120 characters a name may have


@pytest.mark.parametrize("family, variant, seats", LARGEST, ids=[f[0] for f in LARGEST])
def test_a_120_character_name_wraps_and_keeps_every_column(family, variant, seats):
    """With a 120-character unbroken name the seating page keeps its Table
    and Seat columns, and the sheet keeps every seat's column, all inside
    the page; the seating has the name whole (wrapped in its column), the
    sheet its first 39 characters and an ellipsis."""
    names = [LONG] + [f"Player {k}" for k in range(2, seats + 1)]
    t = _tournament(family, variant, seats, names)
    rnd = services.round_seat(tournament=t, seed="long")
    pages = _pdf(t, rnd)
    assert len(pages) == 2
    seating = _visible_text(pages[0])
    assert "Player Table Seat" in seating, seating[:300]     # the by-name header, every column on the page
    seat_of = {s.entry.player.name: s.position + 1 for s in rnd.tables.get().seats.select_related("entry__player")}
    assert re.search(rf"{LONG[-20:]}\s+1\s+{seat_of[LONG]}\b", seating.replace("\n", " ")), \
        "the long name's table and seat are not beside it"
    for k in range(1, seats + 1):
        assert f"Seat {k}" in seating
    assert _flat(LONG) in _flat(seating)
    sheet = _visible_text(pages[1])
    for k in range(1, seats + 1):
        assert f"Seat {k}" in sheet, f"{family}: the long name pushed seat {k}'s column off the sheet"
    assert all(_flat(n) in _flat(sheet) for n in names[1:])
    assert _flat(LONG[:39] + "…") in _flat(sheet) and LONG[-20:] not in _flat(sheet)
