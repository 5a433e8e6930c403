"""Rummikub's rule options described for people (:mod:`engine.options`);
what each reading means in full is in ``docs/rules/rummikub.md``."""

from __future__ import annotations

from ..options import boolean, choice, number

OPTIONS = (
    number("initial_meld", "Points the first meld must reach from the rack alone (30 in the box; some clubs play 50).",
           0, 500),
    number("joker_penalty", "Points a joker left on a rack costs at the end (30; some editions 25).", 0, 500),
    choice("joker_reuse", "Where a joker freed from the table must go on the same turn.",
           ("any", "any meld"), ("new-meld", "a new meld"),
           ("new-meld-with-rack-tiles", "a new meld with two or more tiles from the rack"),
           ("joker-and-rack-tiles-only", "a new meld of the joker and rack tiles only")),
    choice("joker_sets", "How melds holding a joker may be changed.",
           ("free", "rearranged like any tile (the box)"),
           ("keep-tile", "split and rearranged, each joker keeping its tile until that tile is supplied"),
           ("frozen", "only added to, or the joker replaced by its tile (Official Book)")),
    choice("joker_freed_from", "Where the tile that frees a joker may come from (keep-tile and frozen).",
           ("rack", "the rack only"), ("rack-or-table", "the rack or the table")),
    boolean("joker_group_both_colours",
            "Freeing a joker from a group of three needs both missing colours (keep-tile and frozen)."),
    boolean("manipulate_on_initial_turn", "The table may be rearranged on the turn of the initial meld."),
    choice("direction", "The order of play.", ("clockwise", "seat 0, 1, 2 ..."),
           ("counterclockwise", "seat 0, then the last seat ...")),
    number("turn_time_limit", "Seconds per turn in games played online; when they run out the player draws a "
           "penalty tile (0: no clock).", 0, 86400),
    choice("pool_empty_end", "When the game ends once the pool is empty and nobody goes out.",
           ("all-pass", "when every player in turn has passed"), ("first-pass", "at the first pass")),
    number("rack_size", "Tiles dealt to each player (14).", 1, 40),
)
