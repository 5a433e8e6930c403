"""Password spraying, locked per address.

django-axes locks a user name at one address after ``AXES_FAILURE_LIMIT``
wrong passwords; an attacker who tries one password against many user
names never reaches it (25 names, one guess each, locked nothing), and each
guess cost a full password hash. :class:`AddressLockBackend`, the first
authentication backend, counts every failed login (admin form, session
login, the API's basic authentication) per client address, and once an
address has ``LOGIN_ADDRESS_FAILURE_LIMIT`` failures within
``LOGIN_ADDRESS_COOLOFF_SECONDS`` it refuses every login from there, the
right password included, before any backend hashes a password: 429, as an
axes lockout.

The counts live in Django's cache under ``login-failures:ip:<address>``
(the times of the failures within the period); the address is the one
axes reads (``REMOTE_ADDR``, or ``NUM_PROXIES`` proxies deep in
``X-Forwarded-For``).
"""

from __future__ import annotations

import time

from django.conf import settings
from django.contrib.auth.signals import user_login_failed
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.dispatch import receiver

KEY = "login-failures:ip:{address}"


def _limits() -> tuple[int, int]:
    return (int(getattr(settings, "LOGIN_ADDRESS_FAILURE_LIMIT", 20)),
            int(getattr(settings, "LOGIN_ADDRESS_COOLOFF_SECONDS", 3600)))


def _address(request) -> str | None:
    from axes.helpers import get_client_ip_address

    return get_client_ip_address(getattr(request, "_request", request))


def _failures(address: str, period: int) -> list[float]:
    now = time.time()
    return [t for t in cache.get(KEY.format(address=address), []) if t > now - period]


def address_locked(request) -> bool:
    """Whether the request's address has used up its failed logins."""
    limit, period = _limits()
    address = _address(request)
    return bool(limit and address) and len(_failures(address, period)) >= limit


class AddressLockBackend:
    """First in ``AUTHENTICATION_BACKENDS``: refuses a login from a locked
    address (``PermissionDenied`` stops Django's ``authenticate`` before the
    backends that hash passwords); otherwise lets the next backends decide."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None or not address_locked(request):
            return None
        # answered by axes' middleware as its own lockout (429)
        getattr(request, "_request", request).axes_locked_out = True
        request.tablekeeper_address_locked = True
        raise PermissionDenied("too many failed logins from this address")

    # no get_user: it never logs anyone in, and sessions (force_login
    # included) must name the backend that did


@receiver(user_login_failed)
def count_failure(sender, credentials=None, request=None, **kwargs):
    """Count a failed login against its address (a refusal of a locked
    address is not counted again: the lock lapses on its own)."""
    if request is None or getattr(request, "tablekeeper_address_locked", False):
        return
    limit, period = _limits()
    address = _address(request)
    if not limit or not address:
        return
    failures = _failures(address, period)[-limit:]
    cache.set(KEY.format(address=address), [*failures, time.time()], period)
