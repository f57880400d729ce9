"""An exact count of N-Queens solutions split into parts, run on local workers or a Dask cluster.

:mod:`~tui.lab.exact_count.plan` cuts the count into parts (the engine's batches of prefixes)
and names the split by a fingerprint; :mod:`~tui.lab.exact_count.task` is the one job,
``(n, part, prefixes) -> that part's count``, plain data both ways;
:mod:`~tui.lab.exact_count.ledgers` keep each part's count as it arrives, in memory or in the
run store, once; :mod:`~tui.lab.exact_count.runner` runs only the parts a ledger lacks, on the
sweeps' pool or cluster (:mod:`tui.lab.sweep`).
"""
