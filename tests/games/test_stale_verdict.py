"""A stored verdict is answered again only for the stream it judged (issue
27, item 3): the anonymous audit of a finished game reuses the stored
verdict while the stream, its hashes and anchors, the rows and the kept
heads are what it was made from, and audits again as soon as one changed,
however many events there still are."""

import json

import pytest

from games import checkpoints
from games.models import AuditVerdict, Event, Game, Seat

from .test_audit import raw
from .test_services import play_to_end

pytestmark = pytest.mark.django_db


@pytest.fixture
def audited(api, new_game):
    game = play_to_end(new_game(players=3))
    first = api.post(f"/api/games/{game.pk}/audit/")
    assert first.status_code == 200 and first.json()["ok"] is True
    assert first.json()["head_version"] == game.version
    return game


def test_an_edited_payload_with_the_count_unchanged_is_not_answered_from_the_stored_verdict(api, audited):
    count = Event.objects.filter(game=audited).count()
    row = Event.objects.get(game=audited, version=4)
    raw("UPDATE games_event SET payload = %s WHERE id = %s", [json.dumps({**row.payload, "note": "x"}), row.pk])
    assert Event.objects.filter(game=audited).count() == count
    again = api.post(f"/api/games/{audited.pk}/audit/").json()
    assert again["ok"] is False and again["first_bad_version"] == 4, again
    # and that verdict is what is answered from then on
    assert api.post(f"/api/games/{audited.pk}/audit/").json() == again


def test_an_unchanged_stream_is_answered_from_the_stored_verdict(api, audited):
    assert api.post(f"/api/games/{audited.pk}/audit/").json()["ok"] is True
    assert AuditVerdict.objects.filter(game=audited).count() == 1


@pytest.mark.parametrize("change", ["anchor", "seat name", "row scores", "checkpoint head", "anchor key"])
def test_any_changed_input_means_a_new_audit(api, audited, change, settings):
    last = Event.objects.filter(game=audited).order_by("-version").first()
    if change == "anchor":
        raw("UPDATE games_event SET anchor = %s WHERE id = %s", ["0" * 64, last.pk])
    elif change == "seat name":
        Seat.objects.filter(game=audited, index=1).update(name="Mallory")
    elif change == "row scores":
        Game.objects.filter(pk=audited.pk).update(scores=[0, 0, 0])
    elif change == "checkpoint head":
        checkpoints.checkpoint_write()
    else:
        settings.GAMES_ANCHOR_KEY = "another key"
    answer = api.post(f"/api/games/{audited.pk}/audit/").json()
    assert AuditVerdict.objects.filter(game=audited).count() == 2, answer
    if change == "checkpoint head":
        assert answer["ok"] is True and answer["checkpoint_seq"] == 1
    else:
        assert answer["ok"] is False
