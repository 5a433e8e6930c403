"""schemathesis against ``/api/schema/`` with every check, three callers:
anonymous, with a seat credential, and as staff (basic authentication).
The run counts server errors, responses outside the schema, and events
stored from refused requests (the events are counted before and after
each request): all three must be 0. Bounded by ``FUZZ_EXAMPLES`` cases per
caller (default 60; about 80 s for the three on two cores); the figures are printed.
"""

from __future__ import annotations

import base64
import os
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings as hsettings, strategies as st

pytestmark = [pytest.mark.django_db, pytest.mark.fuzz]

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "60"))


def _checks():
    from schemathesis.checks import CHECKS, load_all_checks

    load_all_checks()
    # every check schemathesis has; those that need a whole stateful run or
    # a second server (use_after_free, ensure_resource_availability) report
    # nothing on single calls, and are kept anyway
    return list(CHECKS.get_all())


@pytest.fixture
def schema(db):
    import schemathesis
    from django.core.signals import request_finished, request_started
    from django.core.wsgi import get_wsgi_application
    from django.db import close_old_connections

    # the requests go straight to the WSGI application, in the test's
    # transaction: as Django's test client does, they must not close the
    # test's database connection when they end
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.fixture
def callers(db, django_user_model, settings):
    from games import services

    settings.API_RATE_LIMITS = {}  # the fuzzer is not to be throttled
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 0  # nor locked out by its own wrong guesses
    # basic authentication hashes the password on every request: a quick
    # hasher keeps the staff run as cheap as the others (what is fuzzed is
    # the API, not PBKDF2)
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    django_user_model.objects.create_user("fuzz-staff", password="fuzz-staff-pw-1", is_staff=True)
    game = services.game_create(variant="sabra", players=2, seats=["Ann", "Ben"])
    token = services.seat_take(game=game, index=0)
    services.game_create(variant="international", players=3)
    staff = base64.b64encode(b"fuzz-staff:fuzz-staff-pw-1").decode()
    return {"anonymous": {}, "seat": {"Authorization": f"Seat {token}"},
            "staff": {"Authorization": f"Basic {staff}"}}


OUTSIDE = "outside the schema"
# schemathesis failures that mean a response the schema does not describe
SCHEMA_FAILURES = ("JsonSchema", "Undefined", "ContentType", "MissingHeader", "Malformed", "MediaType")


# positive_data_acceptance: a request the schema allows but the rules refuse
# (an unknown variant or rule option, an illegal move) is a 400 naming the
# rule; the schema cannot spell out every rule, so these are counted apart.
BUSINESS_REFUSALS = ("RejectedPositiveData",)


def _run(schema, headers, label):
    from schemathesis import GenerationMode

    from games.models import Event, Game

    checks = _checks()
    operations = [result.ok() for result in schema.get_all_operations()]
    game_id = Game.objects.order_by("id").values_list("id", flat=True).first()
    strategies = []
    for op in operations:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            strategies.append(op.as_strategy(generation_mode=mode))
            if "{game_id}" in op.path:  # and on a game that exists, so the requests reach the game
                strategies.append(op.as_strategy(generation_mode=mode, path_parameters={"game_id": game_id}))
    strategy = st.one_of(strategies)
    figures = Counter()
    problems: list[str] = []

    @hsettings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
               suppress_health_check=list(HealthCheck))
    @given(case=strategy)
    def one(case):
        before = Event.objects.count()
        response = case.call(headers=headers)
        after = Event.objects.count()
        figures["cases"] += 1
        figures[f"{response.status_code // 100}xx"] += 1
        if response.status_code >= 500:
            figures["server errors"] += 1
        if response.status_code >= 400 and after != before:
            figures["events stored from refused requests"] += 1
            problems.append(f"{case.method} {case.formatted_path} -> {response.status_code} "
                            f"stored {after - before} events")
        try:
            case.validate_response(response, checks=checks, headers=headers)
        except (Exception, BaseExceptionGroup) as exc:  # a check failed: count it, go on (no shrinking)
            for failure in getattr(exc, "exceptions", [exc]):
                name = type(failure).__name__
                if name in BUSINESS_REFUSALS:  # told in the figures, not a fault
                    figures["schema-valid requests the rules refuse (400)"] += 1
                    continue
                figures[OUTSIDE if any(w in name for w in SCHEMA_FAILURES) else f"check {name}"] += 1
                first = str(failure).strip().splitlines()
                problems.append(f"{case.method} {case.formatted_path} {case.query or ''} -> "
                                f"{response.status_code}: {name}: {first[0] if first else ''}")

    one()
    print(f"\nschemathesis as {label}: " + ", ".join(f"{k} {v}" for k, v in sorted(figures.items())))
    return figures, problems


@pytest.mark.parametrize("label", ["anonymous", "seat", "staff"])
def test_schemathesis_finds_nothing(schema, callers, label):
    figures, problems = _run(schema, callers[label], label)
    assert figures["cases"] >= EXAMPLES // 2
    assert problems == [], "\n".join(problems[:40])
    assert figures["server errors"] == 0 and figures["outside the schema"] == 0
    assert figures["events stored from refused requests"] == 0
