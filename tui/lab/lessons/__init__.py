"""Lessons: classic results of GA theory, each measured by seeded runs beside its formula.

One module a lesson (:mod:`~tui.lab.lessons.takeover`, :mod:`~tui.lab.lessons.drift`,
:mod:`~tui.lab.lessons.founders`, :mod:`~tui.lab.lessons.headless_chicken`,
:mod:`~tui.lab.lessons.landscape`, :mod:`~tui.lab.lessons.hill_climbing`), each with its text,
its runs as jobs (:mod:`~tui.lab.lessons.lesson`) and the rows it makes of them; the formulas in
:mod:`~tui.lab.lessons.theory`; the configs and recorded runs in :mod:`~tui.lab.lessons.runs`;
:mod:`~tui.lab.lessons.runner` runs a lesson on the sweeps' local pool, a Dask cluster or in
process; :mod:`~tui.lab.lessons.table` and :mod:`~tui.lab.lessons.slideshow` are what the
command line prints and the dashboard's lessons screen shows. No Textual, no Rich.
"""
