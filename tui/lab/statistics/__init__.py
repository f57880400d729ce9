"""The statistics of a sweep's report, in plain numpy (no scipy needed to print a report).

:mod:`~tui.lab.statistics.bootstrap` gives a percentile-bootstrap interval of a median;
:mod:`~tui.lab.statistics.run_lengths` turns runs into censored samples (an unsolved run is
worse than every solved one) and run-length distributions; :mod:`~tui.lab.statistics.rank_test`
is the two-sided Mann-Whitney U test on such samples; :mod:`~tui.lab.statistics.holm` corrects
several p-values for being read together; :mod:`~tui.lab.statistics.effect_size` is the
Vargha-Delaney A12 and its size words; :mod:`~tui.lab.statistics.against_best` puts them
together: each row against the best one. ``docs/statistics.md`` says why each was chosen.
"""
