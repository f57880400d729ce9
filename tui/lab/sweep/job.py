"""Work for a worker: a function named by where it can be imported, and plain-data arguments.

A local worker process and a Dask worker both receive the function as its module and name
(pickle and Dask send a module-level function that way, and the worker imports it) and call it
with plain values (numbers, strings, lists, dicts); it returns a plain mapping. A lambda, a
closure or a function defined in another's body has no such name: it is refused when the job
is made, rather than failing in a worker far away. A sweep's run and a count's part are both
jobs, so the pool and the cluster run either.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Job:
    """One call to make in a worker.

    Attributes:
        key: Names the work: the same work has the same key, whoever submits it (a Dask
            cluster runs one task per key).
        function: A function importable by its module and name.
        arguments: Plain values it is called with.

    Raises:
        ValueError: If ``function`` cannot be imported by its name.
    """

    key: str
    function: Callable[..., dict[str, Any]]
    arguments: tuple[Any, ...]

    def __post_init__(self) -> None:
        check_importable(self.function)


def check_importable(function: Callable[..., Any]) -> None:
    """Refuse a function that a worker could not import by its module and name.

    Raises:
        ValueError: A lambda, a closure, a function defined inside another, or one whose
            name does not lead back to it.
    """
    module = getattr(function, "__module__", None)
    name = getattr(function, "__qualname__", "")
    found: Any = None
    if module is not None and "<" not in name:
        try:
            found = importlib.import_module(module)
            for part in name.split("."):
                found = getattr(found, part)
        except (ImportError, AttributeError):
            found = None
    if found is not function:
        raise ValueError(
            f"{module}.{name} cannot be sent to a worker: a job's function must be importable "
            "by its module and name (no lambda, closure or nested function)"
        )
