"""The analysis's reasons in the reader's language (games/analysis_words.py):
every code the engine's analysers say has its sentences, whose English is
the engine's own text for the reasons of real analysed games, and whose
translations fill the same places."""

from __future__ import annotations

import importlib
import inspect
import re
from collections import defaultdict
from pathlib import Path

import pytest
from django.utils import translation

import engine.analysis as ea
from engine.ai import levels_for
from engine.analysis import Reason
from engine.registry import FAMILIES, analyser_for, find_variant
from games.analysis_words import DID, REASONS, reason_text, sentence_for

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("nl", "tr", "de")
CODE = re.compile(r"""\b(?:miss|inaccuracy)\(\s*"([a-z-]+)\"""")
PLACE = re.compile(r"%\((\w+)\)s")
# seeded games played by the computer's random and simple players (with
# their mistakes): variant, players, rule options
SELF_PLAY = [("sabra", 2, {}), ("american", 2, {}), ("okey", 4, {"start_points": 1}), ("contract", 3, {})]


def analysers():
    """Each family's analysis module that the engine has."""
    found = {}
    for family in FAMILIES:
        try:
            found[family] = importlib.import_module(f"engine.{family}.analysis")
        except ImportError:
            continue
    return found


def engine_codes() -> set[str]:
    """Every code a family's analysis says, read from its source."""
    return {code for path in ROOT.glob("engine/*/analysis.py") for code in CODE.findall(path.read_text())}


def _run_engine_tests():
    """The engine's own analysis tests, each game they analyse (made to show
    each reason: a trump held back, a buy that cost, the okey thrown away)."""
    for path in sorted((ROOT / "tests" / "engine").glob("test_analysis*.py")):
        module = importlib.import_module(f"tests.engine.{path.stem}")
        for name, test in vars(module).items():
            if not name.startswith("test_") or not inspect.isfunction(test):
                continue
            marks = [m for m in getattr(test, "pytestmark", []) if m.name == "parametrize"]
            if marks:
                names = [n.strip() for n in marks[0].args[0].split(",")]
                for values in marks[0].args[1]:
                    test(**dict(zip(names, values if isinstance(values, tuple) else (values,))))
            elif not inspect.signature(test).parameters:
                test()


def _self_play(seeds: int = 2):
    for variant, players, options in SELF_PLAY:
        cls = find_variant(variant)
        levels = levels_for(cls.family)
        simple = next(lv for lv in levels if lv != "random")
        for seed in range(seeds):
            game = cls.new(players, options, seed=f"reason-words-{seed}")
            seats = [levels["random" if i % 2 == 0 else simple](f"reason-words-{seed}:{i}") for i in range(players)]
            for _ in range(20_000):
                if game.is_over:
                    break
                game.push(seats[game.to_move].choose(game))
            assert game.is_over, variant
            analyser_for(variant)(game)


@pytest.fixture(scope="module")
def real_reasons():
    """Every reason the analysers made for the engine's analysis tests'
    games and for a few seeded games of each family: ``{family: [Reason]}``."""
    made = defaultdict(list)
    with pytest.MonkeyPatch.context() as mp:
        for family, module in analysers().items():
            for maker in (ea.miss, ea.inaccuracy):
                def said(code, text, _maker=maker, _family=family, **params):
                    reason = _maker(code, text, **params)
                    made[_family].append(reason)
                    return reason

                mp.setattr(module, maker.__name__, said)
        _run_engine_tests()
        _self_play()
    return dict(made)


def test_every_code_the_engine_says_has_its_sentences():
    codes = engine_codes()
    assert len(codes) >= 18 and {"could-go-out", "fewer-tiles", "buy-cost", "take-better"} <= codes
    assert codes == set(REASONS), ("codes without a sentence:", codes - set(REASONS),
                                   "sentences of no code:", set(REASONS) - codes)


def test_real_reasons_are_said_by_a_sentence_whose_english_is_the_engines(real_reasons):
    seen = {r.code for reasons in real_reasons.values() for r in reasons}
    assert seen == engine_codes(), ("codes no game said:", engine_codes() - seen)
    assert set(real_reasons) == set(analysers())
    used = set()
    for family, reasons in real_reasons.items():
        for r in reasons:
            template = sentence_for(r)
            assert template is not None, (family, r)
            used.add(template)
            assert r.params and set(PLACE.findall(template)) == set(r.params) - {"went"}, (family, r)
            with translation.override("en"):
                assert reason_text(r) == r.text
    # each family says its own sentence where codes are shared
    assert {t for ts in REASONS.values() for t in ts} - used <= {
        "seat %(seat)s took the discard %(card)s and went out with it"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_real_reasons_are_said_in_each_language(real_reasons, lang):
    for family, reasons in real_reasons.items():
        for r in reasons:
            with translation.override(lang):
                said = reason_text(r)
            assert said != r.text and "%" not in said, (lang, family, r.text, said)
            # the notation the sentence names is kept as it is
            for name, value in r.params.items():
                if isinstance(value, str) and name not in ("did", "went"):
                    assert value in said, (lang, name, value, said)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_translation_fills_the_same_places(lang):
    with translation.override(lang):
        for template in [t for ts in REASONS.values() for t in ts]:
            said = translation.gettext(template)
            assert said != template, (lang, template)
            assert sorted(PLACE.findall(said)) == sorted(PLACE.findall(template)), (lang, template, said)
        for word in DID.values():
            assert translation.pgettext("analysis", word) != word, (lang, word)
        one, three = (translation.ngettext("%(n)s tile", "%(n)s tiles", n) % {"n": n} for n in (1, 3))
        assert one.startswith("1 ") and three.startswith("3 ") and "tile" not in one + three


def test_tiles_are_counted_with_the_languages_plural():
    r = Reason("fewer-tiles", "placed 3 tiles where 4 fitted: 1 tile worth 9 left behind", "inaccuracy",
               {"tiles": 3, "best": 4, "left_tiles": 1, "left_value": 9})
    with translation.override("nl"):
        assert reason_text(r) == "legde 3 stenen waar er 4 pasten: 1 steen ter waarde van 9 achtergelaten"
    with translation.override("de"):
        assert "3 Steine" in reason_text(r) and "1 Stein " in reason_text(r)


def test_cards_are_counted_with_the_languages_plural():
    one = Reason("fewer-cards", "played 1 card where 3 could go: lay 5C 1 ; lay 6C 1", "inaccuracy",
                 {"played_cards": 1, "best": 3, "moves": "lay 5C 1 ; lay 6C 1"})
    two = Reason("fewer-cards", "played 2 cards where 3 could go: lay 5C 1", "inaccuracy",
                 {"played_cards": 2, "best": 3, "moves": "lay 5C 1"})
    assert reason_text(one).startswith("played 1 card where")
    with translation.override("nl"):
        assert reason_text(one).startswith("speelde 1 kaart waar") and "2 kaarten" in reason_text(two)
    with translation.override("de"):
        assert reason_text(one).startswith("spielte 1 Karte,") and "2 Karten" in reason_text(two)


def test_the_sentence_follows_the_text_where_a_code_has_several():
    out = Reason("fed-next-player", "seat 2 took the discard TH and went out with it", "inaccuracy",
                 {"seat": 2, "card": "TH", "went": "out"})
    down = Reason("fed-next-player", "seat 2 took the discard TH and went down with it", "inaccuracy",
                  {"seat": 2, "card": "TH", "went": "down"})
    with translation.override("nl"):
        assert reason_text(out) == "stoel 2 pakte de afgelegde TH en ging ermee uit"
        assert reason_text(down) == "stoel 2 pakte de afgelegde TH en legde ermee uit"


@pytest.mark.parametrize("reason", [
    Reason("a-code-not-known", "something new happened", "miss", {"tiles": 2}),
    Reason("fewer-tiles", "placed 3 tiles where 4 fitted: 1 tile worth 9 left behind", "inaccuracy",
           {"tiles": 3, "best": 4}),                                       # a place missing
    Reason("fewer-tiles", "placed 3 tiles where 4 fitted: 1 tile worth 9 left behind"),   # stored before params
    Reason.from_dict({"code": "could-go-out", "text": "could have gone out this turn: lay AH 2",
                      "mark": "miss"}),
    Reason("drew-while-play-existed", "sneezed while a play of 2 tiles existed", "inaccuracy",
           {"did": "sneeze", "tiles": 2}),                                  # a deed not known
    Reason("could-go-out", "could have gone out this turn: lay AH 2", "miss", {"moves": "lay AD 2"}),  # not its text
])
def test_a_reason_no_sentence_says_is_shown_in_the_engines_english(reason):
    with translation.override("tr"):
        assert reason_text(reason) == reason.text
