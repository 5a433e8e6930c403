"""The post-game analysis of stored games: built when a game ends (outbox ->
task), stored as a projection of the stream, never shown before the end."""

from __future__ import annotations

import json
import re
from html import escape

import pytest
from django.core.management import CommandError, call_command

from engine.analysis import GameAnalysis
from engine.registry import analyser_for
from games import analysis, outbox, services
from games.models import GameAnalysisRow, OutboxMessage
from games.services import state_from_stream

from .test_pages import TITLES, canon, play_out

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished():
    game = services.game_create(variant="sabra", players=2, seats=["Ann", "Ben"], title="Analysed")
    return play_out(game, 3)


@pytest.fixture
def playing():
    game = services.game_create(variant="sabra", players=2, seats=["Ann", "Ben"], title="Playing")
    return play_out(game, 3, stop_after=12)


def test_a_finished_game_queues_its_analysis_and_the_task_stores_it(finished):
    rows = OutboxMessage.objects.filter(game=finished, topic=analysis.TASK)
    assert [r.args for r in rows] == [[finished.pk]]
    assert not GameAnalysisRow.objects.filter(game=finished).exists()  # the test transaction never commits
    report = outbox.drain()
    assert not report.errors
    row = GameAnalysisRow.objects.get(game=finished)
    assert row.head_version == finished.version and len(row.head_hash) == 64
    expected = analyser_for("sabra")(state_from_stream(finished))
    assert row.data == json.loads(json.dumps(expected.to_dict()))
    assert row.engine_version == expected.engine_version and row.solver_version == expected.solver_version


def test_rebuilding_gives_the_same_analysis(finished):
    first = analysis.analysis_build(game=finished)
    data = json.dumps(first.data, sort_keys=True)
    GameAnalysisRow.objects.filter(game=finished).delete()
    again = analysis.analysis_build(game=finished.pk)
    assert json.dumps(again.data, sort_keys=True) == data
    assert (again.head_version, again.head_hash) == (first.head_version, first.head_hash)
    assert GameAnalysis.from_dict(again.data).to_json() == GameAnalysis.from_dict(first.data).to_json()


def test_a_game_in_play_queues_nothing_and_is_never_analysed(playing):
    assert not playing.is_over
    assert not OutboxMessage.objects.filter(game=playing, topic=analysis.TASK).exists()
    with pytest.raises(analysis.AnalysisNotReady):
        analysis.analysis_build(game=playing)
    with pytest.raises(analysis.AnalysisNotReady):
        analysis.analysis_of(playing)
    with pytest.raises(analysis.AnalysisNotReady):
        analysis.analysis_page(playing, {})
    assert not GameAnalysisRow.objects.exists()


def test_a_stored_analysis_of_an_older_head_is_made_again(finished):
    row = analysis.analysis_build(game=finished)
    GameAnalysisRow.objects.filter(pk=row.pk).update(head_hash="0" * 64, data={"stale": True})
    a = analysis.analysis_of(finished)
    assert a.to_dict() == GameAnalysis.from_dict(analysis.analysis_build(game=finished).data).to_dict()
    assert GameAnalysisRow.objects.get(pk=row.pk).head_hash != "0" * 64


def test_an_analysis_stored_before_reasons_had_params_is_made_again(finished):
    row = analysis.analysis_build(game=finished)
    old = json.loads(json.dumps(row.data))
    for turn in old["turns"]:
        for r in turn["reasons"]:
            del r["params"]
    GameAnalysisRow.objects.filter(pk=row.pk).update(data=old, engine_version="tablekeeper 0.1, analysis 1")
    a = analysis.analysis_of(finished)
    assert a.engine_version != "tablekeeper 0.1, analysis 1"
    reasons = [r for t in a.turns for r in t.reasons]
    assert reasons and all(r.params for r in reasons)
    assert GameAnalysisRow.objects.get(pk=row.pk).data == row.data


def test_the_api_answers_once_the_game_is_over(api, finished):
    answer = api.get(f"/api/games/{finished.pk}/analysis/")
    assert answer.status_code == 200
    body = answer.json()
    assert body["game"] == finished.pk and body["head"]["version"] == finished.version
    assert body["turns"] and {t["mark"] for t in body["turns"]} <= {"best", "inaccuracy", "miss"}
    assert [s["seat"] for s in body["summary"]] == [0, 1]


def test_no_analysis_of_a_game_in_play_reaches_anyone(api, staff_api, client, django_user_model, playing):
    # the API: the public, a seat's credential, staff
    for caller in (api, staff_api):
        answer = caller.get(f"/api/games/{playing.pk}/analysis/")
        assert answer.status_code == 409
        assert answer.json()["error"] == "analysis-not-ready" and "not over" in answer.json()["detail"]
    token = services.seat_take(game=playing, index=0, name="Ann")
    api.credentials(HTTP_AUTHORIZATION=f"Seat {token}")
    assert api.get(f"/api/games/{playing.pk}/analysis/").status_code == 409
    # the pages: a spectator and staff see no mark, no summary, no chart
    staff = django_user_model.objects.create_user("judge", password="pw-judge-1", is_staff=True)
    for who in (None, staff):
        if who:
            client.force_login(who)
        html = client.get(f"/games/{playing.pk}/").content.decode()
        assert 'id="analysis"' not in html and 'class="analysis-chart"' not in html and 'data-mark=' not in html
        assert 'id="analysis-summary"' not in html and 'id="judged"' not in html
    assert not GameAnalysisRow.objects.exists()


def test_the_api_refuses_an_unknown_game_with_json(api):
    answer = api.get("/api/games/999999/analysis/")
    assert answer.status_code == 404 and "detail" in answer.json()


def test_analyse_games_command(finished, playing, capsys):
    call_command("analyse_games", "--no-progress")
    assert GameAnalysisRow.objects.filter(game=finished).exists()
    assert "1 games analysed, 0 failed" in capsys.readouterr().out
    with pytest.raises(CommandError, match="not over") as stop:
        call_command("analyse_games", str(playing.pk), "--no-progress")
    assert stop.value.returncode == 2
    assert not GameAnalysisRow.objects.filter(game=playing).exists()


def test_the_replay_marks_each_turn_and_links_the_mistakes(client, finished):
    review = analysis.analysis_page(finished, {0: "Ann", 1: "Ben"})
    assert review["mistakes"], "this seeded random game has mistakes"
    html = client.get(f"/games/{finished.pk}/?at=1").content.decode()
    assert 'id="analysis"' in html and 'class="analysis-chart"' in html
    marked = re.findall(r'<li data-mark="(\w+)"', html)
    assert len(marked) == sum(1 for m in review["marks"]) and set(marked) <= {"best", "inaccuracy", "miss"}
    first = review["mistakes"][0]
    assert f'id="next-mistake" href="?at={first}"' in html
    at_mistake = client.get(f"/games/{finished.pk}/?at={first}").content.decode()
    turn = review["marks"][first]
    assert f'data-mark="{turn["mark"]}"' in at_mistake.split('id="judged"', 1)[1][:200]
    assert f'<code class="best">{escape(turn["best"])}</code>' in at_mistake
    for s in review["summary"]:
        assert f'<tr data-seat="{s["seat"]}"><td>{s["name"]}</td><td>{s["percent"]} %</td>' in at_mistake
    # the better play drawn: the table had the turn made it, from the engine
    view = analysis.better_view(finished, turn)
    board = at_mistake.split('id="better-board"', 1)[1].split("</div></div>", 1)[0]
    assert [TITLES.findall(m) for m in re.findall(r'<div class="meld">(.*?)</div>', board, re.S)] == \
        [canon(m) for m in view["table"]]


@pytest.mark.parametrize("lang", ["nl", "tr"])
def test_the_replay_says_the_reasons_in_the_pages_language(client, finished, lang):
    """The engine says a reason in English; a Dutch or Turkish replay page
    says it in Dutch or Turkish, the notation it names kept as it is."""
    from django.utils import translation

    from games.analysis_words import reason_text

    a = analysis.analysis_of(finished)
    mistakes = analysis.analysis_page(finished, {0: "Ann", 1: "Ben"})["mistakes"]
    try:
        for first in mistakes[:4]:
            turn = next(t for t in a.turns if analysis.move_versions(finished)[t.turn - 1] == first)
            html = client.get(f"/games/{finished.pk}/?at={first}", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
            shown = re.findall(r"<li>(.*?)</li>", html.split('<ul class="reasons">', 1)[1].split("</ul>", 1)[0])
            with translation.override(lang):
                said = [reason_text(r) for r in turn.reasons]
            assert shown == [escape(s, quote=True) for s in said] and shown
            for r in turn.reasons:
                assert r.params and escape(r.text, quote=True) not in html, r.text
        english = client.get(f"/games/{finished.pk}/?at={mistakes[0]}", HTTP_ACCEPT_LANGUAGE="en").content.decode()
        first_turn = next(t for t in a.turns if t.mark != "best")
        assert escape(first_turn.reasons[0].text, quote=True) in english
    finally:
        translation.deactivate()


def test_a_variant_without_an_analyser_has_none_and_its_pages_still_draw(api, client, new_game):
    game = new_game(players=2)
    while not game.is_over:
        state = services.load_state(game)
        services.game_record_move(game=game, move=str(state.legal_moves()[-1]), expected_version=game.version,
                                  seat=state.to_move)
        game.refresh_from_db()
    with pytest.raises(analysis.NoAnalysis):
        analysis.analysis_build(game=game)
    answer = api.get(f"/api/games/{game.pk}/analysis/")
    assert answer.status_code == 404 and answer.json()["error"] == "no-analysis"
    page = client.get(f"/games/{game.pk}/")
    assert page.status_code == 200 and 'id="analysis"' not in page.content.decode()


def _american():
    from games.ai_seats import ai_seats_play

    game = services.game_create(variant="american", players=3, seats=[
        {"name": n, "kind": "ai", "ai_level": "greedy"} for n in ("Ada", "Ben", "Cem")])
    assert ai_seats_play(game_id=game.pk).status == "game-over"
    return game


def _okey():
    from .test_disputes_okey import finished_game as okey_game

    return okey_game()[0]


def _contract():
    game = services.game_create(variant="international", players=3, seats=[
        {"name": n, "kind": "ai", "ai_level": "standard"} for n in ("Ada", "Ben", "Cem")])
    outbox.drain()
    return game


@pytest.mark.parametrize("make", [_american, _okey, _contract], ids=["american", "okey", "contract"])
def test_each_judged_turn_points_at_the_events_of_its_moves(make, monkeypatch):
    monkeypatch.setattr(services.secrets, "token_hex", lambda n=16: "analysis-spans")
    from engine.records import read_record
    from games.records import record_text

    game = make()
    game.refresh_from_db()
    assert game.is_over
    versions = analysis.move_versions(game)
    assert len(versions) == len(read_record(record_text(game)).moves)
    review = analysis.analysis_page(game, {})
    assert review["turns"] and set(review["marks"]) <= set(versions)
    a = analysis.analysis_of(game)
    for t, item in zip(a.turns, review["turns"]):
        assert item["first"] == versions[t.turn - 1] and item["mark"] == t.mark
    assert len(review["summary"]) == game.players


def test_a_page_or_the_api_queues_a_missing_analysis_once_and_never_makes_it_itself(client, api, finished,
                                                                                   monkeypatch):
    """The analysis takes up to a second or more of solver time: where
    workers run the tasks a web request never runs it. A finished game whose analysis is missing says so
    on its page and answers 202 on the API, with the task queued once for a
    worker; once the worker has run, both show it."""
    GameAnalysisRow.objects.all().delete()
    OutboxMessage.objects.filter(topic=analysis.TASK).delete()

    def never(**kwargs):
        raise AssertionError("a web request made the analysis itself")

    with monkeypatch.context() as m:
        m.setattr(outbox, "tasks_run_here", lambda: False)       # a deployment with workers
        m.setattr(outbox, "broker_paused", lambda: True)         # that have not run it yet
        m.setattr(analysis, "analysis_build", never)
        html = client.get(f"/games/{finished.pk}/").content.decode()
        assert 'id="analysis-pending"' in html and 'id="analysis"' not in html and "data-mark=" not in html
        answer = api.get(f"/api/games/{finished.pk}/analysis/")
        assert answer.status_code == 202 and answer["Retry-After"] == "5"
        assert answer.json()["status"] == "pending" and "being made" in answer.json()["detail"]
        client.get(f"/games/{finished.pk}/")
        queued = OutboxMessage.objects.filter(topic=analysis.TASK, game=finished)
        assert [(q.status, q.args) for q in queued] == [("pending", [finished.pk])]     # once, not three times
    assert not outbox.drain().errors                              # the worker (in process here)
    html = client.get(f"/games/{finished.pk}/").content.decode()
    assert 'id="analysis"' in html and 'id="analysis-pending"' not in html
    assert api.get(f"/api/games/{finished.pk}/analysis/").status_code == 200


def test_the_move_list_is_well_formed(client, finished):
    """Each move is one ``<li>`` holding its link, and the list's box is
    closed before the analysis summary (a stray ``</div>`` inside the
    ``<li>`` tag once showed a ">" before every move)."""
    from html.parser import HTMLParser

    class Items(HTMLParser):
        def __init__(self):
            super().__init__()
            self.items, self.depth, self.box_closed_at = [], 0, None

        def handle_starttag(self, tag, attrs):
            if tag == "li":
                self.items.append(dict(attrs))

    html = client.get(f"/games/{finished.pk}/").content.decode()
    parser = Items()
    parser.feed(html)
    moves = [a for a in parser.items if "data-mark" in a]
    assert moves and all(set(a) <= {"data-mark", "class"} for a in moves)
    box = html[html.index('<div id="moves-box">'):]
    assert "</div>>" not in html and box.index("</ul>") < box.index("</div>") < box.index('id="analysis-summary"')
