"""Fixtures of the Rummikub engine tests."""

from __future__ import annotations

import pytest

from engine.errors import IllegalMoveError
from engine.rummikub import RuleSet, SabraGame, rules_from_dict


def _position(table, rack, rules=None, other="K1 K2", initial=True, **kw):
    if isinstance(rules, dict):
        rules = rules_from_dict(rules)
    return SabraGame.from_position([rack, other], table, rules or RuleSet(),
                                   initial_meld_done=initial, **kw)


def _outcome(game, text):
    try:
        game.push(game.parse_move(text))
    except IllegalMoveError as exc:
        return exc.rule
    return "ok"


@pytest.fixture
def position():
    """``position(table, rack, rules=None, other=..., initial=True)``: a
    two-seat game, seat 0 to move with ``rack``."""
    return _position


@pytest.fixture
def outcome():
    """``outcome(game, move_text)``: ``"ok"`` once pushed, else the rule code."""
    return _outcome


@pytest.fixture
def check():
    """``check(table, rack, move, rules=None, **kw)``: the outcome of one
    move in a fresh position."""
    def run(table, rack, move, rules=None, **kw):
        return _outcome(_position(table, rack, rules, **kw), move)
    return run
