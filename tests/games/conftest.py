"""Fixtures of the games tests: a tiny registered test variant, API clients."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from engine import registry


def _load_fake():
    name = "tablekeeper_tests_fakegame"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name("fakegame.py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


# Load the real families first: the registry only loads them while it is empty.
registry._load()
fakegame = _load_fake()
if fakegame.Highcard not in registry.VARIANTS:
    registry.VARIANTS.append(fakegame.Highcard)


@pytest.fixture(autouse=True)
def _fresh_state_cache():
    from games.selectors import VIEWS
    from games.services import STATE_CACHE

    STATE_CACHE.clear()
    VIEWS.clear()
    yield
    STATE_CACHE.clear()
    VIEWS.clear()


@pytest.fixture
def Highcard():
    return fakegame.Highcard


@pytest.fixture
def api():
    from rest_framework.test import APIClient

    return APIClient()


@pytest.fixture
def staff_api(django_user_model):
    from rest_framework.test import APIClient

    user = django_user_model.objects.create_user("official", password="pw-official-1", is_staff=True)
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def new_game(db):
    from games import services

    def make(players=2, **kw):
        kw.setdefault("variant", "highcard")
        return services.game_create(players=players, **kw)

    return make


@pytest.fixture
def settle(db):
    """``settle(game, **kw)``: open a dispute, run its queued task (the
    tests' transaction never commits, so the outbox is drained here) and
    return the dispute, checked waiting before and done after."""
    from games import disputes, outbox
    from games.models import TaskState

    def run(game, **kw):
        dispute = disputes.dispute_open(game=game, **kw)
        assert dispute.status == TaskState.WAITING
        outbox.drain()
        dispute.refresh_from_db()
        assert dispute.status == TaskState.DONE, dispute.error
        return dispute

    return run
