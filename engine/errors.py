"""Typed errors of the engine.

Every error a caller can provoke with bad input is a ``ValueError`` subclass,
so ``except ValueError`` catches them all; each names what was wrong.

- :class:`NotationError`: a token or move text that does not parse
  (``"X7"`` is no tile).
- :class:`IllegalMoveError`: a well-formed move the rules forbid now
  (out of turn, initial meld under 30, a table that does not divide).
- :class:`RuleOptionError`: an unknown rule option or a bad value for one.
- :class:`DealError`: a seed or a typed-in deal that cannot start a game.
- :class:`RecordError`: a game record that cannot be read.
- :class:`ResultMismatchError`: a record read and replayed whose ``Result``
  or ``Scores`` tag disagrees with the replay (a verdict on the record, as
  an illegal move is).
"""

from __future__ import annotations


class EngineError(Exception):
    """Base class of every engine error."""


class NotationError(EngineError, ValueError):
    """Text that is not in the engine's notation.

    :param token: the offending token, quoted in the message.
    """

    def __init__(self, message: str, token: str | None = None):
        super().__init__(message)
        self.token = token


class IllegalMoveError(EngineError, ValueError):
    """A well-formed move that the rules do not allow in this position.

    :param rule: a short stable code of the rule broken (``"not-your-turn"``,
        ``"initial-meld-below-threshold"``, ``"table-not-valid"`` ...), for
        programs; the message is for people.
    :param penalty: where the rules turn this failure into a penalty (a
        manipulation that does not end valid costs three tiles), the move the
        rules put in its place; ``None`` when the move is simply refused.
    """

    def __init__(self, message: str, rule: str = "illegal-move", penalty=None):
        super().__init__(message)
        self.rule = rule
        self.penalty = penalty


class RuleOptionError(EngineError, ValueError):
    """An unknown rule option, or a value it does not take."""


class DealError(EngineError, ValueError):
    """A seed or a typed-in deal that cannot start a game."""


class RecordError(EngineError, ValueError):
    """A game record that cannot be read (header or move line)."""

    def __init__(self, message: str, line: int | None = None):
        super().__init__(message if line is None else f"line {line}: {message}")
        self.line = line


class ResultMismatchError(RecordError):
    """A record whose moves replay but whose ``Result`` or ``Scores`` tag
    says otherwise (or claims an end the moves do not reach).

    :param rule: ``"result-differs"``, ``"scores-differ"`` or
        ``"game-not-over"``.
    """

    def __init__(self, message: str, rule: str):
        super().__init__(message)
        self.rule = rule
