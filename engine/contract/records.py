"""Contract rummy records. The shared format and its replay are
:mod:`engine.records`; a game writes its own (:meth:`ContractGame.record`,
the header from :meth:`ContractGame.setup_tags`: the rules as their
profile plus what differs, the seed or the typed-in deal). Here:
:func:`replay_record`, which reads one back and insists it is contract rummy.
"""

from __future__ import annotations

from ..errors import RecordError
from ..records import replay_text
from .game import ContractGame


def replay_record(text: str) -> ContractGame:
    """Replay a contract record (shared format) from a fresh deal.

    :raises RecordError: unreadable record, or a result that differs.
    :raises IllegalMoveError: (``engine.records.ReplayError``) a move the
        rules refuse, naming the turn, the seat and the rule.
    """
    game = replay_text(text)
    if not isinstance(game, ContractGame):
        raise RecordError(f"not a contract rummy record (variant {game.variant!r})")
    return game
