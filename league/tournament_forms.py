"""The tournament's forms: the admin's (:class:`TournamentForm`) and the
organiser's new tournament outside the admin (:class:`NewTournamentForm`):
the variant from a list, its rule options as real fields, the tie-breaks
from the metric registry."""

from __future__ import annotations

from django import forms
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from games.rule_forms import RuleOptionsField, VariantChoiceField

from . import selectors, services
from .selectors import variant_name
from .models import Tournament
from .standings import METRICS


def metric_sentence(metric) -> str:
    """What a metric means: the first paragraph of its docstring (none for
    the plain ones, whose name says it)."""
    doc = (type(metric).__doc__ or "").strip()
    first = " ".join(doc.split("\n\n")[0].split())
    return first if first and not first.startswith("A ranking criterion") else ""


#: the metric registry's names and sentences, for the catalogues
#: (``tests/test_i18n.py`` checks that every metric's are here)
METRIC_TEXTS = (
    gettext_noop("Games won"), gettext_noop("Points"), gettext_noop("Fewest penalty points"),
    gettext_noop("Points lost on racks: the sum of a player's negative game scores."),
    gettext_noop("Best single game"), gettext_noop("Points per game"),
    gettext_noop("Points per game played (fair to late arrivals and withdrawals)."),
    gettext_noop("Head-to-head"),
    gettext_noop("Among the players still tied: in the games where two or more of them met, how many of "
                 "the others each one outscored (each pair per game)."),
    gettext_noop("Games won per game played"),
    gettext_noop("Games won per game played: fair when tables of 4 play four games a round and tables of "
                 "3 play three."),
    gettext_noop("Table score"),
    gettext_noop("The table score: in each game, the share of the table's other players a player "
                 "outscored (a tie counts half), averaged over the games played, as a percentage: 100 beat "
                 "everyone every time, 50 is the average at a table of any size."),
    gettext_noop("Opponents' wins"),
    gettext_noop("Strength of the field met: the games won by everyone a player sat with, once per game "
                 "shared (as Buchholz is in chess)."),
)


class TiebreakWidget(forms.Widget):
    """The tie-breaks in order, from the metric registry: a position per
    metric (blank: not used), with what it means; arrows move a row up or
    down (the positions follow)."""

    def value_from_datadict(self, data, files, name):
        if not any(key.startswith(f"{name}__") for key in data):
            return data.get(name)  # the JSON list of older forms and of the API
        return {key[len(name) + 2:]: data.get(key, "") for key in data if key.startswith(f"{name}__")}

    def value_omitted_from_data(self, data, files, name):
        return name not in data and not any(key.startswith(f"{name}__") for key in data)

    def render(self, name, value, attrs=None, renderer=None):
        typed: dict[str, str] = {}
        if isinstance(value, dict):
            # a form sent back with an error: every position as typed, the
            # rows in the order they give (unreadable ones after)
            typed = {k: str(v).strip() for k, v in value.items() if k in METRICS}

            def order(k):
                raw = typed.get(k, "")
                return (0, int(raw)) if raw.isdigit() else (1, 0)

            chosen = sorted((k for k in METRICS if typed.get(k, "")), key=order)
        else:
            chosen = [k for k in (value if isinstance(value, list) else []) if k in METRICS]
        keys = chosen + [k for k in METRICS if k not in chosen]

        def position(k):
            if typed:
                return typed.get(k, "")
            return chosen.index(k) + 1 if k in chosen else ""

        def row(k):
            title = gettext(METRICS[k].name)
            sentence = metric_sentence(METRICS[k])
            return (k, len(METRICS), name, k, name, k, position(k),
                    gettext("position of %(metric)s") % {"metric": title}, title,
                    gettext(sentence) if sentence else "",
                    gettext("move %(metric)s up") % {"metric": title},
                    gettext("move %(metric)s down") % {"metric": title})

        rows = format_html_join("", '<tr data-metric="{}"><td><input type="number" min="1" max="{}" size="2" '
                                    'name="{}__{}" id="id_{}__{}" value="{}" aria-label="{}"></td>'
                                    '<td><b>{}</b> <span class="help">{}</span></td>'
                                    '<td><button type="button" class="up" aria-label="{}">&uarr;</button>'
                                    '<button type="button" class="down" aria-label="{}">&darr;</button>'
                                    '</td></tr>', (row(k) for k in keys))
        script = mark_safe(
            "<script>(function(t){t.addEventListener('click',function(e){var b=e.target.closest('button');"
            "if(!b)return;var r=b.closest('tr'),o=b.classList.contains('up')?r.previousElementSibling:"
            "r.nextElementSibling;if(!o)return;if(b.classList.contains('up'))t.tBodies[0].insertBefore(r,o);"
            "else t.tBodies[0].insertBefore(o,r);var n=1;Array.prototype.forEach.call(t.tBodies[0].rows,"
            "function(x){var i=x.querySelector('input');if(i.value!==''){i.value=n++;}});});})"
            "(document.currentScript.previousElementSibling);</script>")
        return format_html('<table class="tiebreaks"><thead><tr><th>{}</th><th>{}</th><th></th></tr>'
                           '</thead><tbody>{}</tbody></table>{}', _("Order"), _("Tie-break"), rows, script)


class TiebreakField(forms.Field):
    widget = TiebreakWidget

    def to_python(self, value):
        import json

        if value in (None, ""):
            return []
        if isinstance(value, str):
            try:
                value = json.loads(value)
            except ValueError:
                raise forms.ValidationError(gettext('give a list of metric keys, e.g. ["wins", "points"]')) from None
        if isinstance(value, list):
            return value
        if isinstance(value, dict):
            value = {k: v for k, v in value.items() if k in METRICS or str(v).strip()}
            placed = []
            for key, raw in value.items():
                if str(raw).strip() == "":
                    continue
                try:
                    placed.append((int(raw), key))
                except ValueError:
                    raise forms.ValidationError(gettext("the position of %(metric)s is a number, not %(value)s")
                                                % {"metric": gettext(METRICS[key].name) if key in METRICS
                                                   else key, "value": repr(raw)}) from None
            positions = [p for p, _ in placed]
            if len(set(positions)) != len(positions):
                raise forms.ValidationError(gettext("two tie-breaks have the same position"))
            return [key for _, key in sorted(placed)]
        raise forms.ValidationError(gettext('give a list of metric keys, e.g. ["wins", "points"]'))


class _LevelChoiceField(forms.ChoiceField):
    """The family's AI levels as a list; the value is checked by the form's
    ``clean`` against the family (an old level of another family, or the
    league's default, is mapped to the family's own there)."""

    def valid_value(self, value):
        return True


class TournamentForm(forms.ModelForm):
    """The tournament in the admin: the variant from a list, its rule options
    as real fields (one per option, with the engine's sentence), the
    tie-breaks from the metric registry."""

    rules = RuleOptionsField(help_text="the variant's rule options; changing the variant starts from "
                                       "its defaults (save, then set them)")
    tiebreaks = TiebreakField(required=False, help_text="number the tie-breaks in the order they decide "
                                                        "(blank: not used; empty: the family's default)")

    class Meta:
        model = Tournament
        fields = "__all__"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        from engine.errors import EngineError
        from engine.registry import find_variant
        from games.lobby import variants

        self.fields["variant"] = VariantChoiceField(
            choices=[(c.variant, variant_name(c)) for c in variants()],
            initial=self.instance.variant or "sabra")
        if "date" in self.fields:
            self.fields["date"].widget = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
        if "ranking" in self.fields:
            self.fields["ranking"].required = False  # absent: games won, as before
        if "family" in self.fields:
            self.fields["family"].required = False  # it follows from the variant (clean)
            self.fields["family"].help_text = "set from the variant"
        stored = self.instance.variant or "sabra"
        posted = self.data.get(self.add_prefix("variant")) if self.is_bound else None
        try:
            cls = find_variant(posted or stored)
        except EngineError:
            cls = find_variant(stored)
        self.variant_changed = bool(posted) and cls.variant != stored
        if "ai_level" in self.fields:
            # the family's levels, weakest first, by their names for people
            from engine.registry import family_for

            levels = list(family_for(cls.family).ai_levels())
            field = self.fields["ai_level"]
            self.fields["ai_level"] = _LevelChoiceField(
                choices=[(level, selectors.ai_level_name(cls.family, level)) for level in levels] or [("", "–")],
                required=False, label=field.label, help_text=field.help_text,
                initial=services.ai_level_for(cls.family, self.instance.ai_level or ""))
        # rule inputs posted for another variant's options are not read as this one's
        self.fields["rules"].set_variant(find_variant(stored) if self.variant_changed else cls)

    def clean(self):
        """The variant must be one the engine knows, with rule options it
        accepts; the family follows from the variant."""
        data = super().clean()
        if "ranking" in self.fields and not data.get("ranking") and "ranking" not in self.errors:
            data["ranking"] = Tournament.Ranking.WINS
        variant = data.get("variant")
        if self.variant_changed and "rules" not in self.errors:
            data["rules"] = {}  # a new variant starts from its defaults
            self.instance.rules = {}  # also when no option inputs were sent
        if variant:
            from engine.errors import EngineError
            from engine.registry import find_variant

            try:
                cls = find_variant(variant)
                cls.rules_from_dict(data.get("rules") or {})
            except EngineError as exc:
                self.add_error("rules" if "rule" in str(exc) and "rules" not in self.errors else "variant",
                               str(exc))
            else:
                data["family"] = cls.family
                data["variant"] = cls.variant
                if not data.get("tiebreaks"):
                    data["tiebreaks"] = selectors.default_precedence(cls.family)
                from games.ai_seats import available_levels

                level = services.ai_level_for(cls.family, data.get("ai_level") or "")
                known = available_levels(cls.family)
                if known and level not in known:
                    self.add_error("ai_level", gettext("%(game)s has the AI level(s) %(levels)s, not %(level)s")
                                   % {"game": cls.variant, "levels": ", ".join(known), "level": repr(level)})
                else:
                    data["ai_level"] = level
                if not cls.min_players <= (data.get("table_size") or 0) <= cls.max_players:
                    self.add_error("table_size", gettext("%(game)s takes %(low)s to %(high)s players at a table")
                                   % {"game": variant_name(cls), "low": cls.min_players, "high": cls.max_players})
        return data

    def clean_rounds(self):
        rounds = self.cleaned_data.get("rounds")
        if rounds is not None and not 1 <= rounds <= 99:
            raise forms.ValidationError(gettext("a tournament has 1 to 99 rounds, not %(n)s") % {"n": rounds})
        return rounds

    def clean_tiebreaks(self):
        keys = self.cleaned_data.get("tiebreaks") or []
        if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
            raise forms.ValidationError(gettext('give a list of metric keys, e.g. ["wins", "points"]'))
        unknown = [k for k in keys if k not in METRICS]
        if unknown:
            raise forms.ValidationError(gettext("unknown tie-break(s) %(keys)s; known: %(known)s")
                                        % {"keys": ", ".join(unknown), "known": ", ".join(sorted(METRICS))})
        if len(set(keys)) != len(keys):
            raise forms.ValidationError(gettext("a tie-break is listed twice"))
        return keys


class NewTournamentForm(TournamentForm):
    """The organiser's new tournament outside the admin (``/tournaments/new/``):
    the same checks and fields, the ones a new evening needs, and a new club
    by name (the organiser's own, made with the tournament)."""

    new_club = forms.CharField(max_length=120, required=False, label=_("or a new club"),
                               help_text=_("your club's name, if it is not in the list: it is made with the "
                                           "tournament"))

    class Meta:
        model = Tournament
        fields = ["name", "club", "league", "date", "variant", "rules", "table_size", "rounds",
                  "seating_method", "ranking", "tiebreaks", "release_by_hand", "ai_fill", "ai_level"]
        labels = {"ranking": _("Rank by"), "release_by_hand": _("Release by hand"), "name": _("Name"), "club": _("Club"), "league": _("League"), "date": _("Date"),
                  "table_size": _("Table size"), "rounds": _("Rounds"), "seating_method": _("Seating"),
                  "ai_fill": _("AI seats"), "ai_level": _("AI level")}
        help_texts = {"table_size": _("players at a table; with too few players some tables are smaller, "
                                      "or AI seats fill them (below)"),
                      "rounds": _("how many rounds the evening has (a Rummikub round is a game per seat)"),
                      "ranking": _("games won favours tables of 4 (four games a round) over tables of 3; "
                                   "a rate per game played, or the table score, is fair to both"),
                      "release_by_hand": _("each round's draw and results appear on the public pages and the "
                                           "projector only when you release them on the round's desk"),
                      "ai_fill": _("fill short tables with AI seats instead of smaller tables"),
                      "ai_level": _("how strong the AI seats play"),
                      "date": _("the day of the event (YYYY-MM-DD)")}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["variant"].label = _("Game")
        self.fields["rules"].label = _("Rule options")
        self.fields["rules"].help_text = _("the chosen game's rule options, its defaults set; each says what it does")
        self.fields["tiebreaks"].label = _("Tie-breaks")
        self.fields["tiebreaks"].help_text = _("number the tie-breaks in the order they decide "
                                               "(blank: not used; empty: the family's default)")
        # the new club's box right under the club's list
        order = list(self.fields)
        order.remove("new_club")
        order.insert(order.index("club") + 1, "new_club")
        self.order_fields(order)

    def clean_new_club(self):
        return " ".join((self.cleaned_data.get("new_club") or "").split())

    def clean(self):
        data = super().clean()
        if data.get("new_club") and data.get("club"):
            self.add_error("new_club", gettext("choose a club from the list or name a new one, not both"))
        return data
