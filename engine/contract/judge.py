"""Judging a claimed going-out (a dispute settled by the rules):
:func:`claims_going_out` says whether a move would empty its player's hand,
:func:`judge_going_out` pushes it on a copy of the game and says whether it
went out with a winning hand, naming the first rule broken.
"""

from __future__ import annotations

from typing import Any

from ..cards import TEXT
from ..errors import IllegalMoveError
from .game import ContractGame
from .melds import Meld, meld_from_dict
from .moves import Move
from .rules import CONTRACTS, contract_text


_GOING_OUT_ACTIONS = ("down", "lay", "swap", "discard")


def _cards_taken(move: Move) -> list[int]:
    """The cards ``move`` takes from its player's hand."""
    if move.action == "down":
        return [c for m in move.melds for c in m]
    if move.action in ("lay", "swap", "discard"):
        return [move.card]
    return []


def claims_going_out(game: ContractGame, move: Move | str) -> bool:
    """Whether ``move``, pushed on ``game``, would empty its player's hand:
    a ``down``, ``lay`` or ``swap`` that plays as many cards as the hand
    holds, or a ``discard`` of the last card (which the rules refuse: see
    :func:`judge_going_out`). Says nothing about whether the move is legal.

    :raises NotationError: text that does not parse.
    """
    if isinstance(move, str):
        move = Move.parse(move)
    if game.over or move.action not in _GOING_OUT_ACTIONS:
        return False
    seat = game.active if move.seat is None else move.seat
    if not (isinstance(seat, int) and 0 <= seat < game.n):
        return False
    return len(_cards_taken(move)) == len(game.hands[seat])


def _meld_evidence(m: Meld, index: int | None = None) -> dict[str, Any]:
    d = m.to_dict()
    d["wilds"] = m.wilds
    if index is not None:
        d["meld"] = index + 1
    return d


def judge_going_out(game: ContractGame, move: Move | str) -> dict[str, Any]:
    """Judge the claim that ``move`` went out of the hand in play on
    ``game`` (the state just before it) with a winning hand. Pure:
    ``game`` is not changed.

    The move is pushed on a copy, so every rule the engine enforces is
    applied as in play: the player on turn and after drawing; for a
    ``down``, each meld a valid set or run for the profile (wild cards,
    aces, the natural/wild ratio), the hand's contract met
    (``exact_melds``, ``run_suits_distinct``); for a ``lay`` or ``swap``,
    the player already down and the card fitting; the last card never
    discarded (``last-card-discard``); not on a turn the top discard was
    taken where the profile forbids it (``no-out-after-take``). The table
    the move leaves is then checked again meld by meld
    (:meth:`MeldRules.check_meld`, the melds just put down at the going-down
    ratio), and the hand must have ended with this player out.

    :returns: ``{"valid", "rule", "reason", "seat", "move", "action",
        "profile", "hand", "contract", "contract_melds", "melds", "table"}``:
        ``rule`` is ``None`` when valid, else the code of the first rule
        broken (the engine's own :class:`IllegalMoveError` codes) and
        ``reason`` says it for people; ``melds`` are the melds the move
        laid or changed (each with its ``kind``), ``table`` every meld on
        the table when the hand ended (empty when the move was refused).
        Nothing in it comes from a hand but the cards the move played.
    :raises ValueError: ``move`` does not claim to go out
        (:func:`claims_going_out`); the message says how many cards it
        would leave.
    :raises NotationError: text that does not parse.
    """
    if isinstance(move, str):
        move = Move.parse(move)
    seat = game.active if move.seat is None else move.seat
    if not claims_going_out(game, move):
        if game.over:
            raise ValueError("the game is over: no move goes out")
        if move.action not in _GOING_OUT_ACTIONS:
            raise ValueError(f"{move.body()!r} plays no card: it cannot go out")
        if not (isinstance(seat, int) and 0 <= seat < game.n):
            raise ValueError(f"no seat {seat!r} at a table of {game.n}")
        left = len(game.hands[seat]) - len(_cards_taken(move))
        raise ValueError(f"{move.body()!r} would leave seat {seat} with {left} card(s): "
                         f"it does not go out")
    need_s, need_r = CONTRACTS[game.hand_no]
    out: dict[str, Any] = {
        "valid": False, "rule": None, "reason": "", "seat": seat,
        "move": f"{seat} {move.body()}", "action": move.action,
        "profile": game.rules.profile, "hand": game.hand_no + 1,
        "contract": contract_text(game.hand_no),
        "contract_melds": {"sets": need_s, "runs": need_r},
        "melds": [], "table": []}
    r = game._r
    if move.action == "down":
        # what each claimed meld is, valid or not (the cards are on the table)
        for cards in move.melds:
            try:
                out["melds"].append(_meld_evidence(r.build(list(cards), seat)))
            except IllegalMoveError as exc:
                out["melds"].append({"kind": None, "cards": [TEXT[c] for c in cards],
                                     "problem": str(exc), "rule": exc.rule})
    trial = type(game).from_snapshot(game.snapshot())
    hand_no, ended_before = trial.hand_no, len(trial.results)
    try:
        trial.push(move)
    except IllegalMoveError as exc:
        out.update(rule=exc.rule, reason=str(exc))
        return out
    if len(trial.results) == ended_before:
        out.update(rule="not-out", reason=f"the hand did not end: seat {seat} is not out")
        return out
    result = trial.results[-1]
    table = [meld_from_dict(d, r) for d in result["table"]]
    out["table"] = [_meld_evidence(m, i) for i, m in enumerate(table)]
    if move.action == "down":
        first_new = len(table) - len(move.melds)
        new = range(first_new, len(table))
        out["melds"] = [out["table"][i] for i in new]
    elif move.action == "lay":
        new = range(0)
        out["melds"] = [{**out["table"][move.target], "laid": TEXT[move.card]}]
    else:
        new = range(0)
        out["melds"] = [{**out["table"][move.target], "laid": TEXT[move.card]},
                        {**out["table"][move.wild_target], "laid": "wild"}]
    for i, m in enumerate(table):
        try:
            r.check_meld(m, going_down=i in new)
        except IllegalMoveError as exc:
            out.update(rule=exc.rule, reason=f"meld {i + 1} ({m.text()}): {exc}")
            return out
    if result["winner"] != seat or result["cards"][seat]:
        out.update(rule="not-out", reason=f"the hand did not end with seat {seat} out")
        return out
    out.update(valid=True, reason=f"seat {seat} went out of hand {hand_no + 1} "
                                  f"({contract_text(hand_no)}) by {move.action}")
    return out
