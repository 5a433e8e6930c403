"""Compiling the programme (``engine/solver/dp.py``) with mypyc; see
:mod:`engine.solver.compiled`.

    python -m engine.solver.build build    # compile (bin/setup does this)
    python -m engine.solver.build check    # exit 0 when the build is current
    python -m engine.solver.build status   # which programme solve() runs, and its bound
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from .compiled import (HERE, KERNEL_NAME, KERNEL_SOURCE, NAME, SIMPLEX_NAME, SIMPLEX_SOURCE, SOURCE, _compiled, _kernel,
                       _simplex, kernel_digest, load, simplex_digest, source_digest)

# compiles one C extension (engine/solver/_dpk.c, _lp.c) with setuptools, run in a scratch directory;
# no fused multiply-add (-ffp-contract=off): the simplex's doubles round alike on every machine
_C_SETUP = """
import sys
from setuptools import Distribution, Extension
ext = Extension("engine.solver.{name}", ["{name}.c"], define_macros=[("SOURCE_DIGEST", '"' + sys.argv[1] + '"')],
                extra_compile_args=["-O2", "-ffp-contract=off"])
dist = Distribution({{"name": "tk-solver-kernel", "ext_modules": [ext], "script_name": "setup.py"}})
cmd = dist.get_command_obj("build_ext")
cmd.build_lib = "."
cmd.build_temp = "build"
dist.run_command("build_ext")
"""


def build(verbose: bool = False) -> list[Path]:
    """Compile ``dp.py`` with mypyc into ``engine/solver/`` (the old build
    removed first). The source is copied, with its digest appended, into a
    scratch package so that the build never touches the tree but for the
    extension files it leaves here.

    :returns: the files written.
    :raises RuntimeError: mypyc or the C compiler failed (its output in the
        message).
    """
    digest = source_digest()
    with tempfile.TemporaryDirectory(prefix="tk-solver-build-") as tmp:
        pkg = Path(tmp, "engine", "solver")
        pkg.mkdir(parents=True)
        Path(tmp, "engine", "__init__.py").write_text("")
        (pkg / "__init__.py").write_text("")
        text = SOURCE.read_text()
        (pkg / f"{NAME}.py").write_text(
            text + f'\n\nSOURCE_DIGEST: Final = "{digest}"  # of the dp.py built\n')
        proc = subprocess.run([sys.executable, "-m", "mypyc", f"engine/solver/{NAME}.py"],
                              cwd=tmp, capture_output=True, text=True)
        if verbose or proc.returncode:
            sys.stderr.write(proc.stdout[-4000:] + proc.stderr[-4000:])
        if proc.returncode:
            raise RuntimeError(f"mypyc failed (exit {proc.returncode})")
        built = sorted(pkg.glob(f"{NAME}*.so")) + sorted(pkg.glob(f"{NAME}*.pyd"))
        if not built:
            raise RuntimeError("mypyc wrote no extension module")
        out = _install(built, NAME)
    return out + build_kernel(verbose) + build_simplex(verbose)


def build_kernel(verbose: bool = False) -> list[Path]:
    """Compile the layers in C (``_dpk.c``) into ``engine/solver/``, with
    the digest of ``dp.py`` and ``_dpk.c`` built in.

    :returns: the files written.
    :raises RuntimeError: the C compiler failed (its output in the message).
    """
    return _build_c(KERNEL_NAME, KERNEL_SOURCE, kernel_digest(), verbose)


def build_simplex(verbose: bool = False) -> list[Path]:
    """Compile the bound's dual simplex (``_lp.c``) into ``engine/solver/``,
    with its digest built in.

    :returns: the files written.
    :raises RuntimeError: the C compiler failed (its output in the message).
    """
    return _build_c(SIMPLEX_NAME, SIMPLEX_SOURCE, simplex_digest(), verbose)


def _build_c(name: str, source: Path, digest: str, verbose: bool) -> list[Path]:
    """Compile the C extension ``name`` from ``source`` with ``digest`` built in."""
    with tempfile.TemporaryDirectory(prefix=f"tk-solver-{name}-") as tmp:
        shutil.copy2(source, Path(tmp, f"{name}.c"))
        proc = subprocess.run([sys.executable, "-c", _C_SETUP.format(name=name), digest],
                              cwd=tmp, capture_output=True, text=True)
        if verbose or proc.returncode:
            sys.stderr.write(proc.stdout[-4000:] + proc.stderr[-4000:])
        if proc.returncode:
            raise RuntimeError(f"the C compiler failed on {source.name} (exit {proc.returncode})")
        built = sorted(Path(tmp, "engine", "solver").glob(f"{name}*.so")) + \
            sorted(Path(tmp, "engine", "solver").glob(f"{name}*.pyd"))
        if not built:
            raise RuntimeError(f"the build of {source.name} wrote no extension module")
        return _install(built, name)


def _install(built: list[Path], name: str) -> list[Path]:
    """Put built extension files into ``engine/solver/``, the old build of
    ``name`` removed first."""
    for old in list(HERE.glob(f"{name}*.so")) + list(HERE.glob(f"{name}*.pyd")):
        old.unlink()
    out = []
    for f in built:
        # copy under a temporary name, then rename: a process importing
        # the solver meanwhile sees the old file or the new, whole
        dest = HERE / f.name
        part = dest.with_name(dest.name + ".part")
        shutil.copy2(f, part)
        os.replace(part, dest)
        out.append(dest)
    return out


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or args[0] not in ("build", "check", "status"):
        print("usage: python -m engine.solver.build build|check|status", file=sys.stderr)
        return 2
    if args[0] == "build":
        try:
            files = build(verbose="-v" in args)
        except (RuntimeError, OSError) as exc:
            runs = "compiled, without the layers in C" if _compiled()[0] is not None else "interpreted"
            print(f"engine.solver.build: {exc}; solve() runs {runs}", file=sys.stderr)
            return 1
        print(f"compiled solver built: {', '.join(f.name for f in files)}")
        return 0
    mod, why = _compiled()
    if args[0] == "check":
        return 0 if mod is not None and _kernel()[0] is not None and _simplex()[0] is not None else 1
    from . import bound

    print(load()[1])
    print(f"bound: {bound.backend()}")  # (the simplex in C when built, else HiGHS)
    return 0


if __name__ == "__main__":
    sys.exit(main())
