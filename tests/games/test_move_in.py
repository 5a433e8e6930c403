"""A move's body checked without the serializer (games/api.py,
``_plain_move_in``): whatever it takes, it takes as ``MoveInSerializer``
does; whatever else it leaves to the serializer (``None``)."""

from __future__ import annotations

import pytest

from games.api import _plain_move_in
from games.serializers import MoveInSerializer

BODIES = [
    {"move": "draw", "expected_version": 3},
    {"move": "  draw  ", "expected_version": 0},
    {"move": "draw", "expected_version": 7, "seat": 1},
    {"move": "play R1 R2 R3", "expected_version": 12, "seat": 0},
    {"move": "x" * 2000, "expected_version": 1},
    # left to the serializer: each is refused, or taken in a way of its own
    {"move": "x" * 2001, "expected_version": 1},
    {"move": "", "expected_version": 1},
    {"move": "   ", "expected_version": 1},
    {"move": "draw\x00", "expected_version": 1},
    {"move": "dráw", "expected_version": 1},
    {"move": "draw", "expected_version": -1},
    {"move": "draw", "expected_version": True},
    {"move": "draw", "expected_version": "3"},
    {"move": "draw", "expected_version": 3.0},
    {"move": "draw", "expected_version": None},
    {"move": 5, "expected_version": 3},
    {"move": "draw"},
    {"expected_version": 3},
    {"move": "draw", "expected_version": 3, "seat": -1},
    {"move": "draw", "expected_version": 3, "seat": "1"},
    {"move": "draw", "expected_version": 3, "seat": False},
    {"move": "draw", "expected_version": 3, "extra": 1},
    ["draw", 3],
    "draw",
]


@pytest.mark.parametrize("body", BODIES, ids=range(len(BODIES)))
def test_plain_check_agrees_with_the_serializer(body):
    plain = _plain_move_in(body)
    serializer = MoveInSerializer(data=body)
    if plain is None:
        return  # the view runs the serializer itself
    assert serializer.is_valid(), serializer.errors
    assert plain == dict(serializer.validated_data)


def test_the_plain_cases_are_taken_without_the_serializer():
    taken = [b for b in BODIES if _plain_move_in(b) is not None]
    assert len(taken) == 5  # the first five bodies above
    assert _plain_move_in({"move": "  draw  ", "expected_version": 0}) == {"move": "draw", "expected_version": 0}
