"""Keeping a URL's credentials off the screen: its shown form and its secret parts.

The source factory labels sources with `redact_url`; the MCP source and the CLI
scrub `url_secrets` from messages. Its own module, so neither imports the other.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

_SECRET_PARAM = re.compile(r"token|key|secret|pass|auth|sig|credential", re.IGNORECASE)


def redact_url(url: str) -> str:
    """`url` with user-info replaced by `***` and secret query values masked."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = parts.port
    except ValueError:
        return "<invalid URL>"
    netloc = parts.netloc
    if "@" in netloc:
        shown_host = f"[{host}]" if ":" in host else host
        netloc = "***@" + shown_host + (f":{port}" if port is not None else "")
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        query = urlencode(
            [(k, "***" if _SECRET_PARAM.search(k) else v) for k, v in pairs], safe="*"
        )
    return urlunsplit((parts.scheme, netloc, parts.path, query, ""))


def url_secrets(url: str) -> list[str]:
    """The secret parts of a URL (password, secret query values), to scrub from messages."""
    try:
        parts = urlsplit(url)
        found = [parts.password or "", parts.username or ""] if "@" in parts.netloc else []
        found += [v for k, v in parse_qsl(parts.query) if _SECRET_PARAM.search(k)]
    except ValueError:
        return []
    return [secret for secret in found if secret]
