"""How ``queens serve`` logs requests: one short line each, a malformed one included.

aiohttp answers a request it cannot parse (no Host header, a header line over 8 KB, bytes that
are not HTTP) with 400, then logs the parser's exception with its traceback, ten lines of
aiohttp's internals for what is a fact about the client, and an access line for a request
named ``UNKNOWN``. Here the parser's complaint becomes one line, with the peer, and the access
line of the placeholder request is not written. An exception of the server's own (a handler
that fails) keeps its traceback: that one is for a developer.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any, Final

from aiohttp.http_exceptions import HttpProcessingError
from aiohttp.web_log import AccessLogger
from aiohttp.web_request import BaseRequest
from aiohttp.web_response import StreamResponse

ACCESS_LOG_FORMAT: Final = '%t %a "%r" %s %b'
"""One short line per request (time, client, request, status, bytes): aiohttp's default adds
the referrer and the user agent, which wrapped every request onto two lines."""

UNPARSED_METHOD: Final = "UNKNOWN"
"""The method aiohttp gives the placeholder request it answers a malformed one with."""

REASON_LIMIT: Final = 120
"""Characters of the parser's complaint kept (it quotes the offending line)."""


class BadRequestLog(logging.LoggerAdapter[logging.Logger]):
    """The logger aiohttp's request handler is given: a parse error is one warning line."""

    def log(
        self,
        level: int,
        msg: object,
        *args: object,
        exc_info: Any = None,
        **kwargs: Any,
    ) -> None:
        """Log as the wrapped logger does, but a malformed request on one line, at any level
        (aiohttp logs bytes that are not HTTP at debug level only: still a bad request)."""
        if isinstance(exc_info, HttpProcessingError):
            peer = args[0] if args else "an unknown peer"
            reason = " ".join(str(exc_info.message or type(exc_info).__name__).split())
            if len(reason) > REASON_LIMIT:
                reason = reason[: REASON_LIMIT - 3] + "..."
            self.logger.warning("bad request from %s, answered %s: %s", peer, exc_info.code, reason)
            return
        super().log(level, msg, *args, exc_info=exc_info, **kwargs)


class ShortAccessLog(AccessLogger):
    """aiohttp's access log in :data:`ACCESS_LOG_FORMAT`, without the placeholder request of a
    malformed one (:class:`BadRequestLog` has said what it was)."""

    def log(self, request: BaseRequest, response: StreamResponse, time: float) -> None:
        """Write the request's line, unless it stands for a request that was not parsed."""
        # The placeholder has no headers at all; a request that was parsed has its Host.
        if request.method == UNPARSED_METHOD and not request.headers:
            return
        super().log(request, response, time)


def request_logging(server_logger: logging.Logger) -> Mapping[str, Any]:
    """The keyword arguments of ``aiohttp.web.AppRunner`` that log requests as above."""
    return {
        "logger": BadRequestLog(server_logger, {}),
        "access_log_class": ShortAccessLog,
        "access_log_format": ACCESS_LOG_FORMAT,
    }
