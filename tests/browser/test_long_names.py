"""A 120-character unbroken name (the most a name may have) in Chromium:
no page grows wider than the screen (the check-in desk and the score entry
on a 390 px phone, the standings, the round and its desk, the projector at
1920x1080 and 1280x720); the whole name is in the element's title. And the
browser's own print of a wide sheet (a match's game lines beside four
seats) keeps every seat on the paper."""

from __future__ import annotations

import io
import re

import pytest

from league import services
from league.models import Club, Player, Table, Tournament

from .staff import DESK, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG = ("Wolfeschlegelsteinhausenbergerdorff" * 4 + "X" * 120)[:120]
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def night(django_user_model):
    django_user_model.objects.create_superuser(*DESK)
    club = Club.objects.create(name="Long Names Club", slug="long")
    t = Tournament.objects.create(name="Long names night", slug="long-night", club=club, rounds=2, table_size=4)
    for name in [LONG, "Ada", "Boris", "Chen", "Dora", "Emil", "Fatma"]:
        services.tournament_enter(tournament=t, player=Player.objects.create(name=name, club=club),
                                  checked_in=True)
    return t


def overflow(page) -> int:
    """How many CSS pixels the page is wider than its window (0: none)."""
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def test_a_long_name_never_widens_a_page(asgi_live_server, browser, night):
    rnd = services.round_seat(tournament=night, seed="long")
    base = asgi_live_server
    phone = browser.new_context(viewport=PHONE, has_touch=True).new_page()
    sign_in(phone, base)
    phone.goto(f"{base}/t/{night.slug}/check-in/")
    who = phone.locator(f'#entries li .who[title="{LONG}"]')
    assert who.count() == 1 and LONG in who.inner_text()                 # whole, wrapped
    assert overflow(phone) == 0, "the check-in page is wider than the phone"
    box = phone.locator("#entries li").first.bounding_box()
    assert box["x"] + box["width"] <= PHONE["width"]

    table = Table.objects.get(round=rnd, seats__entry__player__name=LONG)
    from league import table_entry
    code = table_entry.table_entry_code(table=table)
    # a discrepancy at the long name's table: both sheets side by side on the phone and the desk
    from league.models import TableGame
    game = TableGame.objects.filter(table=table).order_by("number").first()
    seats = list(table.seats.select_related("entry__player").order_by("position"))
    codes = table_entry.seat_codes(table)
    for seat, rack in zip(seats[:2], ("K13", "K12")):
        racks = ["", "R1 R2", rack, "J"][:len(seats)]
        table_entry.sheet_entry_submit(game=game, sheet={"racks": racks}, by=seat.entry.player.name,
                                       code=codes[seat.position])
    for path in (f"/s/{code}/", f"/t/{night.slug}/", f"/t/{night.slug}/round/1/desk/"):
        phone.goto(base + path)
        wide_ones = phone.evaluate("""[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > window.innerWidth + 1).slice(0, 5).map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))""")
        assert overflow(phone) == 0, f"{path} is wider than the phone: {wide_ones}"
        if path != f"/t/{night.slug}/":
            assert phone.locator("table.side").count() == 2

    wide = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    wide.goto(f"{base}/t/{night.slug}/round/1/")
    assert overflow(wide) == 0
    assert wide.locator(f'th.name a[title="{LONG}"]').count() == 1
    for size in ({"width": 1920, "height": 1080}, {"width": 1280, "height": 720}):
        wall = browser.new_context(viewport=size).new_page()
        wall.goto(f"{base}/t/{night.slug}/projector/")
        assert overflow(wall) == 0, f"the projector is wider than {size}"
        name = wall.locator(f'#draw .name[title="{LONG}"]')
        assert name.count() == 1
        nb = name.bounding_box()
        assert nb["x"] + nb["width"] <= size["width"]
        wall.context.close()


def test_the_browsers_print_of_a_match_sheet_keeps_all_four_seats(asgi_live_server, browser, django_user_model):
    """The browser's print (Chromium, the page's own A4 sizes) of an Okey-like
    sheet (a family whose sheet has game lines, found in the registry): a
    table of four with the long name, every seat's column on the paper."""
    from pypdf import PdfReader

    from engine.registry import families

    family = next(f for f in families() if f.sheet.kind == "lines")
    cls = max(family.variants(), key=lambda c: c.max_players)
    django_user_model.objects.create_superuser(*DESK)
    club = Club.objects.create(name="Paper club", slug="paper")
    t = Tournament.objects.create(name="Match night", slug="match-night", club=club, family=family.name,
                                  variant=cls.variant, table_size=cls.max_players, rounds=1)
    names = [LONG] + [f"Player {k}" for k in range(2, cls.max_players + 1)]
    for name in names:
        services.tournament_enter(tournament=t, player=Player.objects.create(name=name, club=club),
                                  checked_in=True)
    services.round_seat(tournament=t, seed="paper")
    desk = browser.new_context().new_page()
    sign_in(desk, asgi_live_server)
    desk.goto(f"{asgi_live_server}/t/{t.slug}/round/1/print/")
    desk.emulate_media(media="print")
    pdf = desk.pdf(prefer_css_page_size=True, print_background=False)
    pages = PdfReader(io.BytesIO(pdf)).pages
    assert len(pages) == 2
    sheet = pages[1]
    assert float(sheet.mediabox.width) > float(sheet.mediabox.height)      # on A4's side
    width, height = float(sheet.mediabox.width), float(sheet.mediabox.height)
    seen = []

    def visit(text, cm, tm, font, size):
        x = cm[0] * tm[4] + cm[2] * tm[5] + cm[4]
        y = cm[1] * tm[4] + cm[3] * tm[5] + cm[5]
        if text.strip() and 0 <= x < width and 0 <= y <= height:
            seen.append(text)

    sheet.extract_text(visitor_text=visit)
    text = re.sub(r"\s+", " ", " ".join(seen))
    for k in range(1, cls.max_players + 1):
        assert f"Seat {k}" in text
    for name in names[1:]:
        assert name in text
