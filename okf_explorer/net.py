"""What `serve` (the MCP server) and `web` (the explorer in a browser) share as network
servers: the binding rule, the listener, the exit statuses and the one-line log.

Both faces live apart (`server/` and `tui/web/`, and the explorer never imports the
server), so the rule that decides who may listen where is stated once, here:

- a bind beyond loopback needs a token (no token on a public address, ever);
- a token holding whitespace is refused (no client can send it as a Bearer token,
  and `web`'s sign-in page strips it);
- the socket is bound before the brain is indexed, so a busy port fails in one line.

The command line's grammar reads the default ports here on every run, so this module
imports `socket` and `logging` only when a server starts.
"""

from __future__ import annotations

import ipaddress
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import logging
    import socket

DEFAULT_HOST = "127.0.0.1"
SERVE_PORT = 8792
"""`serve`'s default port."""
WEB_PORT = 8793
"""`web`'s default port."""

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
"""Stopped by a signal; cannot bind or index; refused by the binding rule."""


def is_loopback(host: str) -> bool:
    """True for `localhost` and any loopback address (IPv4 or IPv6, bracketed or not)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def serving_refusal(host: str | None, token: str | None) -> str | None:
    """Why serving on `host` (None: no network, stdio) with `token` is refused, or None.

    A non-loopback bind needs a token; a token holding whitespace cannot be sent
    (not in an `Authorization: Bearer` header, and `web`'s page strips it too).
    """
    if token is not None and any(char.isspace() for char in token):
        return "the token holds whitespace, which no client can send as a Bearer token"
    if host is not None and not is_loopback(host) and token is None:
        return f"refusing to listen on {host} without a token: pass --token-file (or use 127.0.0.1)"
    return None


def bind_listener(host: str, port: int) -> socket.socket:
    """A listening TCP socket on `host:port` (IPv6 when the host has a colon); `OSError`
    when it cannot be bound. Bound before indexing, so a busy port fails fast."""
    import socket

    bare = host.strip("[]")
    family = socket.AF_INET6 if ":" in bare else socket.AF_INET
    # proto IPPROTO_TCP matters: asyncio sets TCP_NODELAY only on sockets that say
    # so, and without it every reply waits ~40 ms for a delayed ACK.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((bare, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def url_host(host: str) -> str:
    """`host` as it stands in a URL: an IPv6 address in brackets."""
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def base_url(host: str, listener: socket.socket) -> str:
    """`http://HOST:PORT` of a bound listener (the port it really got, for port 0)."""
    return f"http://{url_host(host)}:{listener.getsockname()[1]}"


def one_line(record: logging.LogRecord) -> str:
    """A log record as one line: its message, then the exception's type and text (no
    traceback), so no request, however malformed, can flood the log."""
    line = " ".join(record.getMessage().split())
    if record.exc_info and record.exc_info[1] is not None:
        error = record.exc_info[1]
        line += f" ({type(error).__name__}: {' '.join(str(error).split())[:200]})"
    return line


def log_warnings_one_line() -> None:
    """Warnings and errors to stderr, one line each (`one_line`), unless the embedding
    program gave the root logger a handler of its own."""
    import logging

    class OneLineFormatter(logging.Formatter):
        def format(self, record: logging.LogRecord) -> str:
            return one_line(record)

    root = logging.getLogger()
    if not root.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(OneLineFormatter())
        root.addHandler(handler)
        root.setLevel(logging.WARNING)
