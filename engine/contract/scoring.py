"""Score sheets of contract rummy played at a real table:
:func:`score_hands` turns the cards left in each hand into points, with the
rule set's card values (:meth:`ContractRules.card_points`, as the engine
scores a hand's end).
"""

from __future__ import annotations

from collections import Counter

from ..cards import TEXT, deck_counter
from ..errors import RecordError
from .rules import HANDS, PROFILES, ContractRules, contract_text


def score_hands(left, rules: ContractRules | None = None, players: int | None = None
                ) -> list[list[int]]:
    """Points of a game played at a real table, from the cards each player
    had left at the end of each hand, with the rules' card values
    (:meth:`ContractRules.card_points`, as the engine scores a hand's end).

    :param left: ``left[h][s]``: the cards seat ``s`` held when hand ``h + 1``
        ended (card codes or :class:`~engine.cards.Card`), all seven hands;
        an empty hand is the player who went out.
    :param rules: the rule set (default: the three-decks profile).
    :param players: the number of seats (default: as many as hand 1 lists).
    :returns: ``points[h][s]``; a seat's game total is the sum of its column.
    :raises RecordError: not seven hands, a hand without a line per seat,
        more than one player out in one hand, or more copies of a card than
        the pack holds (each named with its hand, and seat where it has one).
    """
    rules = rules or PROFILES["three-decks"]
    left = [list(hand) for hand in left]
    if len(left) != HANDS:
        raise RecordError(f"a game is {HANDS} hands; the sheet gives {len(left)}")
    n = len(left[0]) if players is None else players
    if not rules.min_players <= n <= rules.max_players:
        raise RecordError(f"{rules.profile} takes {rules.min_players} to {rules.max_players} "
                          f"players, not {n}")
    pack = deck_counter(rules.decks_for(n), rules.jokers_per_deck)
    out = []
    for h, seats in enumerate(left, 1):
        if len(seats) != n:
            raise RecordError(f"hand {h} ({contract_text(h - 1)}): {len(seats)} lines for "
                              f"{n} players")
        cards = [[int(c) for c in s] for s in seats]
        out_seats = [s for s, c in enumerate(cards) if not c]
        if len(out_seats) > 1:
            raise RecordError(f"hand {h}: seats {', '.join(map(str, out_seats))} have no cards "
                              "left; only one player goes out")
        extra = Counter(c for cs in cards for c in cs) - pack
        if extra:
            names = ", ".join(f"{TEXT[c]} x{pack[c] + k}" for c, k in sorted(extra.items()))
            raise RecordError(f"hand {h}: more copies than the pack of {rules.decks_for(n)} "
                              f"decks holds ({names})")
        out.append([sum(rules.card_points(c) for c in cs) for cs in cards])
    return out
