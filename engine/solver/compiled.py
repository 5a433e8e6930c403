"""The compiled build of the programme.

``engine/solver/dp.py`` is plain Python and is the source of truth. mypyc
(part of mypy) compiles that same file, unchanged, into a C extension,
``engine/solver/_dpc*.so``, which runs the programme about twice as fast
(``docs/solver.md``). The build records the SHA-256 of the ``dp.py`` it was
made from; :func:`load` uses it only while that digest matches the
``dp.py`` beside it, and otherwise the interpreted module. So an edited
``dp.py`` is never shadowed by an old build, and a machine without a C
compiler runs the same programme, slower.

``TABLEKEEPER_SOLVER`` chooses: ``auto`` (default: the build when current),
``python`` (always the interpreted module), ``compiled`` (the build, or an
``ImportError`` saying why not).

    python -m engine.solver.build build    # compile (bin/setup does this)
    python -m engine.solver.build check    # exit 0 when the build is current
    python -m engine.solver.build status   # which programme solve() runs
"""

from __future__ import annotations

import hashlib
import importlib
import os
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "dp.py"
NAME = "_dpc"  # the compiled module: engine.solver._dpc
KERNEL_SOURCE = HERE / "_dpk.c"
KERNEL_NAME = "_dpk"  # the layers in C: engine.solver._dpk
SIMPLEX_SOURCE = HERE / "_lp.c"
SIMPLEX_NAME = "_lp"  # the bound's dual simplex in C: engine.solver._lp
ENV = "TABLEKEEPER_SOLVER"
CHOICES = ("auto", "python", "compiled")


def source_digest() -> str:
    """SHA-256 of ``dp.py`` as it is on disk."""
    return hashlib.sha256(SOURCE.read_bytes()).hexdigest()


def kernel_digest() -> str:
    """SHA-256 of ``dp.py`` and ``_dpk.c`` as they are on disk: the
    kernel keeps ``dp.py``'s keys and order, so it is current only with
    both."""
    return hashlib.sha256(SOURCE.read_bytes() + KERNEL_SOURCE.read_bytes()).hexdigest()


def simplex_digest() -> str:
    """SHA-256 of ``_lp.c`` as it is on disk."""
    return hashlib.sha256(SIMPLEX_SOURCE.read_bytes()).hexdigest()


def _built(name: str, digest: str, source: str) -> tuple[ModuleType | None, str]:
    """The extension module ``name`` if it is built from the source of
    ``digest``, and why not."""
    try:
        mod = importlib.import_module(f"{__package__}.{name}")
    except ImportError:
        return None, "not built"
    if getattr(mod, "SOURCE_DIGEST", None) != digest:
        return None, f"built from another {source}"
    return mod, "current"


def _simplex() -> tuple[ModuleType | None, str]:
    """The bound's dual simplex in C (:mod:`engine.solver.bound`) if it is
    built from this ``_lp.c``, and why not."""
    return _built(SIMPLEX_NAME, simplex_digest(), "_lp.c")


def _kernel() -> tuple[ModuleType | None, str]:
    """The layers in C if they are built from this ``dp.py`` and
    ``_dpk.c``, and why not."""
    return _built(KERNEL_NAME, kernel_digest(), "dp.py or _dpk.c")


def _compiled() -> tuple[ModuleType | None, str]:
    """The compiled module if it is built from this ``dp.py``, and why not."""
    mod, why = _built(NAME, source_digest(), "dp.py")
    return mod, "compiled" if mod is not None else why


def load() -> tuple[ModuleType, str]:
    """The programme :func:`engine.solver.solve` runs, and a word on which:
    ``"compiled"`` or ``"interpreted (why)"``.

    :raises ImportError: ``TABLEKEEPER_SOLVER=compiled`` and no current build.
    :raises ValueError: ``TABLEKEEPER_SOLVER`` is none of :data:`CHOICES`.
    """
    from . import dp

    choice = os.environ.get(ENV, "auto") or "auto"
    if choice not in CHOICES:
        raise ValueError(f"{ENV}={choice!r}: expected one of {', '.join(CHOICES)}")
    if choice == "python":
        return dp, "interpreted (asked for)"
    mod, why = _compiled()
    if mod is not None:
        kernel, kwhy = _kernel()
        mod.KERNEL = kernel
        return mod, why + (" with the layers in C" if kernel is not None else f" (layers in C {kwhy})")
    if choice == "compiled":
        raise ImportError(f"{ENV}=compiled but the compiled solver is {why}: "
                          "run bin/setup (or python -m engine.solver.build build)")
    return dp, f"interpreted ({why})"
