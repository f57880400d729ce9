"""What the main screen's keys do: the bindings table, the time-travel keys, the record keys.

:mod:`~tui.dashboard.actions.bindings` is the table of keys the footer, help and the palette
read; :mod:`~tui.dashboard.actions.travel_keys` and :mod:`~tui.dashboard.actions.record_keys`
are the objects the main screen's time-travel and record keys call.
"""
