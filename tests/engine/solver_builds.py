"""The solver's C extensions as the tests need them: built and current, or
the test skipped (failed under ``CI=true``, where bin/setup has built them)."""

from __future__ import annotations

import os

import pytest


def required(found, what: str):
    """The module of ``found`` (``(module, why)`` as
    :mod:`engine.solver.compiled` gives it), else skip (or fail under
    ``CI=true``) naming ``what`` and why it is missing."""
    mod, why = found
    if mod is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true and {what} is {why} (bin/setup builds it)")
        pytest.skip(f"{what} is {why} (bin/setup builds it; needs a C compiler)")
    return mod
