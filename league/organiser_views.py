"""The organiser's pages (staff, signed in): a new tournament, the
check-in desk (which seats each round), players from and to CSV, and the
round desk (every table's state, the clock, swaps, disputes, sheets to
accept or send back, closing the round). The public pages are in
:mod:`league.views`."""

from __future__ import annotations

from urllib.parse import quote

from django.contrib.admin.views.decorators import staff_member_required as _staff_member_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from . import seating_reads, selectors
from . import table_entry as entries
from .models import Entry, Player, Round, Tournament


def staff_member_required(view):
    """Staff only; anyone else is sent to the site's sign-in page (not the
    admin's)."""
    return _staff_member_required(view, login_url="login")


def _site_address(request) -> dict:
    """What the desks show of the public address: ``SITE_URL`` and whether
    it is set (else the address browsed with, which a phone may not reach)."""
    from django.conf import settings

    return {"site_url": settings.SITE_URL or request.build_absolute_uri("/").rstrip("/"),
            "site_url_set": bool(settings.SITE_URL)}


def _dispute_kinds(family: str) -> list[tuple[str, str]]:
    """The dispute kinds the family's judge answers, with what each means."""
    from games.disputes import family_kinds
    from games.models import Dispute

    return [(kind, Dispute.Kind(kind).label) for kind in family_kinds(family)]


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
            elif action in ("release-draw", "withhold-draw", "release-results", "withhold-results"):
                verb, what = action.split("-")
                rnd = services.round_release(round=rnd, **{what: verb == "release"})
                done = {"release-draw": _("round %(n)s's draw released: the public pages and the projector show it"),
                        "withhold-draw": _("round %(n)s's draw withheld from the public pages and the projector"),
                        "release-results": _("round %(n)s's results released: the public standings count them"),
                        "withhold-results": _("round %(n)s's results withheld from the public pages and the "
                                              "projector")}[action] % {"n": rnd.number}
            elif action == "conflict-add":
                pa, pb = (_int(request.POST.get(k)) for k in ("player_a", "player_b"))
                players = {p.pk: p for p in Player.objects.filter(pk__in=[x for x in (pa, pb) if x is not None])}
                if pa not in players or pb not in players:
                    raise services.LeagueError(_("choose the two players who must not sit together"))
                conflict = services.seating_conflict_add(tournament=tournament, player_a=players[pa],
                                                         player_b=players[pb], reason=request.POST.get("reason", ""))
                done = (_("%(a)s and %(b)s will not sit at one table (from the next seating; the swap costs "
                          "count them now)") % {"a": conflict.player_a.name, "b": conflict.player_b.name})
            elif action == "conflict-remove":
                from .models import SeatingConflict

                conflict = get_object_or_404(SeatingConflict, pk=_int(request.POST.get("conflict")) or 0,
                                             tournament=tournament)
                services.seating_conflict_remove(conflict=conflict)
                done = _("%(a)s and %(b)s may sit together again") % {"a": conflict.player_a.name,
                                                                       "b": conflict.player_b.name}
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
                raise services.LeagueError(_("unknown action %(a)r (start, close, swap, reseat, release-draw, withhold-draw, "
                                             "release-results, withhold-results, conflict-add, conflict-remove, dispute, "
                                             "accept or send-back)")
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
    final = seating_reads.round_seating_final(rnd)
    swap = None
    if not final and "a" in request.GET:
        a, b = _int(request.GET.get("a")), _int(request.GET.get("b"))
        swap = seating_reads.round_swap_cost(rnd, a, b) if a is not None and b is not None else None
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
    from .models import SeatingConflict
    from .seating import seating_conflicts

    conflicts = list(SeatingConflict.objects.filter(tournament=tournament).select_related("player_a", "player_b"))
    layout, _where = seating_reads.round_layout(rnd)
    names = {p.pk: p.name for c in conflicts for p in (c.player_a, c.player_b)}
    together = [{"table": t + 1, "names": sorted(names.get(p, str(p)) for p in pair)}
                for t, pair in seating_conflicts(layout, [(c.player_a_id, c.player_b_id) for c in conflicts])]
    return render(request, "league/round_desk.html", {
        "conflicts": conflicts, "together": together,
        "entrants": [(e.player_id, e.player.name) for e in tournament.entries.select_related("player")
                     .order_by("player__name")],
        "tournament": tournament, "round": rnd, "tables": tables, "every": every,
        "counts": [(s, counts[s], selectors.DESK_STATE_LABELS[s]) for s in selectors.DESK_STATES if counts[s]],
        "message": message, "error": status != 200,
        "all_in": bool(tables) and all(t["state"] == "result in" for t in tables),
        "seats": seats, "swap": swap, "seating_final": final, "kinds": _dispute_kinds(tournament.family),
        **_site_address(request),
    }, status=status)


@staff_member_required
def check_in(request, slug):
    """The check-in desk, for a phone: a search box, one tap per arriving
    player, a walk-in added in one line, a drop-out withdrawn, and "Seat
    round N" once the previous round is closed (then on to that round's
    desk). Rounds are seated only from checked-in players (late arrivals
    from the next round). A tap is sent in place by the page's script
    (header ``X-Requested-With: fetch``: the page is answered, not
    redirected, and the script swaps in its list); without scripts every
    form posts and redirects back as ever."""
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
        # the page's own script sends the tap in place (fetch) and takes the
        # page back to swap in the list, the count and the message: no
        # redirect then, so the desk keeps its scroll and its search box
        in_place = request.headers.get("X-Requested-With") == "fetch"
        if status == 200 and not in_place:
            return redirect(f"{request.path}?done={quote(message)}")
    entries = list(tournament.entries.select_related("player").order_by("player__name"))
    latest = tournament.round_set.order_by("-number").first()
    return render(request, "league/check_in.html", {
        "latest": latest, "can_seat": (latest is None or latest.status == Round.Status.CLOSED)
        and (latest.number if latest else 0) < tournament.rounds,
        "next_round": (latest.number if latest else 0) + 1,
        "tournament": tournament, "entries": entries, "message": message or request.GET.get("done", ""),
        "error": status != 200, "present": sum(1 for e in entries if e.checked_in and e.withdrawn_after is None),
        **_site_address(request),
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
                    k: sum(1 for r in rows if r.status == k) for k in ("new", "matched", "doubtful", "duplicate", "error")})
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
        if form.cleaned_data.get("new_club"):
            tournament.club = services.club_for_name(name=form.cleaned_data["new_club"])
        base = slugify(tournament.name)[:150] or "tournament"
        slug, n = base, 2
        while Tournament.objects.filter(slug=slug).exists():
            slug, n = f"{base}-{n}", n + 1
        tournament.slug = slug
        tournament.save()
        done = _("%(name)s created: check the players in") % {"name": tournament.name}
        return redirect(f"{reverse('league:check-in', args=[tournament.slug])}?done={quote(done)}")
    return render(request, "league/tournament_new.html", {
        "form": form, "variant": cls, "variants": [(c.variant, selectors.variant_name(c)) for c in variants()],
    }, status=400 if request.method == "POST" else 200)
