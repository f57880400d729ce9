"""A lesson gives the same document on local workers, on a Dask cluster and in this process:
its jobs are plain data both ways, its rows made from the results by arm and seed.

The Dask test starts a real ``distributed.LocalCluster`` on 127.0.0.1 (two worker processes).
"""

from __future__ import annotations

import pytest

from tui.lab.lessons.catalog import LESSONS, PRELOAD
from tui.lab.lessons.runner import InProcess, lesson_document
from tui.lab.sweep.local_pool import LocalPool

SMALL = {"takeover": (30, 2), "founders": (8, 2), "hill-climbing": (None, 1500)}
"""Lessons of a few jobs each, one of them with chunks of starts rather than seeds."""


def documents(backend: object) -> dict[str, dict[str, object]]:
    return {
        name: lesson_document(LESSONS[name], population, seeds, backend)  # type: ignore[arg-type]
        for name, (population, seeds) in SMALL.items()
    }


@pytest.mark.slow
def test_local_workers_and_a_dask_cluster_give_this_process_s_document() -> None:
    distributed = pytest.importorskip("distributed")
    from tui.lab.sweep.dask_cluster import DaskCluster

    reference = documents(InProcess())
    assert documents(LocalPool(2, preload=PRELOAD)) == reference
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=":0",
        ) as local,
        DaskCluster(local.scheduler_address) as cluster,
    ):
        assert documents(cluster) == reference
