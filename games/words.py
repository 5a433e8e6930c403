"""Moves in words on the pages: "Ben laid R8 B8 O8", "Ann went down: A♣ A♣
A♣ A♥ / 4♦ 4♥ ★".

The family's description says what a move is
(:meth:`engine.family.Family.describe_move`: a ``key`` and the chips it
shows); the sentence for each key is here, in the reader's language, and
the same sentences are in ``static/games/live.js`` for the moves a page
receives over its socket. Nothing here knows a family.
"""

from __future__ import annotations

from typing import Any

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

#: one sentence per key of :attr:`engine.family.Family.MOVE_WORDS`
SENTENCES = {
    "drew": gettext_noop("%(name)s drew"),
    "drew_n": gettext_noop("%(name)s drew %(n)s"),
    "passed": gettext_noop("%(name)s passed"),
    "timeout": gettext_noop("%(name)s ran out of time and drew"),
    "laid": gettext_noop("%(name)s laid %(pieces)s"),
    "moved": gettext_noop("%(name)s moved tiles on the table"),
    "took": gettext_noop("%(name)s took %(pieces)s"),
    "took_pile": gettext_noop("%(name)s took the discard"),
    "discarded": gettext_noop("%(name)s discarded %(pieces)s"),
    "went_down": gettext_noop("%(name)s went down: %(melds)s"),
    "laid_off": gettext_noop("%(name)s laid off %(pieces)s"),
    "swapped": gettext_noop("%(name)s swapped %(pieces)s for a wild card"),
    "buy": gettext_noop("%(name)s asked to buy the discard"),
    "allowed": gettext_noop("%(name)s let the buyer have it"),
    "refused": gettext_noop("%(name)s took the discard instead"),
    "undid": gettext_noop("%(name)s took the discard back"),
    "finished": gettext_noop("%(name)s finished with %(pieces)s"),
    "showed": gettext_noop("%(name)s showed the indicator's twin"),
    "announced": gettext_noop("%(name)s announced three or fewer"),
    "closed": gettext_noop("%(name)s went out with a closed hand, discarding %(pieces)s"),
    "trump": gettext_noop("%(name)s took the trump and went out"),
    "penalty": gettext_noop("%(name)s took a penalty"),
    "other": gettext_noop("%(name)s: %(text)s"),
}


def described(family, move: str) -> dict[str, Any]:
    """The family's description of ``move`` (``family``: an
    :class:`engine.family.Family`, or ``None``: the notation as it is)."""
    if family is None:
        return {"key": "other", "pieces": [], "melds": [], "n": 0, "text": move}
    return family.describe_move(move)


def _chips(chips: list[dict[str, str]]) -> SafeString:
    return format_html('<span class="pieces">{}</span>', format_html_join(
        "", '<span class="chip small {}" title="{}">{}</span>', ((c["css"], c["code"], c["label"]) for c in chips)))


def sentence(said: dict[str, Any], name: str) -> SafeString:
    """The move in the reader's language as HTML, its pieces drawn as
    chips and the player's name escaped."""
    values = {
        "name": format_html('<span class="who">{}</span>', name),
        "pieces": _chips(said.get("pieces") or []),
        "melds": mark_safe(" / ".join(_chips(m) for m in said.get("melds") or [])),
        "n": format_html("{}", said.get("n", 0)),
        "text": format_html('<span class="move">{}</span>', said.get("text", "")),
    }
    template = _(SENTENCES.get(said.get("key"), SENTENCES["other"]))
    # %(...)s places filled with escaped values: the sentence itself is ours
    return mark_safe(format_html(template.replace("{", "{{").replace("}", "}}").replace("%(", "{").replace(")s", "}"),
                                 **values))
