"""Sweeps: grids of configs x seeds, run on a local process pool or a Dask cluster.

:mod:`~tui.lab.sweep.plan` turns flags or a TOML plan into cells (one config each) and seeds,
reading the file through :mod:`~tui.lab.sweep.plan_file`, which refuses what is not a small
TOML file; :mod:`~tui.lab.sweep.task` is the one task, ``(config mapping, seed) -> result
mapping``; :mod:`~tui.lab.sweep.local_pool` and :mod:`~tui.lab.sweep.dask_cluster` run the
tasks, or any :mod:`~tui.lab.sweep.job` (a function by its importable name and plain data:
the parts of an exact count too), starting and ending workers with
:mod:`~tui.lab.sweep.held_signals`; :mod:`~tui.lab.sweep.runner` runs only the tasks a ledger
lacks; :mod:`~tui.lab.sweep.errors` are why a sweep could not go on;
:mod:`~tui.lab.sweep.report` summarizes the results, with each row's statistics from
:mod:`~tui.lab.sweep.row_statistics` and its run-length lines from
:mod:`~tui.lab.sweep.run_length_text`; :mod:`~tui.lab.sweep.curves` writes and keeps the runs'
per-generation series when asked.
"""
