"""The one door to numba: where its compiled code is cached, and a typed ``compiled`` decorator.

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
from numba import njit  # noqa: E402

Function = TypeVar("Function", bound=Callable[..., Any])


def compiled(function: Function) -> Function:
    """Compile ``function`` with numba in nopython mode, cached on disk (see the module)."""
    return cast(Function, njit(cache=True, nogil=True)(function))
