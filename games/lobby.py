"""The start screen: a new game from the browser, no admin and no shell.

Pick the variant (the page reloads with that variant's rule options as
fields from the engine's own descriptions, :meth:`engine.base.Game.rule_options`:
a tick box, a number in its range or a list of the values with what each
means, a sentence under each, starting from the variant's defaults), the
number of players, your name, and for every other seat a
person or an AI level. The game is created by
:func:`games.services.game_create` (an ordinary event-sourced game:
replayable, auditable), you are seated in seat 0 and this browser holds the
seat. Others join from the game's page (its open seats).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from engine import registry
from engine.ai import levels_for

from .rule_texts import translated

MAX_SEATS = 8


def variants() -> list[type]:
    registry._load()  # every family (importing is cached; one family loaded alone is not all)
    return [cls for cls in registry.VARIANTS if cls.family in registry.FAMILIES]


def variant_title(cls) -> str:
    """The variant's name for people, in the reader's language (the family's
    description names it: :attr:`engine.family.Family.variant_titles`)."""
    return gettext(registry.family_for(cls.family).variant_title(cls.variant))


def default_rules(cls) -> dict[str, Any]:
    return cls.rules_to_dict(cls.rules_from_dict(None))


class NewGameForm(forms.Form):
    title = forms.CharField(max_length=200, label=_("Game name"))
    variant = forms.ChoiceField(label=_("Game"))
    players = forms.IntegerField(min_value=2, max_value=MAX_SEATS, initial=2, label=_("Players"))
    name = forms.CharField(max_length=120, label=_("Your name"))

    def __init__(self, *args, variant: str = "sabra", **kwargs):
        super().__init__(*args, **kwargs)
        self.variant_cls = next((c for c in variants() if c.variant == variant), variants()[0])
        cls = self.variant_cls
        self.fields["variant"].choices = [(c.variant, variant_title(c) + " ("
                                           + gettext("%(low)s-%(high)s players") % {"low": c.min_players,
                                                                                    "high": c.max_players} + ")")
                                          for c in variants()]
        self.fields["variant"].initial = cls.variant
        self.fields["players"].min_value, self.fields["players"].max_value = cls.min_players, cls.max_players
        self.fields["players"].initial = cls.min_players
        seat_choices = [("person", gettext("a person (joins by the game's page)"))] + [
            (f"ai:{level}", gettext("computer, %(level)s") % {"level": level}) for level in levels_for(cls.family)]
        for i in range(1, cls.max_players):
            self.fields[f"seat_{i}"] = forms.ChoiceField(choices=seat_choices, label=gettext("Seat %(n)s") % {"n": i},
                                                         initial="person", required=False)
        self.rule_names = []
        for option in translated(cls.rule_options()):
            name = f"rule_{option['name']}"
            common = {"label": option["label"], "help_text": option["help"], "initial": option["default"]}
            if option["kind"] == "bool":
                field = forms.BooleanField(required=False, **common)
            elif option["kind"] == "int":
                field = forms.IntegerField(min_value=option["low"], max_value=option["high"], **common)
            else:
                # each value by its meaning, in the reader's language (its code is the option's value)
                field = forms.TypedChoiceField(choices=list(option["choices"]), **common)
            self.fields[name] = field
            self.rule_names.append(name)

    def rule_fields(self):
        return [self[name] for name in self.rule_names]

    def seat_fields(self):
        return [self[f"seat_{i}"] for i in range(1, self.variant_cls.max_players)]

    def clean(self):
        data = super().clean()
        cls = self.variant_cls
        if data.get("variant") and data["variant"] != cls.variant:
            raise forms.ValidationError("the variant changed: pick it again")
        defaults = default_rules(cls)
        rules = {}
        for option, default in defaults.items():
            value = data.get(f"rule_{option}")
            if value is not None and value != default:
                rules[option] = value
        data["rules"] = rules
        players = data.get("players") or cls.min_players
        seats = [{"name": data.get("name", ""), "kind": "human"}]
        for i in range(1, players):
            choice = data.get(f"seat_{i}") or "person"
            if choice.startswith("ai:"):
                level = choice[3:]
                seats.append({"name": f"{level} computer {i}", "kind": "ai", "ai_level": level})
            else:
                seats.append({"name": f"seat {i}", "kind": "human"})
        data["seats"] = seats
        return data

    def rule_error(self, message: str) -> None:
        """Put an engine's refusal of a rule option next to that option."""
        for name in self.rule_names:
            if name[len("rule_"):] in message:
                self.add_error(name, message)
                return
        self.add_error(None, message)


# ------------------------------------------------------------ practice
def practice_choices() -> list[dict[str, Any]]:
    """"Play the computer" on the games list: for each variant with
    computer players, its levels (the family's description, weakest first),
    the family's default level marked. A choice's value is
    ``<variant>:<level>``."""
    out = []
    for cls in variants():
        family = registry.family_for(cls.family)
        levels = list(levels_for(cls.family))
        if not levels:
            continue
        default = family.default_ai_level if family.default_ai_level in levels else levels[0]
        out.append({"title": gettext(family.variant_title(cls.variant)), "players": cls.min_players,
                    "choices": [{"value": f"{cls.variant}:{level}", "level": level, "default": level == default}
                                for level in levels]})
    return out


def practice_game(choice: str, name: str) -> dict[str, Any]:
    """The arguments of :func:`games.services.game_create` for a practice
    game ``<variant>:<level>``: the variant's fewest players, seat 0 the
    person (``name``, else "You"), every other seat the computer at that
    level; a training game (a play may be asked about: was it the best?).

    :raises ValueError: an unknown variant or level (the message names it).
    """
    variant, _sep, level = (choice or "").partition(":")
    cls = next((c for c in variants() if c.variant == variant), None)
    if cls is None:
        raise ValueError(gettext("There is no game %(variant)s to practise.") % {"variant": repr(variant)})
    levels = list(levels_for(cls.family))
    if level not in levels:
        raise ValueError(gettext("The computer has no level %(level)s here: the levels are %(levels)s.")
                         % {"level": repr(level), "levels": ", ".join(levels) or "-"})
    name = (name or "").strip()[:120] or gettext("You")
    title = gettext(registry.family_for(cls.family).variant_title(cls.variant))
    seats = [{"name": name, "kind": "human"}] + [
        {"name": gettext("Computer %(n)s (%(level)s)") % {"n": i, "level": level}, "kind": "ai", "ai_level": level}
        for i in range(1, cls.min_players)]
    return {"variant": cls.variant, "players": cls.min_players, "seats": seats, "training": True,
            "title": gettext("Practice: %(game)s against the computer") % {"game": title}}
