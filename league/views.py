"""Public pages of the league (no login): tournament standings, round seating
and results, player histories, club leaderboards, league tables, ratings,
and the CSV exports, read through :mod:`league.selectors`; the projector;
and, for staff, the check-in desk, which writes through :mod:`league.services`."""

from __future__ import annotations

import csv
from dataclasses import dataclass

from django.http import HttpResponse
from urllib.parse import quote

from django.contrib.admin.views.decorators import staff_member_required
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext as _

from . import selectors
from . import table_entry as entries
from .charts import places_chart
from .models import Club, Entry, League, Player, Round, Tournament
from .standings import METRICS


def _rows(standings, ratings=None):
    players = selectors.players_by_id(r.player for r in standings)
    out = []
    for r in standings:
        rating = (ratings or {}).get(r.player)
        out.append({"row": r, "player": players.get(r.player),
                    "rating": rating.display if rating else None})
    return out


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
             "rows": _rows(b.standings, selectors.player_ratings(b.family))}
            for b in boards]


def index(request):
    return render(request, "league/index.html", {
        "tournaments": [(t, selectors.family_name(t.family))
                        for t in Tournament.objects.select_related("club").all()[:50]],
        "clubs": Club.objects.all(),
        "leagues": League.objects.all(),
    })


def tournament_standings(request, slug):
    tournament = get_object_or_404(Tournament, slug=slug)
    rounds = list(tournament.round_set.all())
    only = request.GET.get("round")
    chosen = None
    if only and only.isdigit() and any(r.number == int(only) for r in rounds):
        chosen = int(only)
    standings = selectors.tournament_standings(
        tournament, rounds=[chosen] if chosen else None)
    series = selectors.tournament_places_series(tournament)
    return render(request, "league/tournament.html", {
        "tournament": tournament, "rounds": rounds, "chosen": chosen,
        "family_name": selectors.family_name(tournament.family),
        "columns": _columns(tournament.precedence),
        "rows": _rows(standings, selectors.player_ratings(tournament.family)),
        "chart": mark_safe(places_chart(
            series, title=_("Places over rounds: %(name)s") % {"name": tournament.name})) if series else "",
    })


def round_detail(request, slug, number):
    tournament = get_object_or_404(Tournament, slug=slug)
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    return render(request, "league/round.html", {
        "tournament": tournament, "round": rnd,
        "tables": selectors.round_tables(rnd),
    })


def _dispute_kinds(family: str) -> list[tuple[str, str]]:
    """The dispute kinds the family's judge answers, with what each means."""
    from games.disputes import FAMILY_KINDS
    from games.models import Dispute

    return [(kind, Dispute.Kind(kind).label) for kind in FAMILY_KINDS.get(family, ())]


def _int(text) -> int | None:
    return int(text) if isinstance(text, str) and text.isdigit() else None


@staff_member_required
def round_desk(request, slug, number):
    """The organiser's screen for a round in play: every table's state
    (disputed, waiting, playing, game over, result in) and its games done,
    the round's clock, links to each game and score sheet; it refreshes
    itself every ``?every=`` seconds (15). "Start the clock" starts the
    round's clock; "Close the round" closes it once every result is in.
    Until play begins the organiser may swap two seats by hand, seeing first
    what the swap does to repeat meetings and repeat seats (``?a=&b=``), or
    draw the seating again. For a game played through the system the desk
    opens a dispute on one of its moves and shows each dispute's verdict
    once a worker has judged it."""
    from . import services

    tournament = get_object_or_404(Tournament, slug=slug)
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    message, status = request.GET.get("done", ""), 200
    if request.method == "POST":
        action = request.POST.get("action", "")
        try:
            if action == "start":
                services.round_start_clock(round=rnd)
                done = _("round %(n)s's clock started") % {"n": rnd.number}
            elif action == "close":
                services.round_close(round=rnd)
                done = _("round %(n)s closed") % {"n": rnd.number}
            elif action == "swap":
                a, b = (_int(request.POST.get(k)) for k in ("seat_a", "seat_b"))
                if a is None or b is None:
                    raise services.LeagueError(_("choose the two seats to swap"))
                rnd = services.round_swap(round=rnd, seat_a=a, seat_b=b)
                done = (_("seats swapped: repeat meetings now %(m)s, repeat seats %(s)s")
                        % {"m": rnd.repeat_mates, "s": rnd.repeat_seats})
            elif action == "reseat":
                rnd = services.round_reseat(round=rnd)
                done = (_("round %(n)s seated again (seed %(seed)s): print the new sheets")
                        % {"n": rnd.number, "seed": rnd.seed})
            elif action == "dispute":
                from games import disputes
                from games.errors import GameServiceError

                from .models import TableGame

                game = get_object_or_404(TableGame, pk=_int(request.POST.get("game")) or 0, table__round=rnd,
                                         stream__isnull=False)
                move = _int(request.POST.get("move"))
                if move is None:
                    raise services.LeagueError(_("give the number of the move to dispute"))
                try:
                    opened = disputes.dispute_open(game=game.stream_id, move_version=move,
                                                   kind=request.POST.get("kind", ""),
                                                   actor=request.user.get_username())
                except GameServiceError as exc:
                    raise services.LeagueError(str(exc)) from None
                done = (_("%(game)s: dispute on move %(move)s opened (%(status)s)")
                        % {"game": game, "move": move, "status": opened.get_status_display()})
            elif action == "accept":
                from .models import SheetEntry

                entry = get_object_or_404(SheetEntry, pk=request.POST.get("entry") or 0,
                                          game__table__round=rnd)
                entries.sheet_entry_accept(entry=entry, actor=request.user.get_username())
                done = _("%(game)s: %(by)s's sheet accepted") % {"game": entry.game, "by": entry.by}
            elif action == "send-back":
                from .models import SheetEntry

                entry = get_object_or_404(SheetEntry, pk=_int(request.POST.get("entry")) or 0,
                                          game__table__round=rnd)
                entries.sheet_entry_send_back(entry=entry)
                done = _("%(game)s: sent back to the table to enter again") % {"game": entry.game}
            else:
                raise services.LeagueError(_("unknown action %(a)r (start, close, swap, reseat, dispute, accept or send-back)")
                                           % {"a": action})
        except services.LeagueError as exc:
            message, status = str(exc), 400
        else:
            return redirect(f"{request.path}?done={quote(done)}")
        rnd.refresh_from_db()
    tables = selectors.round_desk(rnd)
    for t in tables:
        if rnd.status != Round.Status.CLOSED:
            t["entry_url"] = reverse("league:table-entry", args=[entries.table_entry_code(table=t["table"])])
    counts = {s: sum(1 for t in tables if t["state"] == s) for s in selectors.DESK_STATES}
    final = selectors.round_seating_final(rnd)
    swap = None
    if not final and "a" in request.GET:
        a, b = _int(request.GET.get("a")), _int(request.GET.get("b"))
        swap = selectors.round_swap_cost(rnd, a, b) if a is not None and b is not None else None
        if swap is None:
            message, status = _("choose two different seats of this round to swap"), 400
        else:
            swap |= {"seat_a": a, "seat_b": b}
    seats = [] if final else [
        {"pk": s.pk, "label": _("table %(t)s, seat %(s)s: %(who)s") % {"t": t["table"].number, "s": s.position + 1,
                                                                    "who": s}}
        for t in tables for s in t["seats"]]
    every = request.GET.get("every", "15")
    every = int(every) if every.isdigit() and 5 <= int(every) <= 600 else 15
    return render(request, "league/round_desk.html", {
        "tournament": tournament, "round": rnd, "tables": tables, "every": every,
        "counts": [(s, counts[s], selectors.DESK_STATE_LABELS[s]) for s in selectors.DESK_STATES if counts[s]],
        "message": message, "error": status != 200,
        "all_in": bool(tables) and all(t["state"] == "result in" for t in tables),
        "seats": seats, "swap": swap, "seating_final": final, "kinds": _dispute_kinds(tournament.family),
    }, status=status)


def projector(request, slug):
    """The projector: the latest round's draw (each player's table, sorted
    by name) and the standings, in large type for a wall, refreshing itself
    every ``?every=`` seconds (20)."""
    tournament = get_object_or_404(Tournament, slug=slug)
    rnd = tournament.round_set.order_by("-number").first()
    draw = []
    if rnd is not None:
        for t in selectors.round_tables(rnd):
            for seat in t["seats"]:
                name = seat.entry.player.name if seat.entry else str(seat)
                draw.append({"name": name, "table": t["table"].number, "seat": seat.position + 1,
                             "ai": seat.entry is None})
        draw.sort(key=lambda d: (d["ai"], d["name"].casefold()))
    closed = [r.number for r in tournament.round_set.all() if r.status == Round.Status.CLOSED]
    standings = selectors.tournament_standings(tournament) if closed else []
    every = request.GET.get("every", "20")
    every = int(every) if every.isdigit() and 5 <= int(every) <= 600 else 20
    return render(request, "league/projector.html", {
        "tournament": tournament, "round": rnd, "draw": draw, "every": every,
        "after": max(closed) if closed else None,
        "columns": _columns(tournament.precedence)[:3],
        "rows": _rows(standings)[:20],
    })


@staff_member_required
def check_in(request, slug):
    """The check-in desk, for a phone: a search box, one tap per arriving
    player, a walk-in added in one line, a drop-out withdrawn, and "Seat
    round N" once the previous round is closed (then on to that round's
    desk). Rounds are seated only from checked-in players (late arrivals
    from the next round)."""
    from . import services

    tournament = get_object_or_404(Tournament, slug=slug)
    message, status = "", 200
    if request.method == "POST":
        action = request.POST.get("action", "")
        try:
            if action == "seat":
                rnd = services.round_seat(tournament=tournament)
                done = (_("round %(n)s seated at %(tables)s tables (repeat table-mates %(mates)s)")
                        % {"n": rnd.number, "tables": rnd.tables.count(), "mates": rnd.repeat_mates})
                return redirect(reverse("league:round-desk", args=[tournament.slug, rnd.number])
                                + f"?done={quote(done)}")
            if action == "walk-in":
                entry = services.entry_walk_in(tournament=tournament, name=request.POST.get("name", ""))
                message = _("%(name)s entered and checked in") % {"name": entry.player.name}
            else:
                entry = get_object_or_404(Entry, pk=request.POST.get("entry") or 0, tournament=tournament)
                if action == "in":
                    services.entry_check_in(entry=entry)
                    message = _("%(name)s checked in") % {"name": entry.player.name}
                elif action == "out":
                    entry.checked_in = False
                    entry.save(update_fields=["checked_in"])
                    message = _("%(name)s not here after all") % {"name": entry.player.name}
                elif action == "withdraw":
                    services.entry_withdraw(entry=entry)
                    message = _("%(name)s withdrew") % {"name": entry.player.name}
                else:
                    raise services.LeagueError(_("unknown action %(a)r") % {"a": action})
        except services.LeagueError as exc:
            message, status = str(exc), 400
        if status == 200:
            return redirect(f"{request.path}?done={quote(message)}")
    entries = list(tournament.entries.select_related("player").order_by("player__name"))
    latest = tournament.round_set.order_by("-number").first()
    return render(request, "league/check_in.html", {
        "latest": latest, "can_seat": (latest is None or latest.status == Round.Status.CLOSED)
        and (latest.number if latest else 0) < tournament.rounds,
        "next_round": (latest.number if latest else 0) + 1,
        "tournament": tournament, "entries": entries, "message": message or request.GET.get("done", ""),
        "error": status != 200, "present": sum(1 for e in entries if e.checked_in and e.withdrawn_after is None),
    }, status=status)


@staff_member_required
def players_import(request):
    """A club's player list from CSV: a preview of new, matched, doubtful
    and unreadable rows, then "Import" saves them in one go (doubtful rows
    only when ticked). Nothing is saved by the preview. From a tournament's
    check-in desk (``?tournament=<slug>``) the imported players are entered
    in it too."""
    from . import players_csv, services

    slug = request.GET.get("tournament") or request.POST.get("tournament") or ""
    tournament = get_object_or_404(Tournament, slug=slug) if slug else None
    context: dict = {"columns": players_csv.COLUMNS, "tournament": tournament}
    status = 200
    if request.method == "POST":
        upload = request.FILES.get("file")
        text = request.POST.get("csv", "")
        if upload is not None:
            if upload.size > 2_000_000:
                text, context["error"] = "", _("the file is larger than 2 MB")
            else:
                text = upload.read().decode("utf-8-sig", errors="replace")
        if "error" not in context:
            try:
                rows = players_csv.parse(text)
            except players_csv.CsvError as exc:
                context["error"] = str(exc)
            else:
                if request.POST.get("action") == "import":
                    take = {int(x) for x in request.POST.getlist("take") if x.isdigit()}
                    try:
                        done = services.players_import(rows=rows, take_doubtful=take, tournament=tournament)
                    except services.LeagueError as exc:
                        context["error"] = str(exc)
                    else:
                        where = f"?tournament={tournament.slug}&" if tournament else "?"
                        return redirect(f"{request.path}{where}done={quote(_import_summary(done, tournament))}")
                context.update(rows=rows, csv=text, counts={
                    k: sum(1 for r in rows if r.status == k) for k in ("new", "matched", "doubtful", "error")})
        if "error" in context:
            status = 400
            context["csv"] = text
    context["done"] = request.GET.get("done", "")
    return render(request, "league/players_import.html", context, status=status)


def _import_summary(done: dict, tournament=None) -> str:
    text = _("%(created)s player(s) added, %(updated)s updated, %(skipped)s skipped") % done
    if tournament is not None:
        text += "; " + _("%(n)s entered in %(name)s") % {"n": len(done["players"]), "name": tournament.name}
    return text


@staff_member_required
def players_export(request):
    """Every player in the import's columns (staff: it holds emails)."""
    from . import players_csv

    response = HttpResponse(players_csv.export(Player.objects.select_related("club").order_by("name")),
                            content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="players.csv"'
    return response


def _round_paper(request, tournament, rnd) -> dict:
    """What the round's paper shows, for the page and for the PDF alike."""
    import segno

    from . import services

    tables = selectors.round_tables(rnd)
    by_name = sorted(({"name": s.entry.player.name if s.entry else str(s), "table": t["table"].number,
                       "seat": s.position + 1} for t in tables for s in t["seats"]),
                     key=lambda d: d["name"].casefold())
    hands = []
    if tournament.family == "contract":
        from engine.contract import HANDS, contract_text

        hands = [{"number": i + 1, "contract": contract_text(i)} for i in range(HANDS)]
    # an Okey match: one line per game, as many as a match from these points may take
    okey_lines = list(range(1, 13)) if tournament.family == "okey" else []
    sheets = []
    for t in tables:
        games = t["games"]
        entry_url = None
        if games and getattr(request.user, "is_staff", False) and rnd.status != Round.Status.CLOSED:
            code = entries.table_entry_code(table=t["table"])
            entry_url = request.build_absolute_uri(reverse("league:table-entry", args=[code]))
        qr = mark_safe(segno.make(entry_url, error="m").svg_inline(scale=3, dark="#000")) if entry_url else ""
        sheets.append({"table": t["table"], "seats": t["seats"], "games": games, "qr": qr, "url": entry_url})
    return {
        "tournament": tournament, "round": rnd, "tables": tables, "by_name": by_name, "sheets": sheets,
        "hands": hands, "okey_lines": okey_lines,
        "start_points": (tournament.rules or {}).get("start_points", 20), "family_name": selectors.family_name(tournament.family),
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
        chart = places_chart(series, title=_("Places over rounds: %(name)s") % {"name": chart_tournament.name})
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

def standings_csv(tournament: Tournament, rows) -> HttpResponse:
    """Standings as CSV: rank (``3=`` for a tie), player, club, each metric."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-standings.csv"'
    writer = csv.writer(response)
    keys = tournament.precedence
    writer.writerow(["rank", "player", "club", "games"] + [METRICS[k].name for k in keys])
    players = selectors.players_by_id(r.player for r in rows)
    for r in rows:
        p = players.get(r.player)
        writer.writerow([r.rank_label, p.name if p else r.player,
                         p.club.name if p and p.club else "", r.record.played]
                        + ["" if r.metrics.get(k) is None else r.metrics[k] for k in keys])
    return response


def results_csv(tournament: Tournament) -> HttpResponse:
    """Every game result as CSV: round, table, game, seat, player, score, won."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-results.csv"'
    writer = csv.writer(response)
    writer.writerow(["round", "table", "game", "seat", "player", "score", "won", "source"])
    for rnd in tournament.round_set.all():
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
    return standings_csv(tournament, selectors.tournament_standings(tournament))


def tournament_results_csv(request, slug):
    tournament = get_object_or_404(Tournament, slug=slug)
    return results_csv(tournament)


def table_entry(request, code):
    """A table's score entry, on a phone, no account (the QR code or short
    link on its sheet): each game of the round with its sheet; a player
    picks their name and enters it, the engine checks it at once and shows
    the scores; a second player confirms by entering the same sheet (a
    different one goes to the organiser as a discrepancy). The link works
    for this table and round only, until the round closes."""
    from types import SimpleNamespace

    from . import services
    from .models import SheetEntry, TableGame
    from .sheet_forms import form_for, sheet_of

    try:
        table = entries.table_for_code(code)
    except services.LeagueError as exc:
        return render(request, "league/table_entry.html", {"refused": str(exc)}, status=404)
    tournament = table.round.tournament
    seats = list(table.seats.select_related("entry__player").order_by("position"))
    names = [s.entry.player.name for s in seats if s.entry is not None]
    games = list(TableGame.objects.filter(table=table).order_by("number"))
    message, error, status, posted = request.GET.get("done", ""), False, 200, None
    if request.method == "POST":
        game = next((g for g in games if str(g.pk) == request.POST.get("game", "")), None)
        if game is None:
            message, error, status = _("choose one of this table's games"), True, 400
        else:
            form = form_for(tournament.family)(request.POST, seats=seats)
            posted = (game.pk, form)
            if form.is_valid():
                try:
                    entry = entries.sheet_entry_submit(game=game, sheet=sheet_of(form),
                                                        by=request.POST.get("by", ""))
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
            form = form_for(tournament.family)(
                seats=seats, current=SimpleNamespace(event=SimpleNamespace(payload=shown)) if shown else None)
        rows.append({"game": game, "result": result, "pending": pending, "form": form, "returned": returned,
                     "okey": tournament.family == "okey"})
    return render(request, "league/table_entry.html", {
        "tournament": tournament, "round": table.round, "table": table, "names": names,
        "rows": rows, "message": message, "error": error, "family": tournament.family,
    }, status=status)


@staff_member_required
def tournament_new(request):
    """A new tournament in a few steps, outside the admin: the game (family
    and variant, picked first: the page is then drawn for it), then the
    name, club or league and date, the variant's rule options as real
    fields with the engine's sentences (and, for contract rummy, the
    edition to start from), the table size, rounds, seating, tie-breaks and
    AI seats. Errors are shown next to their field; nothing is stored until
    the form is right. Then on to the check-in desk."""
    from django.utils.text import slugify

    from engine.errors import EngineError
    from engine.registry import find_variant
    from games.lobby import variants

    from . import services
    from .tournament_forms import NewTournamentForm

    wanted = request.POST.get("variant") or request.GET.get("variant") or "sabra"
    try:
        cls = find_variant(wanted)
    except EngineError:
        cls = find_variant("sabra")
    size = min(max(4, cls.min_players), cls.max_players)
    instance = Tournament(variant=cls.variant, family=cls.family, table_size=size,
                          ai_level=services.ai_level_for(cls.family, ""))
    form = NewTournamentForm(request.POST or None, instance=instance)
    if request.method == "POST" and form.is_valid():
        tournament = form.save(commit=False)
        base = slugify(tournament.name)[:150] or "tournament"
        slug, n = base, 2
        while Tournament.objects.filter(slug=slug).exists():
            slug, n = f"{base}-{n}", n + 1
        tournament.slug = slug
        tournament.save()
        done = _("%(name)s created: check the players in") % {"name": tournament.name}
        return redirect(f"{reverse('league:check-in', args=[tournament.slug])}?done={quote(done)}")
    return render(request, "league/tournament_new.html", {
        "form": form, "variant": cls, "variants": [(c.variant, f"{selectors.family_name(c.family)} · "
                                                              f"{c.variant}") for c in variants()],
    }, status=400 if request.method == "POST" else 200)
