"""``queens serve``: the dashboard in a browser, one process per browser tab.

textual-serve runs one dashboard process per websocket. This package adds what a served
dashboard needs beyond that: a bind address checked before anything starts (:mod:`.address`),
who may connect (:mod:`.access`: same-origin websockets, a token off loopback, a session cap),
and sessions whose process always ends when their socket goes (:mod:`.session`,
:mod:`.session_driver`), wired together in :mod:`.server`.

Only :mod:`.address` and :mod:`.access` are imported eagerly by the command; aiohttp and
textual-serve load when the server starts.
"""

from __future__ import annotations
