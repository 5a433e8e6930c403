"""A score sheet recorded from the league goes down into its family once
and comes back scored: the league asks the registry for the family's
description and calls its ``read_sheet``; nothing else of the engine is
called from a league module, and the engine never calls back up."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from league import services
from league.models import TableGame

ROOT = Path(__file__).resolve().parents[2]


def _engine_calls_from_the_league(record):
    """Run ``record()``; the names of the engine functions a league module
    called directly, and of the league functions an engine frame called."""
    down, up = [], []
    league, engine = str(ROOT / "league"), str(ROOT / "engine")

    def profile(frame, event, arg):
        if event != "call" or frame.f_back is None:
            return
        callee, caller = frame.f_code.co_filename, frame.f_back.f_code.co_filename
        if callee.startswith(engine) and caller.startswith(league):
            down.append(frame.f_code.co_name)
        if callee.startswith(league) and caller.startswith(engine):
            up.append(frame.f_code.co_name)

    sys.setprofile(profile)
    try:
        record()
    finally:
        sys.setprofile(None)
    return down, up


@pytest.mark.parametrize("variant,size,sheet", [
    ("sabra", 3, {"racks": ["", "R5 J", "K13"]}),
    ("contract", 3, {"hands": [["", "KD", "7H"]] * 7}),
    ("turkish-okey", 4, {"games": [{"winner": 0}, {"winner": 0}, {"winner": 0}]}),
    ("international-rummikub", 3, {"racks": ["", "R5", "K13"], "won": {"how": "open"}}),
])
def test_a_sheet_goes_down_once(make_tournament, variant, size, sheet):
    from engine.registry import find_variant

    rules = {"start_points": 6} if variant == "turkish-okey" else {}
    tournament = make_tournament(size, family=find_variant(variant).family, variant=find_variant(variant).variant,
                                 table_size=size, rules=rules)
    services.round_seat(tournament=tournament, seed="path")
    game = TableGame.objects.filter(table__round__tournament=tournament).first()
    down, up = _engine_calls_from_the_league(
        lambda: services.result_record_score_sheet(game=game, sheet=sheet, actor="t"))
    assert down == ["family_for", "read_sheet"] and up == []
    assert game.results.get().scores
