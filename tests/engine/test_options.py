"""Every rule option of every variant is described for people, and what a
form offers from the description is what the rule set accepts."""

from __future__ import annotations

import pytest

from engine import registry
from engine.errors import RuleOptionError

registry._load()
VARIANTS = [c for c in registry.VARIANTS if c.family in registry.FAMILIES]


@pytest.mark.parametrize("cls", VARIANTS, ids=lambda c: c.variant)
def test_every_option_has_a_sentence_and_a_kind(cls):
    described = cls.rule_options()
    defaults = cls.rules_to_dict(cls.rules_from_dict(None))
    assert [o["name"] for o in described] == list(defaults)
    for o in described:
        assert o["help"].endswith(".") and len(o["help"]) > 15, o["name"]
        assert o["default"] == defaults[o["name"]]
        if o["kind"] == "bool":
            assert isinstance(o["default"], bool)
        elif o["kind"] == "int":
            assert o["low"] <= o["default"] <= o["high"]
        else:
            assert o["default"] in [v for v, _ in o["choices"]] and all(what for _, what in o["choices"])


@pytest.mark.parametrize("cls", VARIANTS, ids=lambda c: c.variant)
def test_what_a_form_offers_the_rules_accept_and_nothing_outside(cls):
    for o in cls.rule_options():
        offered = ([True, False] if o["kind"] == "bool" else [o["low"], o["high"]] if o["kind"] == "int"
                   else [v for v, _ in o["choices"]])
        for value in offered:
            try:
                cls.rules_from_dict({o["name"]: value})
            except RuleOptionError as exc:
                # a value refused only with the others at their defaults (it names the other option)
                assert o["name"] not in str(exc).split("=")[0] or "no effect" in str(exc), (o["name"], value, exc)
        if o["kind"] == "choice":
            with pytest.raises(RuleOptionError):
                cls.rules_from_dict({o["name"]: "no-such-value"})
        if o["kind"] == "int":
            with pytest.raises(RuleOptionError):
                cls.rules_from_dict({o["name"]: o["low"] - 1})
