"""`GbrainWriter`: saving a page into a gbrain server through its `put_page` tool.

What gbrain's `put_page` is (its source, `src/core/ops/pages.ts` and
`src/core/import-file.ts`, and our probes against the real server):

- params `{slug, content, allow_empty?}` (+ provenance fields a remote caller cannot
  set). `content` is the whole Markdown with YAML frontmatter. It needs `write`
  scope; a read token gets `insufficient_scope` (`isError`, HTTP 200).
- It is an **upsert by slug with no version check**: no expected version, no
  `if_match`, no idempotency parameter. The slug is lowercased (`validateSlug`).
- It **is idempotent by content**: gbrain hashes the parsed page (title, type, body,
  frontmatter, sorted tags); when the stored hash is equal it answers
  `status: "skipped"` and writes nothing (`updated_at` stays). Otherwise
  `"created_or_updated"`, after snapshotting the old row into its page versions.
- Reply `{slug, status, chunks, error?, ...}`. `status: "error"` (bad YAML) and
  `"skipped"` with `error` (over 5 MB) are *not* `isError`. `slug` can name
  another page when the frontmatter `id:` matches one (cross-slug dedup).
  An empty body over a non-empty page is refused (`internal_error`).
- Refusals: `insufficient_scope`, `permission_denied` (a client's slug fence),
  `scope_denied`, HTTP 401 `invalid_token`; `unknown_operation` when the server has
  no `put_page` (our own read-only `serve`).

The discipline (issue 13 §3), and how it is met without server support:

- **Idempotency key**: kept in the page's frontmatter (`idempotency_key:`), added
  if the text lacks it; every resubmit of one save sends the same bytes.
- **unchanged**: the page is read first; when it already holds this key and, field
  by field, this content (`gbrain_stored`), nothing is written.
- **Versions, emulated**: the page's `(content_hash, updated_at)` is read before,
  then read again right before each `put_page`. A change between them is a
  conflict: that re-read becomes the expected version and the page is
  re-submitted once; a second change is `conflict`. NOT atomic: a write landing
  between our last check and our `put_page` is overwritten (gbrain keeps it as a
  page version), and then our read-back is identical, so the save is `written`.
  A write landing after our `put_page` makes the read-back differ: `failed`.
- **written** only after a `get_page` read-back holds exactly our page.
- **refused** (auth, scope, policy, no `put_page`) is never retried.
- A timeout or dropped connection after `put_page` was sent leaves the state
  unknown: the page is read once; if it holds our page that is a verified
  `written`, else `unavailable` (saying whether the page was seen unchanged).
  Not retried: a slow server stays slow.
- HTTP 5xx and gbrain's `rate_limited` / `unavailable` are retried, the same
  bytes, at most `WRITE_ATTEMPTS` writes in all, each after a fresh version check.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from okf_explorer.core.errors import (
    AuthError,
    OkfError,
    PageNotFound,
    ProtocolError,
    SourceUnavailable,
)
from okf_explorer.core.page_write import SaveOutcome, SaveResult
from okf_explorer.sources.gbrain_stored import (
    IDEMPOTENCY_KEY,
    ExpectedPage,
    content_flag,
    difference,
    expected_page,
    with_idempotency_key,
)
from okf_explorer.sources.mcp import McpSource
from okf_explorer.sources.mcp_errors import ServerFailed
from okf_explorer.sources.mcp_json import decode
from okf_explorer.sources.mcp_payloads import ToolDecoder
from okf_explorer.sources.mcp_transport import JsonRpcTransport
from okf_explorer.sources.url_redaction import redact_url, url_secrets

WRITE_ATTEMPTS = 3
"""The most `put_page` requests one save sends (1 + 2 retries of transient failures)."""

RETRY_BACKOFF_S = 0.2
"""Delay before the first retry of a write, doubled for each later one (0.2 s, 0.4 s)."""

REFUSAL_CODES = frozenset(
    {
        "insufficient_scope",
        "scope_denied",
        "permission_denied",
        "invalid_token",
        "unauthorized",
        "forbidden",
        "unknown_operation",
    }
)
"""gbrain error codes that mean no: fail closed, never retried."""

TRANSIENT_CODES = frozenset({"rate_limited", "unavailable"})
"""gbrain error codes worth another attempt with the same bytes."""

_UNSAFE_SLUG_TEXT = ("\\", "%2e", "%2f", "%5c")


class _Transient(Exception):
    """A write that may succeed if sent again (5xx, rate limit)."""


class _Unknown(Exception):
    """A write whose fate is unknown: sent, but no usable answer came (a timeout, a
    dropped connection, a reply cut off). `outcome` is the result if it did not land."""

    def __init__(self, message: str, outcome: SaveOutcome = SaveOutcome.UNAVAILABLE) -> None:
        super().__init__(message)
        self.outcome = outcome


class _Outcome(Exception):
    """A final result, raised from deep inside the save."""

    def __init__(self, result: SaveResult) -> None:
        super().__init__(result.detail)
        self.result = result


class GbrainWriter:
    """A `PageWriter` for a gbrain(-compatible) MCP server (see the module docstring).

    Built on the source's own transport (its session, token and timeout; the token
    is never in a message or a repr). Construction sends nothing. Thread-safe as the
    transport is, but one save should not race another on the same slug.
    """

    def __init__(
        self, source: McpSource | JsonRpcTransport, *, retry_backoff_s: float = RETRY_BACKOFF_S
    ) -> None:
        self._rpc = source.transport if isinstance(source, McpSource) else source
        self._label = self._rpc.label
        self._decoder = ToolDecoder(self._label, self._rpc.token_source, self._rpc.scrub)
        self.retry_backoff_s = retry_backoff_s

    @classmethod
    def connect(
        cls, url: str, *, token: str | None, token_source: str = "a token", timeout: float = 10.0
    ) -> GbrainWriter:
        """A writer for the MCP endpoint `url` (tests, scripts); sends nothing yet."""
        transport = JsonRpcTransport(
            url,
            label=redact_url(url),
            token=token,
            token_source=token_source,
            timeout=timeout,
            pool_size=2,
            secrets=url_secrets(url),
        )
        return cls(transport)

    def __repr__(self) -> str:
        return f"GbrainWriter({self._label!r})"

    def close(self) -> None:
        self._rpc.close()

    def scrub(self, text: str) -> str:
        """Server text made safe to show: secrets masked, one short line."""
        return self._rpc.scrub(text)

    # -- PageWriter -----------------------------------------------------------------------

    def write_page(self, slug: str, text: str, *, idempotency_key: str) -> SaveResult:
        """Save `text` as page `slug` with the discipline of the module docstring."""
        check_slug(slug)
        text = with_idempotency_key(text, idempotency_key)
        save = _Save(self, slug, text, expected_page(text), idempotency_key)
        try:
            return save.run()
        except _Outcome as final:
            return final.result

    # -- the two tools --------------------------------------------------------------------

    def read(self, slug: str) -> dict[str, Any] | None:
        """gbrain's `get_page` object for `slug`, or None when there is no such page."""
        result = self._rpc.request("tools/call", {"name": "get_page", "arguments": {"slug": slug}})
        try:
            payload = self._decoder.page_payload(slug, result)
        except PageNotFound:
            return None
        return payload

    def put(self, slug: str, text: str) -> dict[str, Any]:
        """One `put_page`, sent once; raises `_Transient`, `_Unknown`, `AuthError`
        (a refusal), or `OkfError` (anything else)."""
        params = {"name": "put_page", "arguments": {"slug": slug, "content": text}}
        try:
            result = self._rpc.request("tools/call", params, attempts=1)
        except ServerFailed as error:
            raise _Transient(str(error)) from None
        except SourceUnavailable as error:
            raise _Unknown(str(error)) from None
        except ProtocolError as error:  # e.g. a reply cut off: the server may have acted
            raise _Unknown(str(error), SaveOutcome.FAILED) from None
        code, message = _tool_error(result)
        if code in REFUSAL_CODES:
            raise AuthError(f"{self._label} refused put_page: {code}: {self._rpc.scrub(message)}")
        if code in TRANSIENT_CODES:
            raise _Transient(f"{self._label} failed put_page: {code}: {self._rpc.scrub(message)}")
        payload = self._decoder.payload("put_page", {"slug": slug}, result)
        if not isinstance(payload, dict):
            raise OkfError(f"{self._label} answered put_page with something unexpected")
        return payload

    def result(self, outcome: SaveOutcome, slug: str, detail: str, attempts: int) -> SaveResult:
        return SaveResult(outcome, slug, f"{self._label}#{slug}", detail, attempts)


@dataclass
class _Save:
    """One save: the text it sends, the stored form it expects, the writes it made."""

    writer: GbrainWriter
    slug: str
    text: str
    expected: ExpectedPage
    key: str
    attempts: int = 0

    def run(self) -> SaveResult:
        before = self.read("before writing")
        if self.holds_ours(before):
            return self.done(SaveOutcome.UNCHANGED, "the page already holds these bytes")
        expected_version, conflicts = _version(before), 0
        while True:
            now = self.read("right before writing")
            if self.holds_ours(now):  # an earlier attempt landed, or a twin save did
                outcome = SaveOutcome.WRITTEN if self.attempts else SaveOutcome.UNCHANGED
                return self.done(outcome, "the page holds these bytes (read back)")
            if _version(now) != expected_version:
                if conflicts:
                    return self.done(
                        SaveOutcome.CONFLICT,
                        "the page changed again while we re-submitted; not written",
                    )
                conflicts, expected_version = 1, _version(now)
                continue  # re-read before the one re-submit
            reply = self.put_once()
            if reply is None:
                continue  # a transient failure: check the version again, then resend
            return self.verify(reply)

    def put_once(self) -> dict[str, Any] | None:
        """One `put_page`: its reply, or None to try again after a transient failure."""
        if self.attempts:
            time.sleep(self.writer.retry_backoff_s * 2 ** (self.attempts - 1))
        self.attempts += 1
        try:
            return self.writer.put(self.slug, self.text)
        except AuthError as error:
            raise self.final(SaveOutcome.REFUSED, str(error)) from None
        except _Transient as error:
            if self.attempts >= WRITE_ATTEMPTS:
                raise self.after_unknown(f"{error}; gave up after {self.attempts} writes") from None
            return None
        except _Unknown as error:
            raise self.after_unknown(str(error), error.outcome) from None
        except OkfError as error:
            raise self.final(SaveOutcome.FAILED, str(error)) from None

    def after_unknown(
        self, reason: str, not_found: SaveOutcome = SaveOutcome.UNAVAILABLE
    ) -> _Outcome:
        """The write may or may not have landed: read once to find out."""
        try:
            page = self.writer.read(self.slug)
        except OkfError as error:
            return self.final(
                SaveOutcome.UNAVAILABLE,
                f"{reason}; whether the page was written is unknown (re-read failed: {error})",
            )
        if self.holds_ours(page):
            return self.final(SaveOutcome.WRITTEN, "the reply was lost; read back identical")
        return self.final(not_found, f"{reason}; re-read: the page does not hold it, not written")

    def verify(self, reply: dict[str, Any]) -> SaveResult:
        status, error = reply.get("status"), reply.get("error")
        if status == "error" or error:
            detail = self.writer.scrub(str(error or status))
            return self.done(SaveOutcome.FAILED, f"gbrain did not store the page: {detail}")
        if reply.get("slug") != self.slug:
            return self.done(
                SaveOutcome.FAILED, "gbrain stored the content under another page (its id: matched)"
            )
        back = self.read("to verify the write")
        outcome = SaveOutcome.UNCHANGED if status == "skipped" else SaveOutcome.WRITTEN
        if back is None:
            return self.done(SaveOutcome.FAILED, "put_page succeeded but the page cannot be read")
        differs = difference(self.expected, back)
        if differs:
            return self.done(SaveOutcome.FAILED, f"the page read back differs: {differs}")
        flag = content_flag(back)
        note = f"; gbrain flagged it {flag}" if flag else ""
        return self.done(outcome, f"read back identical (gbrain: {status}){note}")

    def read(self, why: str) -> dict[str, Any] | None:
        try:
            return self.writer.read(self.slug)
        except AuthError as error:
            raise self.final(SaveOutcome.REFUSED, str(error)) from None
        except SourceUnavailable as error:
            state = "was sent but is not verified" if self.attempts else "was not sent"
            raise self.final(
                SaveOutcome.UNAVAILABLE, f"{error} ({why}); the write {state}"
            ) from None
        except OkfError as error:
            raise self.final(SaveOutcome.FAILED, f"{error} ({why})") from None

    def holds_ours(self, page: dict[str, Any] | None) -> bool:
        if page is None:
            return False
        frontmatter = page.get("frontmatter")
        key = frontmatter.get(IDEMPOTENCY_KEY) if isinstance(frontmatter, dict) else None
        return key == self.key and difference(self.expected, page) is None

    def done(self, outcome: SaveOutcome, detail: str) -> SaveResult:
        return self.writer.result(outcome, self.slug, detail, self.attempts)

    def final(self, outcome: SaveOutcome, detail: str) -> _Outcome:
        return _Outcome(self.done(outcome, detail))


def check_slug(slug: str) -> None:
    """Raise `ValueError` for a slug gbrain would refuse or rename (it lowercases)."""
    segments = slug.split("/")
    if not slug or slug.startswith("/") or ".." in segments or "" in segments:
        raise ValueError(f"invalid page slug {slug!r}")
    if any(ord(ch) < 0x20 or 0x7F <= ord(ch) <= 0x9F for ch in slug):
        raise ValueError(f"invalid page slug {slug!r}: control characters")
    if any(part in slug.lower() for part in _UNSAFE_SLUG_TEXT):
        raise ValueError(f"invalid page slug {slug!r}: backslash or an encoded separator")
    if slug != slug.lower():
        raise ValueError(f"gbrain lowercases slugs: save as {slug.lower()!r}")


def _version(page: dict[str, Any] | None) -> tuple[Any, Any] | None:
    """The emulated version of a page: its content hash and update time (None: absent)."""
    return None if page is None else (page.get("content_hash"), page.get("updated_at"))


def _tool_error(result: Any) -> tuple[str | None, str]:
    """The `error` code and message of a `tools/call` result, or `(None, "")`."""
    content = result.get("content") if isinstance(result, dict) else None
    first = content[0] if isinstance(content, list) and content else None
    text = first.get("text") if isinstance(first, dict) else None
    if not isinstance(text, str):
        return None, ""
    try:
        payload = decode(text, "the server")
    except (ValueError, ProtocolError):
        return None, ""
    if isinstance(payload, dict) and isinstance(payload.get("error"), str):
        return payload["error"], str(payload.get("message") or "")
    return None, ""
