"""Public pages: the list of games and one game's public view."""

from django.shortcuts import get_object_or_404, render

from . import selectors
from .models import Game


def game_list(request):
    games = selectors.game_list()[:100]
    return render(request, "games/game_list.html", {"games": games})


def game_detail(request, game_id: int):
    game = get_object_or_404(Game, pk=game_id)
    public = selectors.game_view(game, None)
    return render(request, "games/game_detail.html", {
        "game": game, "summary": selectors.game_summary(game), "public": public,
        "verdict": selectors.latest_verdict(game),
        "events": selectors.game_events(game) if game.is_over else None,
    })
