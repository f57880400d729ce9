"""Figures for papers, drawn with matplotlib (the ``stats`` extra), imported only when a figure
is asked for (``--plot FILE``).

:mod:`~tui.lab.figures.plot_target` checks ``--plot`` before any run starts;
:mod:`~tui.lab.figures.style` is the look every figure shares (a palette readable in grey and
by colour-blind readers, fonts embedded); :mod:`~tui.lab.figures.sweep_figure` draws a sweep's
run-length distributions and convergence curves; :mod:`~tui.lab.figures.run_figure` one
recorded run's convergence; :mod:`~tui.lab.figures.saving` writes a figure whole or not at all.
"""
