"""The analysis's reasons in the reader's language: "placed 3 tiles where 4
fitted: 1 tile worth 9 left behind" in English, "3 stenen gelegd waar er 4
pasten: 1 steen met waarde 9 bleef liggen" in Dutch.

The engine says each reason in English (:class:`engine.analysis.Reason`:
``code``, ``text``) and keeps the values the sentence names apart
(``params``). Here each code has its sentence, or its sentences where
families say the same code differently (``could-go-out``), with named
places, the English identical to the engine's text. A reason is said in the
sentence whose English, filled with its params, is the engine's own text;
a code not here, params that do not fill any of its sentences, or a stored
reason made before reasons had params: the engine's English text.

Places: a name ending in ``tiles`` is a count of tiles ("1 tile", "3
tiles", in the reader's language with its plural), one ending in
``_cards`` a count of cards ("1 card", "3 cards") alike; ``did`` what the turn
did instead (:data:`engine.analysis.DID`); every other value (counts,
points, tiles and cards, moves in the family's notation) is shown as it is.
Nothing here knows a family.
"""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext, gettext_noop, ngettext_lazy, override, pgettext

#: every code's sentences (one where every family says it alike)
REASONS: dict[str, tuple[str, ...]] = {
    "could-go-out": (
        gettext_noop("could have gone out: all %(tiles)s of the rack fitted (%(move)s)"),
        gettext_noop("could have gone out: every tile but one could be laid (%(moves)s)"),
        gettext_noop("could have gone out this turn: %(moves)s"),
    ),
    "could-open": (
        gettext_noop("could have opened with %(tiles)s worth %(value)s (the initial meld needs %(need)s) "
                     "but %(did)s"),
        gettext_noop("could have made the initial meld with %(tiles)s (%(move)s)"),
    ),
    "drew-while-play-existed": (gettext_noop("%(did)s while a play of %(tiles)s existed"),),
    "fewer-tiles": (
        gettext_noop("placed %(tiles)s where %(best)s fitted: %(left_tiles)s worth %(left_value)s left behind"),
        gettext_noop("laid %(tiles)s where %(best)s could be laid (%(move)s)"),
    ),
    "less-value": (gettext_noop("placed %(tiles)s worth %(value)s where %(best)s worth %(best_value)s fitted"),),
    "held-back-trump": (gettext_noop("could have taken the trump and gone out (%(move)s) but %(action)s instead"),),
    "closed-hand-missed": (gettext_noop("could have declared a closed hand (%(move)s)"),),
    "laid-nothing": (gettext_noop("laid nothing while %(tiles)s could be laid (%(move)s)"),),
    "could-go-down": (gettext_noop("held the contract and did not go down (%(move)s)"),),
    "fewer-cards": (gettext_noop("played %(played_cards)s where %(best)s could go: %(moves)s"),),
    "player-discarded": (gettext_noop("discarded %(card)s, which played on a meld on the table"),),
    "fed-next-player": (
        gettext_noop("seat %(seat)s took the discard %(card)s and went out with it"),
        gettext_noop("seat %(seat)s took the discard %(card)s and went down with it"),
    ),
    "buy-cost": (gettext_noop("the buy brought %(cards)s; all were still in hand when the hand ended, "
                              "costing %(points)s points"),),
    "win-not-declared": (gettext_noop("held a winning hand: finish %(tile)s would have won"),),
    "win-by-take-missed": (gettext_noop("taking the discard made a winning hand (finish %(tile)s)"),),
    "okey-discarded": (gettext_noop("threw away the okey (%(tile)s)"),),
    "discard-worse": (gettext_noop("discarding %(tile)s left the hand %(best)s from a win, not %(made)s"),),
    "take-better": (gettext_noop("taking the discard and discarding %(tile)s would have left the hand "
                                 "%(best)s from a win; the turn ended %(made)s"),),
}

#: what a turn did instead (a ``did`` place), said with the context "analysis"
DID = {
    "draw": gettext_noop("drew"),
    "pass": gettext_noop("passed"),
    "timeout": gettext_noop("ran out of time"),
    "penalty": gettext_noop("took a penalty"),
    "play": gettext_noop("played"),
}
DID_CONTEXT = "analysis"

_PLACE = re.compile(r"%\((\w+)\)s")


# a place counting tiles or cards, said with the language's plural forms
_TILES = ngettext_lazy("%(n)s tile", "%(n)s tiles", "n")
_CARDS = ngettext_lazy("%(n)s card", "%(n)s cards", "n")


def _values(template: str, params: dict[str, Any], translated: bool) -> dict[str, str] | None:
    """The places of ``template`` filled from ``params`` (in English, or in
    the reader's language), or ``None`` when one is missing or not a value
    its place takes."""
    values = {}
    for name in _PLACE.findall(template):
        if name not in params:
            return None
        value = params[name]
        words = _TILES if name.endswith("tiles") else _CARDS if name.endswith("_cards") else None
        if words is not None:
            if not isinstance(value, int) or isinstance(value, bool):
                return None
            if translated:
                values[name] = words % {"n": value}
            else:
                with override(None):  # the words as written (English)
                    values[name] = words % {"n": value}
        elif name == "did":
            if value not in DID:
                return None
            values[name] = pgettext(DID_CONTEXT, DID[value]) if translated else DID[value]
        else:
            values[name] = str(value)
    return values


def english(template: str, params: dict[str, Any]) -> str | None:
    """``template`` (one of :data:`REASONS`) filled in English, as the engine
    says it; ``None`` where ``params`` do not fill it."""
    values = _values(template, params, translated=False)
    return None if values is None else template % values


def sentence_for(reason) -> str | None:
    """The sentence of :data:`REASONS` that says ``reason`` (an
    :class:`engine.analysis.Reason`): the one of its code whose English,
    filled with its params, is the engine's text; ``None`` where none is."""
    params = getattr(reason, "params", None) or {}
    for template in REASONS.get(reason.code, ()):
        if english(template, params) == reason.text:
            return template
    return None


def reason_text(reason) -> str:
    """``reason`` in the active language (:func:`sentence_for` translated
    and filled), or the engine's English text where no sentence says it."""
    template = sentence_for(reason)
    if template is None:
        return reason.text
    try:
        return gettext(template) % _values(template, reason.params, translated=True)
    except (KeyError, TypeError, ValueError):  # a translation whose places do not fit
        return reason.text
