"""Okey's rule options described for people (:mod:`engine.options`); the
readings are in ``docs/rules/okey.md``."""

from __future__ import annotations

from ..options import boolean, number

OPTIONS = (
    boolean("seven_pairs", "Seven pairs of identical tiles is a winning hand too."),
    number("start_points", "Points each player starts the match with; the match ends after "
           "the game in which someone reaches 0 or less.", 1, 1000),
    number("win_points", "Points a normal win costs every other player.", 1, 100),
    boolean("okey_finish_double", "Finishing by discarding an okey (the real joker) doubles "
            "what the win costs."),
    boolean("pairs_double", "A win with seven pairs doubles what it costs."),
    boolean("compare_stone", "Showing the indicator's twin before one's first draw costs every "
            "other player 1 point (the Compare Stone)."),
    boolean("with_color", "When the indicator is red or black, wins cost double (With Color; "
            "never the Compare Stone)."),
)
