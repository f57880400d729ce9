"""Sweeps: grids of configs x seeds, run on a local process pool or a Dask cluster.

:mod:`~tui.lab.sweep.plan` turns flags or a TOML plan into cells (one config each) and seeds;
:mod:`~tui.lab.sweep.task` is the one task, ``(config mapping, seed) -> result mapping``;
:mod:`~tui.lab.sweep.local_pool` and :mod:`~tui.lab.sweep.dask_cluster` run the tasks;
:mod:`~tui.lab.sweep.runner` runs only the tasks a ledger lacks; :mod:`~tui.lab.sweep.report`
summarizes the results.
"""
