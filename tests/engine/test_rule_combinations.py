"""Rule options that have no effect under the other options: each
combination is refused with its reason or accepted with a warning that the
game's record keeps (docs/rules/rummikub.md and docs/rules/contract.md,
"Options without effect")."""

import json
from dataclasses import replace

import pytest

from engine.cli_replay import main as replay_main
from engine.contract import ContractGame
from engine.contract.ai import play_game
from engine.contract.rules import PROFILES, ContractRules
from engine.errors import RecordError, RuleOptionError
from engine.records import read_record, replay_text, write_game, write_record
from engine.rummikub import PRESETS, RuleSet, SabraGame, rules_from_dict
from engine.rummikub.ai.random_player import RandomPlayer


# --- Rummikub ---------------------------------------------------------------------------------

@pytest.mark.parametrize("data", [
    {"joker_group_both_colours": True},
    {"joker_group_both_colours": "true", "joker_sets": "free"},
    {"preset": "pressman-1980", "joker_sets": "free"},
])
def test_both_colours_with_free_jokers_is_refused_naming_the_reason(data):
    with pytest.raises(RuleOptionError) as info:
        rules_from_dict(data)
    text = str(info.value)
    assert "joker_group_both_colours" in text and "joker_sets=free" in text
    assert "no effect" in text


@pytest.mark.parametrize("sets", ["keep-tile", "frozen"])
def test_both_colours_is_taken_where_it_has_an_effect(sets):
    rules = rules_from_dict({"joker_group_both_colours": True, "joker_sets": sets})
    assert rules.joker_group_both_colours and rules.warnings() == []


def test_a_record_with_the_refused_pair_is_refused_at_its_header(tmp_path, capsys):
    text = write_game(SabraGame.new(2, seed="pair"))
    bad = text.replace('[Rule "joker_group_both_colours=false"]',
                       '[Rule "joker_group_both_colours=true"]')
    assert bad != text
    with pytest.raises(RecordError, match="joker_group_both_colours"):
        replay_text(bad)
    path = tmp_path / "pair.txt"
    path.write_text(bad)
    assert replay_main([str(path)]) == 2
    assert "joker_sets=free" in capsys.readouterr().err


def test_freed_from_rack_with_free_jokers_is_accepted_with_a_warning_in_the_record(tmp_path, capsys):
    rules = rules_from_dict({"preset": "official-book", "joker_sets": "free"})
    assert rules.joker_freed_from == "rack"
    (warning,) = rules.warnings()
    assert "joker_freed_from=rack" in warning and "joker_sets=free" in warning
    g = SabraGame.new(2, rules, seed="warned")
    player = RandomPlayer(3)
    while not g.is_over:
        g.push(player.choose(g))
    text = write_game(g, ["Ann", "Ben"])
    rec = read_record(text)
    assert rec.get_all("Warning") == [warning]
    assert write_record(rec) == text
    assert replay_text(text).snapshot() == g.snapshot()
    # the same game under rack-or-table: the option is idle, the play identical
    same = SabraGame.new(2, replace(rules, joker_freed_from="rack-or-table"), seed="warned")
    for move in g.move_stack:
        same.push(move)
    assert same.scores() == g.scores()
    path = tmp_path / "warned.txt"
    path.write_text(text)
    assert replay_main([str(path)]) == 0
    assert f"warning: {warning}" in capsys.readouterr().err
    assert replay_main(["--json", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["warnings"] == [warning]


def test_no_preset_and_no_default_warns():
    assert RuleSet().warnings() == []
    for name, preset in PRESETS.items():
        assert preset.warnings() == [], name
    g = SabraGame.new(2, seed="plain")
    assert "[Warning" not in write_game(g)


# --- contract rummy ---------------------------------------------------------------------------

@pytest.mark.parametrize("profile, changes, words", [
    ("three-decks", {"buy_priority": "next-in-turn"}, ["buy_priority=next-in-turn", "buy_consent=true"]),
    ("international", {"buy_consent": True}, ["buy_priority=next-in-turn", "buy_consent=true"]),
    ("three-decks", {"own_turn_extra": 1}, ["own_turn_extra=1", "own_turn_buy=false"]),
    ("international", {"buy_limit": 0}, ["own_turn_buy=true", "buy_limit=0"]),
    ("three-decks", {"buy_limit": 0, "buy_beneath": True}, ["buy_beneath=true", "buy_limit=0"]),
    ("three-decks", {"point_two": 7}, ["point_two=7", "twos_wild=true"]),
    ("international", {"jokers_per_deck": 0, "point_wild": 50}, ["point_wild=50", "no wild cards"]),
    ("international", {"jokers_per_deck": 0, "wild_ratio": "always"}, ["wild_ratio=always", "no wild cards"]),
])
def test_contract_idle_options_are_accepted_with_a_warning(profile, changes, words):
    rules = ContractGame.rules_from_dict({"profile": profile, **changes})
    warnings = rules.warnings()
    assert len(warnings) == 1
    for w in words:
        assert w in warnings[0]


@pytest.mark.parametrize("profile, changes", [
    ("international", {"twos_wild": True}),      # point_two=5 is the profile's own value
    ("three-decks", {"own_turn_buy": True, "own_turn_extra": 1}),
    ("three-decks", {"jokers_per_deck": 0}),     # twos are still wild
    ("international", {"buy_consent": False, "buy_priority": "first-asked"}),
])
def test_contract_options_that_do_act_give_no_warning(profile, changes):
    assert ContractGame.rules_from_dict({"profile": profile, **changes}).warnings() == []


def test_contract_profiles_give_no_warning():
    assert ContractRules().warnings() == []
    for name, rules in PROFILES.items():
        assert rules.warnings() == [], name


def test_a_contract_record_keeps_its_warning_and_replays():
    rules = ContractGame.rules_from_dict({"profile": "three-decks", "point_two": 7})
    g = ContractGame.new(3, rules, seed="warned")
    play_game(g)
    text = g.record(seats=["Ann", "Ben", "Cleo"])
    rec = read_record(text)
    assert rec.get_all("Warning") == rules.warnings()
    assert '[Rule "point_two=7"]' in text
    assert replay_text(text).snapshot() == g.snapshot()
    assert write_record(rec) == text
