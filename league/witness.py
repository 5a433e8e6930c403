"""The league's result stream as a witness of the games' heads.

A result recorded from a finished game's stream keeps the stream's head
then (``stream_version`` and ``stream_hash`` in the ``ResultRecorded``
payload, :func:`league.services.result_record_from_stream`). The games
audit asks here for those heads (:func:`games.audit.witness`): a finished
game rolled back after its result was recorded (its tail deleted and its
row set back) no longer reaches the head its result names, and the audit
names the first missing event. Results recorded before heads were kept
carry the version only, which still finds a tail cut back."""

from __future__ import annotations

from games.audit import Witness, witness

from .models import ResultEvent


@witness
def result_heads(game_id: int):
    """The heads of stream ``game_id`` that its recorded results keep."""
    events = ResultEvent.objects.filter(game__stream_id=game_id).values_list("version", "game_id", "payload")
    for version, table_game, payload in events:
        if not isinstance(payload, dict) or payload.get("source") != "moves" or payload.get("stream") != game_id:
            continue
        at = payload.get("stream_version")
        if isinstance(at, int) and at > 0:
            yield Witness(at, payload.get("stream_hash") or None,
                          f"the league's result (table game {table_game}, result event {version})")
