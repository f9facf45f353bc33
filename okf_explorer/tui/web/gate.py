"""The gate in front of `okf-explorer web`: who may reach the explorer sessions.

- Every request: a browser page of another site cannot talk to us (its `Origin` must
  be ours), and on a loopback bind the `Host` must be a loopback name, so a DNS name
  rebound to 127.0.0.1 reaches nothing.
- With a token: nothing but the sign-in page answers until the browser holds a
  session cookie, which `POST /login` hands out for the right token. The page also
  takes the token once from the URL fragment (`#token=…`, which the browser never
  sends) and then removes it from the address bar. The token never travels in a
  query string, so it lands in no log, history entry or `Referer`.
- A wrong token waits `LOGIN_FAILURE_DELAY` seconds, one attempt at a time.
"""

from __future__ import annotations

import asyncio
import hmac
import secrets
from collections.abc import Awaitable, Callable
from html import escape
from urllib.parse import parse_qs, urlsplit

from aiohttp import web

from okf_explorer.net import is_loopback

SESSION_COOKIE = "okf_explorer_session"
LOGIN_PATH = "/login"
LOGIN_FAILURE_DELAY = 1.0
"""Seconds a wrong token waits for its answer (attempts queue, so guessing is slow)."""
MAX_LOGIN_BYTES = 8192
"""The largest sign-in form accepted: a larger `Content-Length` is refused unread, and a
body streamed without one (chunked) is read only until it passes the cap."""
MAX_REMEMBERED_SIGN_INS = 1000
"""Session cookies remembered; the oldest is forgotten past this (its browser signs in again)."""

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class Gate:
    """The aiohttp middleware and sign-in route that guard the explorer."""

    def __init__(self, token: str | None, *, loopback: bool) -> None:
        self.token = token
        self.loopback = loopback
        self._signed_in: dict[str, None] = {}  # insertion-ordered: oldest first
        self._failures = asyncio.Lock()

    def install(self, app: web.Application) -> None:
        """Guard every route of `app` (call before the app starts)."""
        app.middlewares.append(self.middleware)
        app.router.add_post(LOGIN_PATH, self.login)
        app.on_response_prepare.append(_secure_headers)

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        refusal = self.foreign(request)
        if refusal is not None:
            return web.Response(status=403, text=refusal + "\n")
        if self.token is None or request.path == LOGIN_PATH or self.signed_in(request):
            return await handler(request)
        if request.path == "/" and request.method in ("GET", "HEAD"):
            return sign_in_page(status=200)
        return web.Response(status=401, text="token required: open / and enter it\n")

    def foreign(self, request: web.Request) -> str | None:
        """Why `request` comes from where it must not, or None."""
        host = request.host
        if self.loopback and not is_loopback(_hostname(host)):
            return "this server answers only at a loopback address"
        origin = request.headers.get("Origin")
        if origin is not None and urlsplit(origin).netloc.lower() != host.lower():
            return "requests from other sites are refused"
        return None

    def signed_in(self, request: web.Request) -> bool:
        cookie = request.cookies.get(SESSION_COOKIE, "")
        return bool(cookie) and cookie in self._signed_in

    async def login(self, request: web.Request) -> web.StreamResponse:
        """`POST /login` with the form field `token`: a session cookie, or the page again."""
        if self.token is None:
            raise web.HTTPSeeOther("/")
        body = await _bounded_body(request, MAX_LOGIN_BYTES)
        if body is None:
            return web.Response(status=413, text="sign-in form too large\n")
        given = _form_field(request, body, "token")
        if given is None or not _same(given.strip(), self.token):
            async with self._failures:
                await asyncio.sleep(LOGIN_FAILURE_DELAY)
            return sign_in_page(status=403, wrong=True)
        response = web.Response(status=303, headers={"Location": "/"})
        response.set_cookie(
            SESSION_COOKIE, self._new_session(), path="/", httponly=True, samesite="Strict"
        )
        return response

    def _new_session(self) -> str:
        session = secrets.token_urlsafe(32)
        self._signed_in[session] = None
        while len(self._signed_in) > MAX_REMEMBERED_SIGN_INS:
            del self._signed_in[next(iter(self._signed_in))]
        return session


async def _bounded_body(request: web.Request, limit: int) -> bytes | None:
    """The request body, or None as soon as it is known to pass `limit` bytes (the rest
    is never read; aiohttp closes the connection)."""
    if (request.content_length or 0) > limit:
        return None
    body = bytearray()
    while chunk := await request.content.readany():
        body += chunk
        if len(body) > limit:
            return None
    return bytes(body)


def _form_field(request: web.Request, body: bytes, name: str) -> str | None:
    """Field `name` of a URL-encoded form (what the sign-in page posts), or None."""
    if request.content_type != "application/x-www-form-urlencoded":
        return None
    try:
        values = parse_qs(body.decode("utf-8"), keep_blank_values=True).get(name)
    except (UnicodeDecodeError, ValueError):
        return None
    return values[0] if values else None


def _same(given: str, token: str) -> bool:
    return hmac.compare_digest(given.encode("utf-8"), token.encode("utf-8"))


def _hostname(host: str) -> str:
    try:
        return urlsplit(f"//{host}").hostname or ""
    except ValueError:
        return ""


async def _secure_headers(request: web.Request, response: web.StreamResponse) -> None:
    """No framing by other sites, no referrer sent elsewhere, nothing cached. (With
    `no-referrer` Chromium sends `Origin: null` on our own sign-in form.)"""
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    response.headers.setdefault("Cache-Control", "no-store")


SIGN_IN_CSP = (
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
    "form-action 'self'; frame-ancestors 'none'"
)

SIGN_IN_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>okf-explorer: sign in</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body {{ background: #0c181f; color: #e8eef2; font: 16px/1.5 monospace;
  display: flex; min-height: 90vh; align-items: center; justify-content: center; }}
form {{ background: #12232d; padding: 2em 3em; }}
input, button {{ font: inherit; padding: .4em .8em; margin-top: .6em; }}
.wrong {{ color: #ff8a80; }}
</style></head>
<body><form id="gate" method="post" action="{action}">
<div>okf-explorer: this brain needs the server's token.</div>
{notice}<input id="token" name="token" type="password" autocomplete="current-password"
 aria-label="token" autofocus> <button type="submit">Open</button>
</form>
<script>
(() => {{
  const prefix = "#token=";
  if (!location.hash.startsWith(prefix)) return;
  const given = location.hash.slice(prefix.length);
  let token = given;
  try {{ token = decodeURIComponent(given); }} catch (error) {{}}
  history.replaceState(null, "", location.pathname);
  document.getElementById("token").value = token;
  document.getElementById("gate").submit();
}})();
</script></body></html>
"""


def sign_in_page(*, status: int, wrong: bool = False) -> web.Response:
    """The page that asks for the token (it shows no brain content)."""
    notice = '<div class="wrong">That token is not right.</div>\n' if wrong else ""
    body = SIGN_IN_PAGE.format(action=escape(LOGIN_PATH), notice=notice)
    response = web.Response(status=status, text=body, content_type="text/html")
    response.headers["Content-Security-Policy"] = SIGN_IN_CSP
    return response
