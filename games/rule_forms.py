"""A variant's rule options as real form fields, for the pages and the
Django admin that set a game's or a tournament's rules.

:class:`RuleOptionsField` is one form field holding the rules as a dict of
the options that differ from the variant's defaults (what a game and a
tournament store). Its widget draws every option the engine describes
(:meth:`engine.base.Game.rule_options`): a tick box, a number within its
range, or a list of its values with what each means, and the option's
sentence under it. Values are checked by the engine: a refusal is shown as
the engine's sentence. Nothing here knows a family's rules.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext

from engine.errors import EngineError

from .rule_texts import translated


class VariantChoiceField(forms.ChoiceField):
    """A variant from the list; its aliases are accepted too (``contract-004``
    is ``international``)."""

    def valid_value(self, value):
        from engine.registry import find_variant

        try:
            find_variant(value)
        except EngineError:
            return False
        return True


def defaults_of(variant_cls) -> dict[str, Any]:
    return variant_cls.rules_to_dict(variant_cls.rules_from_dict(None))


class RuleOptionsWidget(forms.Widget):
    """Every rule option of a variant, one input each (named
    ``<field>__<option>``)."""

    def __init__(self, variant_cls=None, attrs=None):
        super().__init__(attrs)
        self.variant_cls = variant_cls
        #: option name -> its error, set by the field's check and drawn
        #: beside that option's input (not under the whole block)
        self.option_errors: dict[str, str] = {}

    @property
    def inline_errors(self) -> set[str]:
        """The errors drawn beside their option (a page lists the field's
        other errors under the block)."""
        return set(self.option_errors.values())

    def options(self) -> list[dict[str, Any]]:
        return translated(self.variant_cls.rule_options()) if self.variant_cls is not None else []

    def value_from_datadict(self, data, files, name):
        if not any(key.startswith(f"{name}__") for key in data):
            return None  # no option inputs sent: the defaults
        out: dict[str, Any] = {}
        for option in self.options():
            key = f"{name}__{option['name']}"
            out[option["name"]] = key in data if option["kind"] == "bool" else data.get(key, "")
        return out

    def value_omitted_from_data(self, data, files, name):
        return not any(key.startswith(f"{name}__") for key in data)

    def render(self, name, value, attrs=None, renderer=None):
        current = {o["name"]: o["default"] for o in self.options()}
        if isinstance(value, dict):
            try:  # the rules in effect (a profile brings its own values)
                current = self.variant_cls.rules_to_dict(self.variant_cls.rules_from_dict(dict(value)))
            except (EngineError, TypeError, AttributeError):
                current.update(value)  # a refused entry: shown as typed, with its error
        rows = []
        for option in self.options():
            key = f"{name}__{option['name']}"
            ident = f"id_{key}"
            value = current.get(option["name"])
            if option["kind"] == "bool":
                field = format_html('<input type="checkbox" name="{}" id="{}"{}>', key, ident,
                                    mark_safe(" checked") if value is True else "")
            elif option["kind"] == "int":
                field = format_html('<input type="number" name="{}" id="{}" value="{}" min="{}" max="{}">',
                                    key, ident, value, option["low"], option["high"])
            else:
                field = format_html('<select name="{}" id="{}">{}</select>', key, ident, format_html_join(
                    "", '<option value="{}"{}>{}</option>',
                    ((v, mark_safe(" selected") if v == value else "", what) for v, what in option["choices"])))
            error = self.option_errors.get(option["name"])
            rows.append(format_html(
                '<div class="rule-option{}" data-option="{}"><label for="{}">{}</label> {}{}'
                '<div class="help" id="{}_helptext">{}</div></div>',
                " has-error" if error else "", option["name"], ident, option["label"], field,
                format_html('<ul class="errorlist" id="{}_error"><li>{}</li></ul>', ident, error) if error else "",
                ident, option["help"]))
        if not rows:
            return format_html('<p class="help">{}</p>', gettext("Pick a variant: its rule options appear here."))
        return format_html('<div class="rule-options">{}</div>', mark_safe("".join(rows)))


class RuleOptionsField(forms.Field):
    """The rules as the options that differ from the variant's defaults."""

    widget = RuleOptionsWidget

    def __init__(self, *args, variant_cls=None, **kwargs):
        kwargs.setdefault("required", False)
        super().__init__(*args, **kwargs)
        self.set_variant(variant_cls)

    def set_variant(self, variant_cls) -> None:
        self.variant_cls = variant_cls
        self.widget.variant_cls = variant_cls

    def prepare_value(self, value):
        return value if isinstance(value, dict) else {}

    def to_python(self, value):
        if value in (None, ""):
            return {}
        if not isinstance(value, dict):
            raise forms.ValidationError("the rule options are a set of named values")
        if self.variant_cls is None:
            return {}
        typed: dict[str, Any] = {}
        errors = {}
        for option in translated(self.variant_cls.rule_options()):
            name = option["name"]
            if name not in value:
                continue
            raw = value[name]
            if option["kind"] == "bool":
                typed[name] = raw in (True, "on", "true", "1")
            elif option["kind"] == "int":
                try:
                    number = int(str(raw).strip())
                except ValueError:
                    errors[name] = gettext("%(option)s: a whole number from %(low)s to %(high)s, not %(value)s") % {
                        "option": option["label"], "low": option["low"], "high": option["high"],
                        "value": repr(raw)}
                    continue
                if not option["low"] <= number <= option["high"]:
                    errors[name] = gettext("%(option)s: from %(low)s to %(high)s, not %(value)s") % {
                        "option": option["label"], "low": option["low"], "high": option["high"],
                        "value": number}
                    continue
                typed[name] = number
            else:
                allowed = [v for v, _ in option["choices"]]
                if raw not in allowed:
                    errors[name] = gettext("%(option)s: one of %(allowed)s, not %(value)s") % {
                        "option": option["label"], "allowed": "; ".join(what for _, what in option["choices"]),
                        "value": repr(raw)}
                    continue
                typed[name] = raw
        self.widget.option_errors = errors
        if errors:
            raise forms.ValidationError(list(errors.values()))
        return typed

    def clean(self, value):
        typed = self.to_python(value)
        if self.variant_cls is None:
            return {}
        defaults = defaults_of(self.variant_cls)
        changed = {k: v for k, v in typed.items() if defaults.get(k) != v}
        try:
            self.variant_cls.rules_from_dict(changed)
        except EngineError as exc:
            raise forms.ValidationError(str(exc)) from None
        return changed
