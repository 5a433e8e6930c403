"""The engine's refusals in the reader's language.

The engine refuses a move with :class:`engine.errors.IllegalMoveError`: an
English sentence with the values in it, and a short stable rule code
(``"not-your-turn"``, ``"tiles-not-on-rack"``, ...). In another language
than English the pages show the sentence of the code from the catalogue
(without the values); in English, and for a code not listed here, the
engine's own sentence, values and all. The codes are the
engine's interface, shared by its families; nothing here knows a rule.
"""

from __future__ import annotations

from django.utils.translation import get_language, gettext, gettext_noop

__all__ = ["REFUSALS", "engine_error_text", "refusal_text"]

REFUSALS: dict[str, str] = {
    "not-your-turn": gettext_noop("It is not your turn."),
    "game-over": gettext_noop("The game is over."),
    "tiles-not-on-rack": gettext_noop("Those tiles are not on your rack."),
    "not-on-rack": gettext_noop("Those tiles are not on your rack."),
    "tile-not-held": gettext_noop("That tile is not on your rack."),
    "not-in-hand": gettext_noop("That card is not in your hand."),
    "table-not-valid": gettext_noop("The table would not be valid: every meld must be a run or a group."),
    "meld-invalid": gettext_noop("That is not a valid meld."),
    "invalid-meld": gettext_noop("That is not a valid meld."),
    "initial-meld-below-threshold": gettext_noop("Your initial meld does not reach the points the rules ask."),
    "initial-meld-too-small": gettext_noop("Your initial meld does not reach the points the rules ask."),
    "initial-meld-from-rack-only": gettext_noop("The initial meld comes from your rack alone: change the "
                                                "table from your next turn."),
    "initial-meld-first": gettext_noop("Before your initial meld, lay new melds from your rack only."),
    "no-tile-from-rack": gettext_noop("A play must lay at least one tile from your rack."),
    "pool-empty": gettext_noop("The pool is empty: play or pass."),
    "pool-not-empty": gettext_noop("The pool still has tiles: draw instead of passing."),
    "must-draw": gettext_noop("Draw or take a tile first."),
    "wrong-phase": gettext_noop("Draw or take a tile first."),
    "must-discard": gettext_noop("You have taken a tile this turn: now discard one."),
    "no-discard": gettext_noop("There is no discard to take."),
    "nothing-to-take": gettext_noop("There is no discard to take."),
    "middle-empty": gettext_noop("The middle is empty: only taking the discard to win is left."),
    "take-too-early": gettext_noop("The previous player's discard may be taken from your second turn on."),
    "does-not-fit": gettext_noop("That card does not fit that meld."),
    "no-such-meld": gettext_noop("There is no such meld on the table."),
    "meld-not-on-table": gettext_noop("That meld is not on the table."),
    "joker-reuse": gettext_noop("A joker freed from the table must be used again in the same move."),
}


def _english() -> bool:
    return (get_language() or "en").split("-")[0] == "en"


def refusal_text(code: str, english: str) -> str:
    """The sentence for refusal ``code`` in the active language; the
    engine's ``english`` sentence in English or for a code not listed."""
    text = REFUSALS.get(code or "")
    if not text or _english():
        return english
    return gettext(text)


def engine_error_text(exc: Exception) -> str:
    """An engine error for people in the active language: a refused move
    by its rule code, a text not in the notation (a tile that is no tile on
    a score sheet) by the token it names; in English, or with neither, the
    engine's own sentence."""
    english = str(exc)
    if _english():
        return english
    rule = getattr(exc, "rule", None)
    if rule:
        return refusal_text(rule, english)
    token, seat = getattr(exc, "token", None), getattr(exc, "seat", None)
    if token and seat:
        return gettext("seat %(seat)s: “%(token)s” is not written in the game's notation (a tile as R7 or K13, "
                       "a card as 7C or TD)") % {"seat": seat, "token": token}
    if token:
        return gettext("“%(token)s” is not written in the game's notation (a tile as R7 or K13, "
                       "a card as 7C or TD)") % {"token": token}
    return english
