"""The MCP transport's failures as one-line typed errors (GBRAIN_PROTOCOL.md).

Each message names the endpoint by its label (the URL without credentials);
server text repeated in one is scrubbed of every secret, so no token shows.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from okf_explorer.core.errors import AuthError, SourceUnavailable
from okf_explorer.sources.gbrain.fast_httpx import httpx


class ServerFailed(SourceUnavailable):
    """The server answered with HTTP 5xx: it is there, but failed this request (transient)."""


def scrub_secrets(text: str, secrets: Iterable[str]) -> str:
    """`text` with any secret replaced by `***`, cut to one short line."""
    for secret in secrets:
        text = _scrub_secret(text, secret)
    line = " ".join(text.split())
    return line if len(line) <= 200 else line[:197] + "..."


def timed_out_error(label: str, timeout: float) -> SourceUnavailable:
    """A request that got no full answer within `timeout` seconds."""
    return SourceUnavailable(f"{label} unreachable (timed out after {timeout:g} s)")


def unreachable_error(
    label: str, error: Exception, secrets: Iterable[str], dropped: bool = False
) -> SourceUnavailable:
    """A connection failure (refused, unknown host, dropped) as one scrubbed line."""
    if dropped:
        reason = "the connection was dropped"
    elif isinstance(error, httpx.ConnectError):
        reason = _connect_reason(str(error))
    else:
        reason = type(error).__name__
    return SourceUnavailable(f"{label} unreachable ({scrub_secrets(reason, secrets)})")


def auth_error(label: str, status: int, has_token: bool, token_source: str) -> AuthError:
    """HTTP 401 / 403: the token was rejected or is missing (says where it came from)."""
    word = "rejected" if status == 401 else "is not allowed to read with"
    if has_token:
        message = f"{label} {word} the token from {token_source} (HTTP {status})"
    else:
        message = (
            f"{label} requires a token (HTTP {status}); pass --token-file or set $GBRAIN_TOKEN"
        )
    return AuthError(message)


def _scrub_secret(text: str, secret: str) -> str:
    """Mask `secret` in `text`. A short secret (a URL user name like `u`) is masked
    only where it stands as a whole word, so it cannot mangle ordinary words."""
    if len(secret) >= 8:
        return text.replace(secret, "***")
    return re.sub(rf"(?<![A-Za-z0-9]){re.escape(secret)}(?![A-Za-z0-9])", "***", text)


def _connect_reason(text: str) -> str:
    lowered = text.lower()
    if "refused" in lowered:
        return "connection refused"
    if "name or service" in lowered or "nodename" in lowered or "getaddrinfo" in lowered:
        return "unknown host"
    return text or "cannot connect"
