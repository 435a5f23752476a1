"""No secret in any log: a filter on aiohttp's (and textual-serve's) loggers that drops query strings, cookies and tokens.

aiohttp logs a request line or header it cannot parse (longer than 8,190
bytes, malformed) with its first bytes, through the ``aiohttp.server``
logger: an invite link's ``?token=...`` or a ``Cookie:`` header would land in
the server's log. :class:`DropSecrets` rewrites every record of those loggers
(message, arguments, formatted traceback) with :func:`scrub` before any
handler sees it. :func:`install` attaches it (idempotent).
"""

from __future__ import annotations

import logging
import re

#: Loggers whose records may quote a request (logger filters do not apply to records of child loggers).
LOGGERS = ("aiohttp", "aiohttp.access", "aiohttp.client", "aiohttp.internal", "aiohttp.server", "aiohttp.web",
           "aiohttp.websocket", "textual-serve", "textual_serve", "asyncio")
DROPPED = "<dropped>"
_QUERY = re.compile(r"\?[^\s'\"\\]*")
_COOKIE = re.compile(r"(?i)((?:set-)?cookie\s*[:=]\s*)[^\r\n'\"\\]*")
_PAIR = re.compile(r"(?i)((?:token|fbagent_[a-z]+|csrf)=)[^\s&;'\"\\]*")
#: Anything that looks like a token (43 URL-safe characters; cut ones from 16 on).
_LONG = re.compile(r"[A-Za-z0-9_-]{16,}")


def scrub(text: str) -> str:
    """``text`` with query strings, cookie headers, ``token=``-like pairs and token-like runs replaced by ``<dropped>``."""
    text = _COOKIE.sub(lambda m: m.group(1) + DROPPED, text)
    text = _QUERY.sub("?" + DROPPED, text)
    text = _PAIR.sub(lambda m: m.group(1) + DROPPED, text)
    return _LONG.sub(lambda m: m.group(0) if m.group(0).replace("_", "").isalpha() and m.group(0).islower() else DROPPED, text)


class DropSecrets(logging.Filter):
    """Rewrites a record's message and traceback with :func:`scrub`; never drops the record itself."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = scrub(record.getMessage())
        record.args = None
        if record.exc_info:
            record.exc_text = scrub(logging.Formatter().formatException(record.exc_info))
            record.exc_info = None
        elif record.exc_text:
            record.exc_text = scrub(record.exc_text)
        if record.stack_info:
            record.stack_info = scrub(record.stack_info)
        return True


def install(names: tuple[str, ...] = LOGGERS) -> DropSecrets:
    """Attach one :class:`DropSecrets` to each logger of ``names`` (again: no second copy); returns it."""
    for name in names:
        logger = logging.getLogger(name)
        for existing in logger.filters:
            if isinstance(existing, DropSecrets):
                break
        else:
            logger.addFilter(DropSecrets())
    return DropSecrets()
