"""American and International Rummikub's rule options described for people
(:mod:`engine.options`); the readings are in ``docs/rules/american.md`` and
``docs/rules/international.md``."""

from __future__ import annotations

from ..options import boolean, choice, number

OPTIONS = (
    number("initial_meld", "Points the first meld must reach from the rack, a joker counting as the tile "
           "it stands for (American 21, International 50).", 0, 200),
    number("joker_penalty", "Points a joker left on a rack costs at the end (30; some play 25).", 0, 100),
    choice("joker_reuse", "Where a joker freed from the table by the tile it stands for must go, in the "
           "same move.",
           ("new-meld-with-rack-tiles", "a new meld with two or more tiles from the rack"),
           ("new-meld", "any new meld"),
           ("any", "anywhere on the table")),
    choice("take_discard", "When the previous player's discard may be taken instead of drawing.",
           ("from-second-turn", "from one's second turn on (American)"),
           ("always", "always (International)")),
    choice("pool_empty", "What happens when the face-down stacks run out with no winner.",
           ("lowest-rack", "the lowest rack wins the differences (Sabra's rule)"),
           ("no-winner", "nobody wins (International)")),
    boolean("announce", "A player must announce having three or fewer tiles left before discarding "
            "down to them (International)."),
    boolean("trump_twin_bonus", "The winner holding the trump's twin scores 50 more (International, "
            "as some play)."),
)
