"""The lab: run records (an embedded SQLite store), recording, time travel, export.

Non-UI code only: nothing here imports Textual or Rich. The dashboard and the command line call
this package; it never calls them. SQL lives in :mod:`tui.lab.store` only.
"""

from __future__ import annotations
