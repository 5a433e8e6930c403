"""Public pages of the league (no login): tournament standings, round seating
and results, player histories, club leaderboards, league tables, ratings,
and the CSV exports. Views only read, through :mod:`league.selectors`."""

from __future__ import annotations

import csv

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.safestring import mark_safe

from . import selectors
from .charts import Series, places_chart
from .models import Club, League, Player, Round, Tournament
from .standings import METRICS


def _rows(standings, ratings=None):
    players = selectors.players_by_id(r.player for r in standings)
    out = []
    for r in standings:
        rating = (ratings or {}).get(r.player)
        out.append({"row": r, "player": players.get(r.player),
                    "rating": rating.display if rating else None})
    return out


def _columns(precedence):
    return [METRICS[k] for k in precedence]


def index(request):
    return render(request, "league/index.html", {
        "tournaments": Tournament.objects.select_related("club").all()[:50],
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
    return render(request, "league/tournament.html", {
        "tournament": tournament, "rounds": rounds, "chosen": chosen,
        "columns": _columns(tournament.precedence),
        "rows": _rows(standings, selectors.player_ratings()),
    })


def round_detail(request, slug, number):
    tournament = get_object_or_404(Tournament, slug=slug)
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    return render(request, "league/round.html", {
        "tournament": tournament, "round": rnd,
        "tables": selectors.round_tables(rnd),
    })


def player_detail(request, pk):
    player = get_object_or_404(Player.objects.select_related("club"), pk=pk)
    history = selectors.player_history(player)
    rating = selectors.player_ratings().get(player.pk)
    return render(request, "league/player.html", {
        "player": player, "history": history, "rating": rating,
        "total": sum(h.score for h in history), "wins": sum(h.won for h in history),
    })


def club_detail(request, slug):
    club = get_object_or_404(Club, slug=slug)
    board = selectors.club_leaderboard(club)
    members = set(club.players.values_list("pk", flat=True))
    tournament = (Tournament.objects.filter(entries__player__club=club)
                  .exclude(round_set=None).distinct().order_by("-date", "-id").first())
    chart = ""
    if tournament is not None:
        places = selectors.tournament_places(tournament)
        names = selectors.players_by_id(members)
        series = []
        for pid in sorted(members, key=lambda p: names[p].name if p in names else ""):
            pts = [(r, ranks[pid]) for r, ranks in places.items() if pid in ranks]
            if pts:
                series.append(Series(names[pid].name, pts))
        chart = places_chart(series, title=f"Places over rounds: {tournament}")
    return render(request, "league/club.html", {
        "club": club, "rows": _rows(board, selectors.player_ratings()),
        "columns": _columns(["wins", "points", "h2h", "penalty"]),
        "chart": mark_safe(chart), "chart_tournament": tournament,
    })


def league_detail(request, slug):
    league = get_object_or_404(League, slug=slug)
    return render(request, "league/league.html", {
        "league": league, "tournaments": league.tournaments.all(),
        "rows": _rows(selectors.league_table(league), selectors.player_ratings()),
        "columns": _columns(["wins", "points", "h2h", "penalty"]),
    })


def ratings(request):
    table = selectors.player_ratings()
    players = selectors.players_by_id(table)
    rows = sorted(((players[p], r) for p, r in table.items() if p in players),
                  key=lambda pr: -pr[1].ordinal)
    return render(request, "league/ratings.html", {"rows": rows})


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
