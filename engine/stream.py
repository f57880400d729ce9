"""The async face of the engine: ``async for snapshot in snapshots(algorithm)``.

The numpy work runs in a thread (``asyncio.to_thread``), so the event loop of a UI stays free.
The consumer sets the pace: the next generation is computed only when the next snapshot is
pulled, so pausing is not pulling and stepping is pulling one.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from engine.algorithm import GeneticAlgorithm
from engine.snapshot import Snapshot


async def snapshots(algorithm: GeneticAlgorithm, *, batch: int = 1) -> AsyncIterator[Snapshot]:
    """Yield the current snapshot, then one per generation until a stop rule fires.

    Args:
        algorithm: The run to drive.
        batch: Generations computed per trip to the worker thread. Above 1 the engine may run
            up to ``batch - 1`` generations ahead of the consumer; every one is still yielded,
            and the run is the same generation for generation.
    """
    if batch < 1:
        raise ValueError(f"batch: {batch!r} is not allowed; a whole number >= 1")
    yield algorithm.snapshot
    while algorithm.has_next():
        # Imported here: asyncio (with ssl, socket, logging) costs a headless run's start-up.
        import asyncio

        for snapshot in await asyncio.to_thread(algorithm.step_many, batch):
            yield snapshot
