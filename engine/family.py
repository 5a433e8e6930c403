"""What a game family is, for the layers above the engine.

python-chess keeps a variant's traits on its board class (``uci_variant``,
``starting_fen``), so code above asks the class instead of testing its name.
Here each family keeps one :class:`Family` description in its own package
(``engine/<family>/family.py``), registered with
:func:`engine.registry.register_family` and found with
:func:`engine.registry.family_for`. The league (rounds, score sheets,
standings), the games app (boards, disputes, AI seats) and the templates ask
it; none of them names a family.

What a description holds:

- what a round is: :attr:`Family.round_games` (``"per-seat"``: one game per
  seat, the first seat rotating; ``"one"``: one game, a match or seven
  hands) and :meth:`Family.games_per_table`;
- the score sheet: :attr:`Family.sheet` (a :class:`Sheet`: what a line
  holds, how many lines) and :meth:`Family.read_sheet`, which reads and
  checks a sheet and scores it with the engine, in one call;
- results and standings: :attr:`Family.fewer_is_better`,
  :attr:`Family.precedence`, :attr:`Family.zero_sum`,
  :meth:`Family.stream_result`;
- disputes: :attr:`Family.dispute_kinds`, :meth:`Family.judge`,
  :meth:`Family.check_dispute`;
- the board: :attr:`Family.board` (what the pages read: pieces, the pool's
  name, the table script and its global, partial templates) and
  :meth:`Family.draw` (an engine view as rows of chips);
- the rule options with their sentences (:meth:`Family.rule_options`), the
  AI levels (:meth:`Family.ai_levels`, :attr:`Family.default_ai_level`);
- post-game analysis: :meth:`Family.analyser` (the package's
  ``analysis.analyse``), :meth:`Family.analyse`.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar

from .errors import EngineError

Chip = dict[str, str]


@dataclass(frozen=True)
class Sheet:
    """What a family's score sheet holds.

    ``kind`` is the shape of the sheet, which the league's forms and printed
    sheets follow: ``"racks"`` (one line per seat: the pieces left on it,
    empty for the player who went out), ``"hands"`` (``lines`` hands, each
    with the pieces every seat had left) or ``"lines"`` (one line per game
    of a match: who won, how; ``lines`` form lines, ``printed`` on paper).
    ``pieces`` is ``"tiles"`` or ``"cards"``; ``keys`` the sheet's parts
    :meth:`Family.read_sheet` takes (``racks``, ``hands``, ``games``,
    ``won``)."""

    kind: str = "racks"
    pieces: str = "tiles"
    lines: int = 0
    printed: int = 0
    keys: tuple[str, ...] = ("racks",)


@dataclass(frozen=True)
class Board:
    """How the pages draw a game of the family (data the templates read).

    ``pieces``: ``"tiles"`` or ``"cards"``; ``pool``: what the draw pile is
    called (``"pool"``, ``"stock"``, ``"middle"``); ``holder``: a seat's
    pieces (``"rack"`` or ``"hand"``); ``script`` and ``script_global``: the
    browser table (``static/games/table/<script>.js``, which defines
    ``window.<script_global>``); ``facts``: a partial template with the
    family's line of facts above the board (empty: none); ``notation``: the
    partial with the move notation's help; ``move_hint``: the text form's
    placeholder."""

    pieces: str = "tiles"
    pool: str = "pool"
    holder: str = "rack"
    script: str = ""
    script_global: str = ""
    facts: str = ""
    notation: str = ""
    move_hint: str = "draw"


@dataclass(frozen=True)
class Drawing:
    """An engine view as the board draws it (:meth:`Family.draw`): the
    melds (rows of chips) with their owners' seats, each seat's count of
    pieces, the draw pile's count, the flags (a seat has opened) and what
    a flag says, each seat's discards, how to draw a seat's pieces, and the
    family's facts (``facts``: read by the ``Board.facts`` partial)."""

    melds: list[list[Chip]]
    counts: list[int]
    pool: int | None
    chip: Callable[[str], Chip]
    owners: list[int | None] = field(default_factory=list)
    flags: list[bool] = field(default_factory=list)
    flag_text: str = ""
    piles: list[list[Chip]] | None = None
    facts: dict[str, Any] = field(default_factory=dict)


class SheetError(EngineError, ValueError):
    """A score sheet that cannot be right; the message names the problem.

    :param seat: the seat (from 1) whose line it is, when it is one seat's.
    :param token: the text that is not in the notation, when that is the
        problem (so a page can say it in its reader's language).
    """

    def __init__(self, message: str, *, seat: int | None = None, token: str | None = None):
        super().__init__(message)
        self.seat = seat
        self.token = token


class DisputeRefused(EngineError, ValueError):
    """A dispute a family's judge does not answer for this move.

    :param code: a short stable code (``"not-applicable"``,
        ``"not-going-out"``, ``"bad-claimed-table"``).
    """

    def __init__(self, message: str, code: str = "not-applicable"):
        super().__init__(message)
        self.code = code


class Family:
    """A game family's description. Subclass it in the family's package and
    register one instance (:func:`engine.registry.register_family`);
    override only what differs."""

    #: the family's name: its package under ``engine/`` and every game
    #: class's ``family``
    name: ClassVar[str] = ""
    #: its name for people
    title: ClassVar[str] = ""
    #: each variant's name for people, by variant key (a variant left out
    #: is called by the family's ``title``)
    variant_titles: ClassVar[dict[str, str]] = {}
    #: each AI level's name for people, by level key (a level left out is
    #: shown by its key)
    ai_level_titles: ClassVar[dict[str, str]] = {
        "random": "Beginner (random legal moves)",
        "greedy": "Club player (plays the most it can)",
        "strong": "Strong (searches for the best play)",
        "expert": "Expert (weighs the tiles it cannot see)",
    }
    #: where it is listed among families (lower first)
    order: ClassVar[int] = 50
    #: ``"per-seat"``: a round at a table is one game per seat, the first
    #: seat rotating; ``"one"``: one game (seven hands, a match)
    round_games: ClassVar[str] = "per-seat"
    #: whether the game's own points are better fewer (contract rummy's
    #: cards left in hand): the league then stores their negation, so that
    #: more is better everywhere, and shows them back as points
    fewer_is_better: ClassVar[bool] = False
    #: the tie-breaks a new tournament gets when none are chosen (empty:
    #: the league's default)
    precedence: ClassVar[tuple[str, ...]] = ()
    #: the AI level a seat plays at when none is given
    default_ai_level: ClassVar[str] = "random"
    #: the dispute kinds the family's judge answers
    dispute_kinds: ClassVar[tuple[str, ...]] = ()
    #: why a kind that is not the family's does not apply, by kind
    dispute_hints: ClassVar[dict[str, str]] = {}
    sheet: ClassVar[Sheet] = Sheet()
    board: ClassVar[Board] = Board()
    #: the league pages' partial templates for what only this family says
    #: (``round_legend``, ``tournament_legend``, ``points_legend``); a slot
    #: left out shows the pages' own text (or nothing)
    pages: ClassVar[dict[str, str]] = {}

    def __repr__(self) -> str:
        return f"<Family {self.name}>"

    def ai_level_title(self, level: str) -> str:
        """An AI level's name for people (English; the pages translate it)."""
        return self.ai_level_titles.get(level, level)

    # --- rounds -----------------------------------------------------------
    def games_per_table(self, seats: int) -> int:
        """How many games a table of ``seats`` plays in a round."""
        return seats if self.round_games == "per-seat" else 1

    # --- variants, rules, AI ------------------------------------------------
    def variants(self) -> list[type]:
        """The family's game classes, as registered."""
        from .registry import VARIANTS, _load

        _load()
        return [cls for cls in VARIANTS if cls.family == self.name]

    def variant_title(self, variant: str) -> str:
        """The variant's name for people ("International Rummikub",
        "Contract rummy"), in English (the pages translate it)."""
        return self.variant_titles.get(variant) or f"{self.title} ({variant})"

    def rule_options(self, variant: str) -> list[dict[str, Any]]:
        """Every rule option of ``variant`` with its default and sentence
        (:meth:`engine.base.Game.rule_options`)."""
        from .registry import find_variant

        return find_variant(variant).rule_options()

    def ruleset(self, variant: str, rules: dict | None):
        """``(game class, frozen rule set)`` of ``variant`` with ``rules``.

        :raises SheetError: an unknown variant, one of another family, or
            rule options the engine refuses.
        """
        from .registry import find_variant

        try:
            cls = find_variant(variant)
            ruleset = cls.rules_from_dict(dict(rules or {}))
        except EngineError as exc:
            raise SheetError(f"rule options refused: {exc}") from None
        if cls.family != self.name:
            raise SheetError(f"{variant} is not a {self.title} variant")
        return cls, ruleset

    def ai_levels(self) -> dict[str, type]:
        """The computer players by level, weakest first: the ``LEVELS`` of
        the family's ``ai`` package (empty if it has none)."""
        module = self._part("ai")
        return dict(getattr(module, "LEVELS", {})) if module is not None else {}

    def ai_level_aliases(self) -> dict[str, str]:
        """Other names of AI levels (a level renamed keeps its old name for
        the seats stored under it): the ``ALIASES`` of the family's ``ai``
        package, old name -> level."""
        module = self._part("ai")
        return dict(getattr(module, "ALIASES", {})) if module is not None else {}

    def _part(self, name: str):
        """The module ``name`` of the family's package, ``None`` if it has
        none (an error inside the module is raised)."""
        package = type(self).__module__.rpartition(".")[0]
        try:
            return importlib.import_module(f"{package}.{name}")
        except ModuleNotFoundError as exc:
            if not (exc.name or "").endswith(f"{package}.{name}"):
                raise
            return None

    # --- the score sheet's lines ----------------------------------------------
    def sheet_lines(self) -> list[dict[str, Any]]:
        """The sheet's numbered lines beyond one per seat (a ``"hands"``
        sheet: each hand with its ``label``; a ``"lines"`` sheet: the
        printed lines), each ``{"number", "label"}``."""
        return [{"number": k, "label": ""} for k in range(1, self.sheet.printed + 1)]

    def sheet_start(self, variant: str, rules: dict | None) -> int | None:
        """The points each player starts a match with, printed on a
        ``"lines"`` sheet (``None``: no such line)."""
        return None

    def asks_how_won(self, variant: str, rules: dict | None = None) -> bool:
        """Whether the sheet also says how the game was won (and the
        choices :meth:`closed_types` offers)."""
        return False

    def closed_types(self) -> list[tuple[int, str]]:
        """The kinds of closed hand a sheet that asks how a game was won
        offers, by number."""
        return []

    # --- results ------------------------------------------------------------
    def read_sheet(self, sheet: dict[str, Any], *, seats: int, variant: str,
                   rules: dict | None = None, first: int = 0) -> dict[str, Any]:
        """Read, check and score a sheet of a game played at a real table:
        the result's payload (``source``, ``scores`` (more is better),
        ``winners`` and the sheet as read).

        :raises SheetError: a sheet that cannot be right, named.
        """
        raise SheetError(f"{self.title} games are recorded from their move log, not a score sheet")

    def _only(self, sheet: dict[str, Any], what: str) -> None:
        """Refuse parts of a sheet this family's sheet does not have.

        :raises SheetError: a part not in :attr:`Sheet.keys`, named.
        """
        extra = [k for k, v in sheet.items() if k not in self.sheet.keys and v not in (None, (), [], "")]
        if extra:
            raise SheetError(f"a {self.title} score sheet gives {what}, not {', '.join(sorted(extra))}")

    def stream_result(self, raw: list[int], *, variant: str,
                      rules: dict | None = None) -> tuple[list[int], list[int]]:
        """The league's scores (more is better) and winners of a game played
        through the system, from the engine's final scores.

        :raises SheetError: scores a zero-sum family's game cannot have.
        """
        from .registry import find_variant

        scores = [-s for s in raw] if self.fewer_is_better else list(raw)
        if not self.fewer_is_better and find_variant(variant).zero_sum and sum(scores) != 0:
            raise SheetError(f"the stream's scores {scores} do not sum to zero")
        top = max(scores)
        return scores, [i for i, s in enumerate(scores) if s == top]

    # --- disputes -------------------------------------------------------------
    def judge(self, kind: str, before, after, payload: dict[str, Any], *,
              claimed_table: list[int] | None = None) -> dict[str, Any]:
        """Answer a dispute of ``kind`` about the move ``payload`` that
        turned ``before`` into ``after``: ``{"upheld", "verdict",
        "summary", "evidence"}``.

        :raises DisputeRefused: the kind does not apply to this move.
        """
        raise DisputeRefused(f"{self.title} disputes are not judged", "not-judged")

    def check_dispute(self, kind: str, before, payload: dict[str, Any], move_version: int) -> None:
        """The checks made when a dispute is opened (before it is judged).

        :raises DisputeRefused: the dispute cannot apply to that move.
        """

    def parse_claimed(self, tiles, before) -> list[int] | None:
        """A table claimed by the disputer, read (only families that judge
        a typed-in table take one).

        :raises DisputeRefused: a claimed table this family does not read.
        """
        raise DisputeRefused(f"a claimed table is not read for {self.title} games", "bad-claimed-table")

    # --- moves in words -----------------------------------------------------------
    #: what :meth:`describe_move` may answer as ``key``: the pages and the
    #: live script hold one sentence for each (``games/words.py``,
    #: ``static/games/live.js``), "Ben laid R8 B8 O8"
    MOVE_WORDS: ClassVar[tuple[str, ...]] = (
        "drew", "drew_n", "passed", "timeout", "penalty", "laid", "moved", "took", "took_pile",
        "discarded", "went_down", "laid_off", "swapped", "buy", "allowed", "refused", "undid",
        "finished", "showed", "announced", "closed", "trump", "other")

    def describe_move(self, move: str) -> dict[str, Any]:
        """A recorded move's public text in words, for the pages:
        ``{"key", "pieces", "melds", "n", "text"}`` with ``key`` one of
        :attr:`MOVE_WORDS`, ``pieces`` the chips the move shows (tiles laid,
        the card discarded), ``melds`` rows of chips (a contract put down),
        ``n`` a count and ``text`` the move's own notation (what
        ``"other"`` shows). A seat written first is left out: the pages
        name the player. Never more than the text shows (a draw's tile
        hidden from the public text stays hidden)."""
        return self._said("other", text=move)

    @staticmethod
    def _said(key: str, pieces: list[Chip] | None = None, melds: list[list[Chip]] | None = None,
              n: int = 0, text: str = "") -> dict[str, Any]:
        return {"key": key, "pieces": pieces or [], "melds": melds or [], "n": n, "text": text}

    # --- the board ------------------------------------------------------------
    def draw(self, view: dict[str, Any]) -> Drawing:
        """The engine's ``view`` as the board draws it."""
        raise NotImplementedError

    # --- post-game analysis ------------------------------------------------------
    def analyser(self):
        """The family's post-game analyser: the module-level
        ``analyse(source) -> engine.analysis.GameAnalysis`` of the package's
        ``analysis`` module (``docs/analysis.md`` says what each family's
        judges), imported when first asked for.

        :raises NotImplementedError: the family has no analysis module.
        """
        module = self._part("analysis")
        if module is None:
            raise NotImplementedError(f"post-game analysis of {self.title} games is not written yet")
        return module.analyse

    @property
    def analyses(self) -> bool:
        """Whether the family has a post-game analyser."""
        try:
            self.analyser()
        except NotImplementedError:
            return False
        return True

    def analyse(self, source):
        """Every turn of a record or finished game judged (the analyser's
        answer).

        :raises NotImplementedError: the family has no analysis module.
        """
        return self.analyser()(source)


# --- chips shared by the families' boards ---------------------------------------------

TILE_COLOURS = {"K": "black", "R": "red", "B": "blue", "O": "orange"}


def tile_chip(code: str) -> Chip:
    """A tile code (``R7``, ``J``, ``J(R6)``, ``J(7)``) as a chip:
    ``{"css", "label", "stands", "code"}``."""
    code = code.strip()
    if code.startswith("J"):
        stands = code[2:-1] if code.startswith("J(") and code.endswith(")") else ""
        colour = TILE_COLOURS.get(stands[:1], "")
        return {"css": f"tile joker {colour}".strip(), "label": "\u263a", "stands": stands, "code": code}
    colour = TILE_COLOURS.get(code[:1], "unknown")
    return {"css": f"tile {colour}", "label": code[1:] or code, "stands": "", "code": code}


def tile_meld(text: str) -> list[Chip]:
    """A meld as the engine writes it (``[K1 K2 J(K3)]``) as a row of chips."""
    return [tile_chip(t) for t in text.strip().strip("[]").split()]


SUITS = {"C": ("\u2663", "black"), "D": ("\u2666", "red"), "H": ("\u2665", "red"), "S": ("\u2660", "black")}


def card_chip(code: str, stands: str = "") -> Chip:
    """A card code (``7C``, ``TD``, ``JK``) as a chip with its suit symbol;
    ``stands`` marks what a joker stands for in a meld."""
    if code == "JK":
        return {"css": "card joker", "label": "\u2605", "stands": stands, "code": code}
    rank, suit = code[:-1], code[-1:]
    symbol, colour = SUITS.get(suit, (suit, "black"))
    return {"css": f"card {colour}", "label": ("10" if rank == "T" else rank) + symbol, "stands": "",
            "code": code}
