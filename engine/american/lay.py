"""Checking a ``lay`` of American and International Rummikub: new melds
from the rack, additions to the table's melds, and jokers freed by the tile
they stand for, which must go back on the table in the same move (where,
the ``joker_reuse`` option says). The initial-meld rules are the game's."""

from __future__ import annotations

from collections import Counter

from ..errors import IllegalMoveError
from ..melds import canonical, format_meld, joker_candidates, meld_kind, meld_tiles, meld_value, slot_number, why_invalid
from ..tiles import JOKER, format_tile
from .moves import Move
from .rules import AmericanRules


def check_lay(table_now: list, rack_now: list[int], seat: int, move: Move, rules: AmericanRules):
    """The table after ``move``'s parts (new melds owned by ``seat``), the
    rack tiles they use, whether they add to another player's meld, and the
    value laid (a joker counting as the tile it stands for).

    :raises IllegalMoveError: a part the rules refuse, named.
    """
    mr = rules.meld_rules
    table = [[o, m] for o, m in table_now]
    used: Counter = Counter()
    freed = 0
    value = 0
    for number, tile in move.frees:
        if not 1 <= number <= len(table):
            raise IllegalMoveError(f"there is no meld {number} on the table", "no-such-meld")
        meld = table[number - 1][1]
        at = next((i for i, s in enumerate(meld) if s >= 53 and tile in joker_candidates(meld, i)), None)
        if at is None:
            raise IllegalMoveError(f"meld {number} {format_meld(meld)} holds no joker standing for "
                                   f"{format_tile(tile)}", "no-joker-to-free")
        slots = list(meld)
        slots[at] = tile
        m = canonical(slots)
        if meld_kind(m, mr) is None:
            raise IllegalMoveError(f"meld {number} with {format_tile(tile)}: {why_invalid(m, mr)}",
                                   "invalid-meld")
        table[number - 1][1] = m
        used[tile] += 1
        freed += 1
    jokers_in_new = 0
    for m in move.melds:
        if meld_kind(m, mr) is None:
            raise IllegalMoveError(f"{format_meld(m)} is not a meld: {why_invalid(m, mr)}", "invalid-meld")
        tiles = meld_tiles(m)
        jokers = tiles.count(JOKER)
        if jokers and freed and rules.joker_reuse == "new-meld-with-rack-tiles" \
                and len(tiles) - jokers < 2:
            raise IllegalMoveError(f"a freed joker goes into a new meld with two or more rack tiles, "
                                   f"not {format_meld(m)}", "joker-reuse")
        jokers_in_new += jokers
        used.update(tiles)
        value += meld_value(m, mr)
        table.append([seat, m])
    added_others = False
    for number, slots in move.adds:
        if not 1 <= number <= len(table_now):
            raise IllegalMoveError(f"there is no meld {number} on the table", "no-such-meld")
        owner, meld = table[number - 1]
        m = canonical(list(meld) + list(slots))
        if meld_kind(m, mr) is None:
            raise IllegalMoveError(f"meld {number} {format_meld(meld)} with "
                                   f"{' '.join(format_meld((s,))[1:-1] for s in slots)}: {why_invalid(m, mr)}",
                                   "invalid-meld")
        table[number - 1][1] = m
        for s in slots:
            used[JOKER if s >= 53 else s] += 1
            value += slot_number(s) or 0
        added_others = added_others or owner != seat
    # the jokers: those freed now must go back on the table in this move
    need_jokers = used[JOKER]
    if freed:
        placed = jokers_in_new if rules.joker_reuse != "any" else need_jokers
        if placed < freed:
            where = "a new meld" if rules.joker_reuse != "any" else "the table"
            raise IllegalMoveError(f"a freed joker must go into {where} in the same move", "joker-reuse")
    used[JOKER] = max(0, need_jokers - freed)
    if not used[JOKER]:
        del used[JOKER]
    rack = Counter(rack_now)
    missing = used - rack
    if missing:
        raise IllegalMoveError(f"not on the rack: {' '.join(format_tile(t) for t in sorted(missing.elements()))}",
                               "not-on-rack")
    return table, used, added_others, value

