"""The one door to numba: where its compiled code is cached, a typed ``compiled`` decorator, and
a cache hint for compiled loops (:func:`prefetch`).

Imported only by the kernels of the memetic mode, and only when a run needs them, so that a
run without them never pays numba's import (most of a second, and its LLVM library in memory).

``compiled`` compiles with ``cache=True``: the first run on a machine compiles the kernels
(a few seconds), later runs load them from the cache. numba caches next to the source, in
``__pycache__``; when that is not writable (an installed, read-only tree) and ``NUMBA_CACHE_DIR``
is not set, the cache goes to the user's cache directory, or failing that to the temporary
directory, rather than numba refusing to cache at all.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

CACHE_VARIABLE = "NUMBA_CACHE_DIR"
"""The environment variable numba reads for its cache directory (at its import)."""


def _writable(folder: Path) -> bool:
    """Whether files can be made in ``folder`` (created if missing)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            return True
    except OSError:
        return False


def _user_id() -> int:
    """The user's id where there is one (not on Windows), so users do not share a cache."""
    return os.getuid() if hasattr(os, "getuid") else 0


def choose_cache_dir(source: Path, environment: dict[str, str]) -> str | None:
    """The cache directory to give numba, or ``None`` to leave numba's own choice.

    Args:
        source: The folder of the compiled functions' source.
        environment: The process's environment (read, not changed).

    Returns:
        ``None`` when ``NUMBA_CACHE_DIR`` is set or the source's ``__pycache__`` is writable;
        else the first writable of the user's cache directory and the temporary directory.
    """
    if environment.get(CACHE_VARIABLE) or _writable(source / "__pycache__"):
        return None
    user_cache = environment.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    for folder in (
        Path(user_cache) / "queens-ga" / "numba",
        Path(tempfile.gettempdir()) / f"queens-ga-numba-{_user_id()}",
    ):
        if _writable(folder):
            return str(folder)
    return None


_chosen = choose_cache_dir(Path(__file__).parent, dict(os.environ))
if _chosen is not None:
    os.environ[CACHE_VARIABLE] = _chosen

# numba reads NUMBA_CACHE_DIR when it is imported: after the choice above.
from llvmlite import binding, ir  # type: ignore[import-untyped]  # noqa: E402
from numba import njit, types  # noqa: E402
from numba.core import cgutils  # noqa: E402
from numba.extending import intrinsic  # noqa: E402

Function = TypeVar("Function", bound=Callable[..., Any])


def compiled(function: Function) -> Function:
    """Compile ``function`` with numba in nopython mode, cached on disk (see the module)."""
    return cast(Function, njit(cache=True, nogil=True)(function))


_READ, _KEEP_IN_ALL_CACHES, _DATA = 0, 3, 1
"""``llvm.prefetch``'s arguments: for a read, the highest locality, the data cache."""

_PREFETCH = "llvm.prefetch.p0" if binding.llvm_version_info >= (15,) else "llvm.prefetch.p0i8"
"""The intrinsic's name: LLVM 15 made pointers untyped, and the name says the pointer's type."""


@intrinsic
def _prefetch(typing_context: Any, array: Any, index: Any) -> Any:
    """Hint that ``array[index]`` will be read soon (in compiled code; no bounds check).

    A loop that reads memory at random (the greedy start's bit sets at N = 10^8 are 62 MB, over
    the processor's cache) waits for each miss in turn. One that knows its next random indices
    ahead can ask for them some iterations early, so that the misses overlap. This is LLVM's
    ``llvm.prefetch`` on the element's address: it reads nothing into the program and never
    faults, so it changes no result, only when the memory arrives.
    """
    signature = types.void(array, index)

    def generate(context: Any, builder: Any, called: Any, arguments: Any) -> Any:
        array_type = called.args[0]
        values = context.make_array(array_type)(context, builder, arguments[0])
        address = cgutils.get_item_pointer(  # type: ignore[no-untyped-call]
            context, builder, array_type, values, [arguments[1]], wraparound=False
        )
        byte_address = builder.bitcast(address, ir.PointerType(ir.IntType(8)))
        small = ir.IntType(32)
        hint = ir.FunctionType(ir.VoidType(), [byte_address.type, small, small, small])
        function = cgutils.get_or_insert_function(  # type: ignore[no-untyped-call]
            builder.module, hint, _PREFETCH
        )
        flags = [ir.Constant(small, flag) for flag in (_READ, _KEEP_IN_ALL_CACHES, _DATA)]
        builder.call(function, [byte_address, *flags])
        return context.get_dummy_value()

    return signature, generate


prefetch = cast(Callable[[Any, int], None], _prefetch)
"""Typed for callers as it is called in compiled code: ``prefetch(array, index)``."""
