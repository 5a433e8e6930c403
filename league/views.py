"""Public pages of the league (no login): tournament standings, round seating
and results, player histories, club leaderboards, league tables, ratings,
and the CSV exports, read through :mod:`league.selectors`; the projector;
and, for staff, the check-in desk, which writes through :mod:`league.services`."""

from __future__ import annotations

import csv
from dataclasses import dataclass
from types import SimpleNamespace

from django.http import HttpResponse
from urllib.parse import quote

from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext as _

from . import analysis, selectors
from . import table_entry as entries
from .charts import places_chart
from .csv_cells import csv_cell
from .models import Club, League, Player, Round, Tournament
from .standings import METRICS


def chart_labels() -> dict[str, str]:
    """The chart's words in the reader's language."""
    return {"empty": gettext("no rounds played yet"), "x": gettext("round (place after it, all rounds so far)"),
            "y": gettext("place"), "legend": gettext("Final place"), "round": gettext("R%(n)s")}


def absolute_url(request, path: str) -> str:
    """``path`` as a full address: under ``settings.SITE_URL`` (the public
    address players reach) when it is set, else under the address the
    request came to."""
    from django.conf import settings

    if settings.SITE_URL:
        return settings.SITE_URL.rstrip("/") + path
    return request.build_absolute_uri(path)


def _rows(standings, ratings=None, marks=None):
    """Standings rows for the templates, each with its player, rating and,
    with ``marks`` (:func:`selectors.tournament_entry_marks`), its
    entry's mark: ``withdrawn`` (after round k), and for a player without a
    game why (``note``)."""
    players = selectors.players_by_id(r.player for r in standings)
    out = []
    for r in standings:
        rating = (ratings or {}).get(r.player)
        mark = (marks or {}).get(r.player)
        out.append({"row": r, "player": players.get(r.player),
                    "rating": rating.display if rating else None,
                    "withdrawn": mark.withdrawn_after if mark and mark.withdrawn_after is not None else None,
                    "note": _entry_note(mark) if not r.ranked else ""})
    return out


def _entry_note(mark) -> str:
    """Why a player has no game yet, in the reader's language."""
    if mark is None:
        return gettext("no game yet")
    if mark.withdrawn_after is not None:
        return gettext("withdrew after round %(n)s") % {"n": mark.withdrawn_after}
    if not mark.checked_in:
        return gettext("not checked in")
    if mark.from_round > 1:
        return gettext("late arrival: plays from round %(n)s") % {"n": mark.from_round}
    return gettext("no game yet")


def _split(rows):
    """Ranked rows and those of players without a game, apart."""
    return [r for r in rows if r["row"].ranked], [r for r in rows if not r["row"].ranked]


def ranking_sentence(tournament) -> str:
    """What the tournament ranks by, for the standings page."""
    basis = gettext(tournament.get_ranking_display())
    then = ", ".join(gettext(METRICS[k].name).lower() for k in tournament.precedence[1:])
    if tournament.ranking == Tournament.Ranking.WINS:
        first = gettext(METRICS[tournament.precedence[0]].name).lower()
        return gettext("Ranked by %(first)s, then %(then)s.") % {"first": first, "then": then}
    return gettext("Ranked by %(basis)s, then %(then)s.") % {"basis": basis, "then": then}


@dataclass(frozen=True)
class _Column:
    key: str
    name: str
    abbr: str
    ascending: bool


def _columns(precedence):
    """The standings' metric columns, named in the reader's language."""
    return [_Column(k, gettext(METRICS[k].name), METRICS[k].abbr, METRICS[k].ascending) for k in precedence]


def _boards(boards):
    """Family boards -> template sections, each rated within its family."""
    return [{"family": b.family, "name": b.name, "columns": _columns(b.precedence),
             "points_legend": selectors.family_pages(b.family).get("points_legend", ""),
             "rows": _rows(b.standings, selectors.player_ratings(b.family))}
            for b in boards]


def index(request):
    return render(request, "league/index.html", {
        "tournaments": [(t, selectors.variant_name(t.variant))
                        for t in Tournament.objects.select_related("club").all()[:50]],
        "clubs": Club.objects.all(),
        "leagues": League.objects.all(),
    })


def _organiser(request) -> bool:
    """Whether the reader is the organiser (staff), who sees every draw and
    result, released or not."""
    return bool(getattr(request.user, "is_staff", False))


def tournament_standings(request, slug):
    tournament = get_object_or_404(Tournament, slug=slug)
    rounds = list(tournament.round_set.all())
    only = request.GET.get("round")
    chosen = None
    if only and only.isdigit() and any(r.number == int(only) for r in rounds):
        chosen = int(only)
    public = not _organiser(request)
    standings = selectors.tournament_standings(
        tournament, rounds=[chosen] if chosen else None, released_only=public)
    series = selectors.tournament_places_series(tournament, released_only=public)
    review = analysis.tournament_analysis(tournament, released_only=public)
    ranked, unranked = _split(_rows(standings, selectors.player_ratings(tournament.family),
                                    selectors.tournament_entry_marks(tournament)))
    return render(request, "league/tournament.html", {
        "sharpest": review["sharpest"], "games_pending": review["games_pending"],
        "tournament": tournament, "rounds": rounds, "chosen": chosen,
        "family_name": selectors.family_name(tournament.family),
        "variant_name": selectors.variant_name(tournament.variant),
        "columns": _columns(tournament.precedence),
        "ranking": ranking_sentence(tournament),
        "withheld": [r.number for r in rounds if not r.results_released],
        "organiser": not public,
        "rows": ranked, "unranked": unranked,
        "chart": mark_safe(places_chart(
            series, title=_("Places over rounds: %(name)s") % {"name": tournament.name}, labels=chart_labels())) if series else "",
    })


def round_detail(request, slug, number):
    tournament = get_object_or_404(Tournament, slug=slug)
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    organiser = _organiser(request)
    show_draw = rnd.draw_released or organiser
    show_results = show_draw and (rnd.results_released or organiser)
    tables = selectors.round_tables(rnd) if show_draw else []
    return render(request, "league/round.html", {
        "tournament": tournament, "round": rnd, "organiser": organiser,
        "show_draw": show_draw, "show_results": show_results, "tables": tables,
        # the games in play, in miniature: only where their results may be seen
        "live": selectors.round_live(tables) if show_results else [],
    })


def projector(request, slug):
    """The projector: the latest round's draw (each player's table and
    seat, sorted by name) and the whole standings, on one screen whatever
    the field: its script sizes the text to fill the screen, lays each list
    in as many columns as the width takes and turns the pages every
    ``?turn=`` seconds (8); it reloads for new results every ``?every=``
    seconds (20), at the end of a turn of the pages."""
    tournament = get_object_or_404(Tournament, slug=slug)
    # the wall shows only what the organiser has released, whoever opens it
    latest = tournament.round_set.order_by("-number").first()
    rnd = tournament.round_set.filter(draw_released=True).order_by("-number").first()
    waiting = latest is not None and not latest.draw_released   # the next draw, not released yet
    draw = []
    if rnd is not None and not waiting:
        for t in selectors.round_tables(rnd):
            for seat in t["seats"]:
                name = seat.entry.player.name if seat.entry else str(seat)
                draw.append({"name": name, "table": t["table"].number, "seat": seat.position + 1,
                             "ai": seat.entry is None})
        draw.sort(key=lambda d: (d["ai"], d["name"].casefold()))
    closed = [r.number for r in tournament.round_set.all()
              if r.status == Round.Status.CLOSED and r.results_released]
    standings = selectors.tournament_standings(tournament, released_only=True) if closed else []
    every = request.GET.get("every", "20")
    every = int(every) if every.isdigit() and 5 <= int(every) <= 600 else 20
    turn = request.GET.get("turn", "8")
    turn = int(turn) if turn.isdigit() and 2 <= int(turn) <= 60 else 8
    return render(request, "league/projector.html", {
        "tournament": tournament, "round": rnd, "draw": draw, "every": every, "turn": turn,
        "waiting": waiting,
        "after": max(closed) if closed else None,
        "columns": _columns(tournament.precedence)[:3],
        # a standings column's least width, in em: rank, a name of ~14 em, the metrics
        "standings_em": 17 + 4 * len(tournament.precedence[:3]),
        "rows": [r for r in _rows(standings, marks=selectors.tournament_entry_marks(tournament)) if r["row"].ranked],
    })


def _round_paper(request, tournament, rnd) -> dict:
    """What the round's paper shows, for the page and for the PDF alike.

    :raises Http404: the round's draw is not released (and the reader is
        not the organiser)."""
    import segno
    from django.http import Http404

    if not rnd.draw_released and not _organiser(request):
        raise Http404(gettext("the draw of round %(n)s is not released yet") % {"n": rnd.number})
    tables = selectors.round_tables(rnd)
    by_name = sorted(({"name": s.entry.player.name if s.entry else str(s), "table": t["table"].number,
                       "seat": s.position + 1} for t in tables for s in t["seats"]),
                     key=lambda d: d["name"].casefold())
    family = tournament.family_info
    # the family's lines: contract rummy's seven hands with their
    # contracts, an Okey match's game lines (as many as a match may take)
    lines = family.sheet_lines() if family.sheet.kind != "racks" else []
    lines = [dict(line, label=_(line["label"]) if line["label"] else "") for line in lines]   # in the catalogue
    sheets = []
    for t in tables:
        games = t["games"]
        entry_url = None
        if games and getattr(request.user, "is_staff", False) and rnd.status != Round.Status.CLOSED:
            code = entries.table_entry_code(table=t["table"])
            entry_url = absolute_url(request, reverse("league:table-entry", args=[code]))
        qr = mark_safe(segno.make(entry_url, error="m").svg_inline(scale=3, dark="#000")) if entry_url else ""
        # each player's code beside their name, with the QR: the organiser's print only
        codes = entries.seat_codes(t["table"]) if entry_url else {}
        seats = [SimpleNamespace(position=s.position, entry=s.entry, label=str(s), code=codes.get(s.position, ""))
                 for s in t["seats"]]
        # the sheet's columns: the family's fixed ones (a match's game lines
        # have six) and one per seat; more than five print on A4's side
        columns = (6 if family.sheet.kind == "lines" else 1) + len(t["seats"])
        sheets.append({"table": t["table"], "seats": seats, "games": games, "qr": qr, "url": entry_url,
                       "wide": columns > 5})
    return {
        "tournament": tournament, "round": rnd, "tables": tables, "by_name": by_name, "sheets": sheets,
        "family_sheet": family.sheet, "lines": lines,
        "start_points": family.sheet_start(tournament.variant, tournament.rules),
        "family_name": selectors.family_name(tournament.family),
    }


def round_print(request, slug, number):
    """The round on paper: the seating by table and by name, then one score
    sheet per table (a page each, A4 from the browser's print): the players,
    the scoring boxes of the family (each Rummikub game of the round; the
    seven hands of contract rummy with their contracts; Okey's game lines),
    and, for the organiser (staff), a QR code and short link that open the
    table's own score entry on a phone (``/s/<code>/``, this table and
    round only, until the round closes). The public sees the sheets without
    them: the link is the table's key."""
    tournament = get_object_or_404(Tournament, slug=slug)
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    return render(request, "league/round_print.html", _round_paper(request, tournament, rnd))


def round_pdf(request, slug, number):
    """The same paper as one PDF (WeasyPrint renders the print page's own
    HTML and print CSS): a page of seating, then a page per table. Without
    the Pango library WeasyPrint needs, a 503 that says what to install."""
    tournament = get_object_or_404(Tournament, slug=slug)
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    try:
        from weasyprint import HTML
    except OSError as exc:  # the system's Pango is missing
        return HttpResponse(f"PDF unavailable: WeasyPrint cannot load Pango ({exc}); "
                            "install the libpango-1.0-0 package, or print the page from the browser",
                            status=503, content_type="text/plain; charset=utf-8")
    context = _round_paper(request, tournament, rnd) | {"pdf": True}
    html = render_to_string("league/round_print.html", context, request=request)
    pdf = HTML(string=html, base_url=request.build_absolute_uri("/")).write_pdf()
    response = HttpResponse(pdf, content_type="application/pdf")
    name = f"{tournament.slug}-round-{rnd.number}.pdf"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def player_detail(request, pk):
    player = get_object_or_404(Player.objects.select_related("club"), pk=pk)
    history = selectors.player_history(player)
    return render(request, "league/player.html", {
        "player": player, "history": history,
        "summaries": selectors.player_summaries(player, history),
        "mine": analysis.player_analysis(player, released_only=not _organiser(request)),
    })


def club_detail(request, slug):
    club = get_object_or_404(Club, slug=slug)
    tournaments = selectors.club_chart_tournaments(club)
    wanted = request.GET.get("chart")
    chart_tournament = next((t for t in tournaments if t.slug == wanted), None) \
        or selectors.default_chart_tournament(tournaments)
    chart = ""
    if chart_tournament is not None:
        members = club.players.values_list("pk", flat=True)
        series = selectors.tournament_places_series(chart_tournament, players=members)
        chart = places_chart(series, title=_("Places over rounds: %(name)s") % {"name": chart_tournament.name},
                             labels=chart_labels())
    return render(request, "league/club.html", {
        "club": club, "boards": _boards(selectors.club_leaderboards(club)),
        "chart": mark_safe(chart), "chart_tournament": chart_tournament,
        "chart_tournaments": [(t, selectors.family_name(t.family)) for t in tournaments],
    })


def league_detail(request, slug):
    league = get_object_or_404(League, slug=slug)
    return render(request, "league/league.html", {
        "league": league, "tournaments": league.tournaments.all(),
        "boards": _boards(selectors.league_tables(league)),
    })


def ratings(request):
    sections = []
    for family in selectors.families_played():
        table = selectors.player_ratings(family)
        players = selectors.players_by_id(table)
        rows = sorted(((players[p], r) for p, r in table.items() if p in players),
                      key=lambda pr: (-pr[1].ordinal, pr[0].name))
        sections.append({"family": family, "name": selectors.family_name(family),
                         "rows": rows})
    return render(request, "league/ratings.html", {"sections": sections})


# --- CSV --------------------------------------------------------------------------

def _writer(response):
    """A CSV writer whose every cell goes through :func:`csv_cell`."""
    writer = csv.writer(response)
    return SimpleNamespace(writerow=lambda row: writer.writerow([csv_cell(c) for c in row]))


def standings_csv(tournament: Tournament, rows) -> HttpResponse:
    """Standings as CSV: rank (``3=`` for a tie; empty for a player without
    a game, listed last), player, club, games, each metric (the ranking
    basis first), and a note: ``withdrew after round k``, ``not checked
    in``, ``no game yet``."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-standings.csv"'
    writer = _writer(response)
    keys = tournament.precedence
    writer.writerow(["rank", "player", "club", "games"] + [METRICS[k].name for k in keys] + ["note"])
    players = selectors.players_by_id(r.player for r in rows)
    marks = selectors.tournament_entry_marks(tournament)
    for r in rows:
        p = players.get(r.player)
        mark = marks.get(r.player)
        if not r.ranked:
            note = _entry_note(mark)
        elif mark is not None and mark.withdrawn_after is not None:
            note = gettext("withdrew after round %(n)s") % {"n": mark.withdrawn_after}
        else:
            note = ""
        writer.writerow([r.rank_label if r.ranked else "", p.name if p else r.player,
                         p.club.name if p and p.club else "", r.record.played]
                        + ["" if r.metrics.get(k) is None else r.metrics[k] for k in keys] + [note])
    return response


def results_csv(tournament: Tournament, released_only: bool = False) -> HttpResponse:
    """Every game result as CSV: round, table, game, seat, player, score, won
    (``released_only``: of the rounds whose results are released)."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-results.csv"'
    writer = _writer(response)
    writer.writerow(["round", "table", "game", "seat", "player", "score", "won", "source"])
    for rnd in tournament.round_set.all():
        if released_only and not rnd.results_released:
            continue
        for t in selectors.round_tables(rnd):
            for g in t["games"]:
                res = g["result"]
                if res is None:
                    continue
                for seat in t["seats"]:
                    writer.writerow([rnd.number, t["table"].number, g["game"].number,
                                     seat.position + 1, str(seat),
                                     res.scores[seat.position],
                                     "yes" if seat.position in res.winners else "",
                                     res.source])
    return response


def tournament_standings_csv(request, slug):
    tournament = get_object_or_404(Tournament, slug=slug)
    return standings_csv(tournament, selectors.tournament_standings(
        tournament, released_only=not _organiser(request)))


def tournament_results_csv(request, slug):
    tournament = get_object_or_404(Tournament, slug=slug)
    return results_csv(tournament, released_only=not _organiser(request))


def _device(request) -> str:
    """This phone's mark: a random one kept in its session (so the desk can
    tell two phones apart, and see one phone entering for two players)."""
    import secrets

    mark = request.session.get("tk_device")
    if not isinstance(mark, str) or not mark:
        mark = secrets.token_hex(3)
        request.session["tk_device"] = mark
    return mark


def table_entry(request, code):
    """A table's score entry, on a phone, no account (the QR code or short
    link on its sheet): each game of the round with its sheet; a player
    picks their name and enters it, the engine checks it at once and shows
    the scores; a second player confirms by entering the same sheet (a
    different one goes to the organiser as a discrepancy). The link works
    for this table and round only, until the round closes."""
    from . import services
    from .models import SheetEntry, TableGame
    from .sheet_compare import compare_entries
    from .sheet_forms import form_for, sheet_of

    try:
        table = entries.table_for_code(code)
    except services.LeagueError as exc:
        return render(request, "league/table_entry.html", {"refused": str(exc)}, status=404)
    tournament = table.round.tournament
    seats = list(table.seats.select_related("entry__player").order_by("position"))
    names = [s.entry.player.name for s in seats if s.entry is not None]
    seat_names = [s.entry.player.name if s.entry else str(s) for s in seats]
    games = list(TableGame.objects.filter(table=table).order_by("number"))
    message, error, status, posted = request.GET.get("done", ""), False, 200, None
    if request.method == "POST":
        game = next((g for g in games if str(g.pk) == request.POST.get("game", "")), None)
        if game is None:
            message, error, status = _("choose one of this table's games"), True, 400
        else:
            form = form_for(tournament)(request.POST, seats=seats)
            posted = (game.pk, form, request.POST.get("by", ""))
            if form.is_valid():
                try:
                    entry = entries.sheet_entry_submit(game=game, sheet=sheet_of(form),
                                                        by=request.POST.get("by", ""),
                                                        code=request.POST.get("code", ""),
                                                        device=_device(request),
                                                        agent=request.headers.get("User-Agent", ""))
                except services.LeagueError as exc:
                    message, error, status = str(exc), True, 400
                else:
                    done = {SheetEntry.Status.ENTERED: _("%(game)s: entered by %(by)s; another "
                                                         "player now confirms it"),
                            SheetEntry.Status.CONFIRMED: _("%(game)s: confirmed, the result is recorded"),
                            SheetEntry.Status.DISCREPANCY: _("%(game)s: differs from the other entry; "
                                                           "the organiser decides")}[entry.status]
                    done = done % {"game": game, "by": entry.by}
                    return redirect(f"{request.path}?done={quote(done)}")
            else:
                message, error, status = _("the sheet has errors: see below"), True, 400
    rows = []
    for game in games:
        result = game.results.filter(status="confirmed").first()
        pending = list(game.sheet_entries.filter(status__in=("entered", "discrepancy")))
        returned = not result and not pending and game.sheet_entries.filter(status="returned").exists()
        if posted and posted[0] == game.pk:
            form = posted[1]
        else:
            shown = pending[-1].checked if pending else None
            form = form_for(tournament)(
                seats=seats, current=SimpleNamespace(event=SimpleNamespace(payload=shown)) if shown else None)
        clash = [p for p in pending if p.status == SheetEntry.Status.DISCREPANCY]
        compare = compare_entries(clash, seat_names) if len(clash) > 1 else []
        rows.append({"game": game, "result": result, "pending": pending, "form": form, "returned": returned,
                     "compare": compare,
                     "by": posted[2] if posted and posted[0] == game.pk else ""})
    return render(request, "league/table_entry.html", {
        "tournament": tournament, "round": table.round, "table": table, "names": names,
        "rows": rows, "message": message, "error": error, "family_sheet": tournament.family_info.sheet,
    }, status=status)
