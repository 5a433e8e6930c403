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
                field = forms.TypedChoiceField(choices=[(v, f"{v}: {what}") for v, what in option["choices"]],
                                               **common)
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
