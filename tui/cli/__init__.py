"""The ``queens`` command line: the console script, its subcommands and what they print.

The top of the house: it may use the dashboard, the lab, serve and the engine; nothing below
imports it. Signals and exit codes sit at its bottom (:mod:`tui.cli.signals`,
:mod:`tui.cli.exit_codes`), imported by everything above them here and by nothing outside.
"""
