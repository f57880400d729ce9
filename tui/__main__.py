"""``python -m tui``: the same as the ``queens`` command."""

from __future__ import annotations

import sys

from tui.cli.entry import main

sys.exit(main())
