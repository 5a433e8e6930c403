"""Factories for the league tests."""

from __future__ import annotations

import pytest

from league import services
from league.models import Club, Player, Tournament


@pytest.fixture
def make_tournament(db):
    """``make_tournament(n, **fields)``: a club, ``n`` checked-in players
    named P01, P02, ... and a tournament they entered."""

    def make(n: int, *, name: str = "Club night", **fields) -> Tournament:
        club, _ = Club.objects.get_or_create(name="Test club")
        tournament = Tournament.objects.create(name=name, club=club, **fields)
        for i in range(n):
            player, _ = Player.objects.get_or_create(name=f"P{i + 1:02}", club=club)
            services.tournament_enter(tournament=tournament, player=player, checked_in=True)
        return tournament

    return make


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Each test starts with an empty cache (cached ratings of another
    test's rolled-back rows must not leak in)."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _english_after():
    """Each test ends in the default language: a page asked in Turkish
    leaves Turkish active in the thread (the locale middleware does not
    switch back), and a later test's services would speak it."""
    yield
    from django.utils import translation

    translation.deactivate()
