"""`GbrainWriter`: saving a page into a gbrain server through its `put_page` tool.

gbrain has had two write contracts (`contract` has the findings, by version);
the writer asks `tools/list` once and follows the one the server speaks.

**0.46.28** (the pinned peer; its source, `src/core/ops/pages.ts` and
`src/core/import-file.ts`, and our probes): `put_page {slug, content, allow_empty?}`
(+ provenance fields a remote caller cannot set), `content` the whole Markdown
with YAML frontmatter, `write` scope (a read token gets `insufficient_scope`,
`isError`, HTTP 200). An **upsert by slug with no precondition** and no request
id; the slug is lowercased. Idempotent by content: when the stored hash equals
the new one it answers `status: "skipped"` and writes nothing, otherwise
`"created_or_updated"` after snapshotting the old row into the page's versions.
Reply `{slug, status, chunks, error?}`; `status: "error"` (bad YAML) and
`"skipped"` with `error` (over 5 MB) are *not* `isError`; `slug` can name another
page when the frontmatter `id:` matches one. Refusals: `insufficient_scope`,
`permission_denied`, `scope_denied`, HTTP 401 `invalid_token`; `unknown_operation`
where there is no `put_page` (our own read-only `serve`).

**v0.51+**: `put_page` takes `expected_revision` (omitted: create-only) and a
`request_id` a retry reuses; conflicts are `revision_conflict` /
`revision_required`; an accepted write can stay pending (`write_pending` with its
receipt; v0.57 receipts say how long to wait), read by `get_write_request`.

The discipline (issues 13 §3 and 22), one rule with the folder writer's:

- **Only ever a new page.** The page is read right before the write (the contract
  is asked first). A page there that carries this save's idempotency key
  (`idempotency_key:` in its frontmatter, added to the text if missing; or
  `generated.idempotency_key`) is this slice, saved before: `unchanged`, nothing
  sent, whatever its bytes; the detail says whether they are this save's
  (`same_slice`), so a person's edit of a saved slice, or another run's page, is
  left as it is. Any other page (a human page, another slice) is `refused` ("page
  exists; choose another --as") with nothing sent. Only no page is written.
- **Old contract**: `put_page` is an upsert, so the create is not atomic: a page
  landing between our read and our `put_page` is overwritten (gbrain keeps it as a
  version); only the revisioned contract closes that window. What still guards:
  before a resend after a transient failure the page is read again, since our
  attempt may have landed (our bytes: `written`) or a page appeared (this key:
  `unchanged`, another: `refused`).
- **Revisioned contract**: the create names no `expected_revision` (create-only);
  its `request_id` is derived from the idempotency key and the page
  (`contract.request_id`) and reused on every retry. A conflict
  (`revision_required` / `revision_conflict`) means a page appeared: one re-read,
  and this key is `unchanged`, another page `refused`, no page (it came and went)
  `conflict`. A pending receipt is polled (`get_write_request`, else the same
  `put_page` replayed with the same id) within `pending_wait_s` (at once when a
  v0.57 receipt says to inspect the server's writer instead); still pending then is
  `unavailable` with the detail `... pending, request <id>`, so running the same
  save again (same key, same page, so the same id) settles it. Never re-submitted
  with a new id. A rerun with other bytes (another `generated.at`) under that id is
  gbrain's `idempotency_conflict`: settled by the earlier request's receipt.
- **written** only after a `get_page` read-back holds exactly our page.
- **refused** (auth, scope, policy, no `put_page`) is never retried.
- A timeout or dropped connection after `put_page` was sent leaves the state
  unknown. The revisioned writer asks for the request's receipt (no such request:
  `unavailable`, not written; where `get_write_request` is not listed it replays
  the same request, which gbrain answers with its receipt and never applies
  twice). The old one reads the page once: our bytes there are a verified
  `written`, another page as above, no page not written (`unavailable`; `failed`
  for a reply cut off); not resent: a slow server stays slow.
- HTTP 5xx and gbrain's `rate_limited` / `unavailable` / `writer_busy` are
  retried with the same arguments (the same bytes, the same request id), at most
  `WRITE_ATTEMPTS` writes in all.
"""

from __future__ import annotations

import threading
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
from okf_explorer.core.port import (
    PAGE_EXISTS,
    SAME_SLICE,
    SaveOutcome,
    SaveResult,
    same_slice,
)
from okf_explorer.sources.gbrain.contract import (
    CONFLICT_CODES,
    IDEMPOTENCY_KEY,
    ExpectedPage,
    Receipt,
    WriteContract,
    check_slug,
    content_flag,
    contract_of,
    difference,
    expected_page,
    receipt_of,
    request_id,
    tool_error,
    with_idempotency_key,
)
from okf_explorer.sources.gbrain.payloads import ToolDecoder
from okf_explorer.sources.gbrain.source import McpSource
from okf_explorer.sources.gbrain.transport import JsonRpcTransport, ServerFailed

__all__ = ["PENDING_WAIT_S", "WRITE_ATTEMPTS", "GbrainWriter", "check_slug"]

WRITE_ATTEMPTS = 3
"""The most `put_page` requests one write sends (1 + 2 retries of transient failures)."""

RETRY_BACKOFF_S = 0.2
"""Delay before the first retry of a write, doubled for each later one (0.2 s, 0.4 s)."""

PENDING_WAIT_S = 15.0
"""How long one save polls a write the server accepted but has not committed (on top
of the server's own wait before it answers `write_pending`, 5 s by default)."""

POLL_DEFAULT_S = 1.0
"""Poll delay when a pending receipt names none (v0.57 advises 1 s for a recent write)."""

POLL_MIN_S = 0.05

_UNSEEN = "unseen"
"""A receipt state of our own: the server could not be asked (unreachable meanwhile)."""

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

TRANSIENT_CODES = frozenset({"rate_limited", "unavailable", "writer_busy"})
"""gbrain error codes worth another attempt with the same arguments."""


class _Transient(Exception):
    """A write that may succeed if sent again (5xx, rate limit)."""


class _Unknown(Exception):
    """A write whose fate is unknown: sent, but no usable answer came (a timeout, a
    dropped connection, a reply cut off). `outcome` is the result if it did not land."""

    def __init__(self, message: str, outcome: SaveOutcome = SaveOutcome.UNAVAILABLE) -> None:
        super().__init__(message)
        self.outcome = outcome


class _Rejected(Exception):
    """`put_page` answered an error code that is neither a refusal nor transient."""

    def __init__(self, message: str, code: str, receipt: Receipt | None) -> None:
        super().__init__(message)
        self.code = code
        self.receipt = receipt


class _Outcome(Exception):
    """A final result, raised from deep inside the save."""

    def __init__(self, result: SaveResult) -> None:
        super().__init__(result.detail)
        self.result = result


class GbrainWriter:
    """A `PageWriter` for a gbrain(-compatible) MCP server (see the module docstring).

    Built on the source's own transport (its session, token and timeout; the token
    is never in a message or a repr). Construction sends nothing; the first save
    asks `tools/list` once for the write contract. Thread-safe as the transport is,
    but one save should not race another on the same slug.
    """

    def __init__(
        self,
        source: McpSource | JsonRpcTransport,
        *,
        retry_backoff_s: float = RETRY_BACKOFF_S,
        pending_wait_s: float = PENDING_WAIT_S,
    ) -> None:
        self._rpc = source.transport if isinstance(source, McpSource) else source
        self.label = self._rpc.label
        self._decoder = ToolDecoder(self.label, self._rpc.token_source, self._rpc.scrub)
        self.retry_backoff_s = retry_backoff_s
        self.pending_wait_s = pending_wait_s
        self._contract: WriteContract | None = None
        self._contract_lock = threading.Lock()

    @classmethod
    def connect(
        cls,
        url: str,
        *,
        token: str | None,
        token_source: str = "a token",
        timeout: float = 10.0,
        pending_wait_s: float = PENDING_WAIT_S,
    ) -> GbrainWriter:
        """A writer for the MCP endpoint `url` (tests, scripts); sends nothing yet."""
        transport = JsonRpcTransport(
            url, token=token, token_source=token_source, timeout=timeout, pool_size=2
        )
        return cls(transport, pending_wait_s=pending_wait_s)

    def __repr__(self) -> str:
        return f"GbrainWriter({self.label!r})"

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

    # -- the server -----------------------------------------------------------------------

    def contract(self) -> WriteContract:
        """This server's `put_page` contract, from `tools/list` (asked once per writer)."""
        with self._contract_lock:
            if self._contract is None:
                self._contract = contract_of(self._listed_tools())
            return self._contract

    def _listed_tools(self) -> list[Any]:
        tools: list[Any] = []
        params: dict[str, Any] = {}
        for _ in range(100):
            result = self._rpc.request("tools/list", params or None)
            listed = result.get("tools") if isinstance(result, dict) else None
            if not isinstance(listed, list):
                raise ProtocolError(f"{self.label} answered tools/list unexpectedly")
            tools.extend(listed)
            cursor = result.get("nextCursor")
            if not cursor:
                break
            params = {"cursor": cursor}
        return tools

    def read(self, slug: str) -> dict[str, Any] | None:
        """gbrain's `get_page` object for `slug`, or None when there is no such page."""
        result = self._rpc.request("tools/call", {"name": "get_page", "arguments": {"slug": slug}})
        try:
            payload = self._decoder.page_payload(slug, result)
        except PageNotFound:
            return None
        return payload

    def put(self, arguments: dict[str, Any]) -> dict[str, Any]:
        """One `put_page`, sent once; raises `_Transient`, `_Unknown`, `AuthError`
        (a refusal), `_Rejected` (another error code), or `OkfError` (a bad reply)."""
        params = {"name": "put_page", "arguments": arguments}
        try:
            result = self._rpc.request("tools/call", params, attempts=1)
        except ServerFailed as error:
            raise _Transient(str(error)) from None
        except SourceUnavailable as error:
            raise _Unknown(str(error)) from None
        except ProtocolError as error:  # e.g. a reply cut off: the server may have acted
            raise _Unknown(str(error), SaveOutcome.FAILED) from None
        error = tool_error(result)
        if error is not None:
            code = str(error["error"])
            message = f"{code}: {self.scrub(str(error.get('message') or ''))}"
            if code in REFUSAL_CODES:
                raise AuthError(f"{self.label} refused put_page: {message}")
            if code in TRANSIENT_CODES:
                raise _Transient(f"{self.label} failed put_page: {message}")
            raise _Rejected(f"{self.label} failed put_page: {message}", code, receipt_of(error))
        payload = self._decoder.payload("put_page", {"slug": arguments.get("slug")}, result)
        if not isinstance(payload, dict):
            raise OkfError(f"{self.label} answered put_page with something unexpected")
        return payload

    def receipt(self, rid: str) -> Receipt | None:
        """`get_write_request`: the request's receipt, or None when the server has no
        request `rid` from this token (`not_found`: it was never accepted)."""
        arguments = {"request_id": rid}
        result = self._rpc.request(
            "tools/call", {"name": "get_write_request", "arguments": arguments}
        )
        error = tool_error(result)
        if error is not None:
            code = str(error["error"])
            if code == "not_found":
                return None
            message = f"{code}: {self.scrub(str(error.get('message') or ''))}"
            if code in REFUSAL_CODES:
                raise AuthError(f"{self.label} refused get_write_request: {message}")
            raise ProtocolError(f"{self.label} failed get_write_request: {message}")
        found = receipt_of(self._decoder.payload("get_write_request", arguments, result))
        if found is None or found.request_id != rid:
            raise ProtocolError(f"{self.label} answered get_write_request without its receipt")
        return found

    def result(self, outcome: SaveOutcome, slug: str, detail: str, attempts: int) -> SaveResult:
        return SaveResult(outcome, slug, f"{self.label}#{slug}", detail, attempts)


@dataclass
class _Save:
    """One save: the text it sends, the stored form it expects, the writes it made.

    `attempts` counts the `put_page` requests sent (replays asked to poll included);
    `earlier` is set when the server already holds a request of this save from an
    earlier run with other bytes; `replay_polls` when receipts cannot be read.
    """

    writer: GbrainWriter
    slug: str
    text: str
    expected: ExpectedPage
    key: str
    attempts: int = 0
    earlier: bool = False
    replay_polls: bool = False

    def run(self) -> SaveResult:
        revisions = self.contract().revisions  # asked first: the read is right before the write
        before = self.read("before writing")
        if before is not None:
            return self.existing(before)
        return self.create_revisioned() if revisions else self.create_upsert()

    def existing(self, page: dict[str, Any], *, landed: str | None = None) -> SaveResult:
        """A page is at the name: it is never written over. Another page is `refused`;
        one with this save's key is `unchanged`, or, when a write of ours may have
        made it (`landed` says how), a verified `written` if it holds our bytes."""
        if not self.ours(page):
            where = f"{self.writer.label}#{self.slug}"
            return self.done(SaveOutcome.REFUSED, f"{PAGE_EXISTS} ({where})")
        identical = self.holds_ours(page)
        if identical and landed:
            return self.done(SaveOutcome.WRITTEN, landed)
        return self.done(SaveOutcome.UNCHANGED, same_slice(identical))

    # -- the old contract (0.46.28): an upsert, sent only where no page was ---------------

    def create_upsert(self) -> SaveResult:
        arguments = {"slug": self.slug, "content": self.text}
        while True:
            try:
                reply = self.send(arguments)
            except _Unknown as error:
                raise self.after_unknown(str(error), error.outcome) from None
            except _Rejected as error:
                raise self.final(SaveOutcome.FAILED, str(error)) from None
            if reply is not None:
                return self.verify(reply)
            self.back_off()
            page = self.read("before resending")  # ours may have landed, or a page appeared
            if page is not None:
                return self.existing(page, landed="an earlier attempt landed; read back identical")

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
        if page is None:
            return self.final(not_found, f"{reason}; re-read: no page there, not written")
        return _Outcome(self.existing(page, landed="the reply was lost; read back identical"))

    def verify(self, reply: dict[str, Any]) -> SaveResult:
        status, error = reply.get("status"), reply.get("error")
        if status == "error" or error:
            detail = self.writer.scrub(str(error or status))
            return self.done(SaveOutcome.FAILED, f"gbrain did not store the page: {detail}")
        if reply.get("slug") != self.slug:
            return self.done(
                SaveOutcome.FAILED, "gbrain stored the content under another page (its id: matched)"
            )
        outcome = SaveOutcome.UNCHANGED if status == "skipped" else SaveOutcome.WRITTEN
        return self.read_back(outcome, f"gbrain: {status}")

    # -- the revisioned contract (gbrain v0.51+): create-only ----------------------------

    def create_revisioned(self) -> SaveResult:
        rid = request_id(self.key, self.slug)
        receipt = self.submit({"slug": self.slug, "content": self.text, "request_id": rid})
        if receipt.committed:
            return self.verify_committed(rid)
        page = self.read("after gbrain refused the create")  # a page appeared
        if page is None:
            why = receipt.error or receipt.state
            return self.done(
                SaveOutcome.CONFLICT,
                f"gbrain refused to create the page ({why}) but a re-read finds none;"
                f" not written (request {rid})",
            )
        return self.existing(page)

    def submit(self, arguments: dict[str, Any]) -> Receipt:
        """Send one write (retrying transient failures with the same arguments) and
        follow it to a committed or a conflict receipt; anything else is final."""
        rid = arguments["request_id"]
        while True:
            try:
                reply = self.send(arguments)
            except _Unknown as error:
                return self.settle(rid, arguments, str(error))
            except _Rejected as error:
                if error.code in CONFLICT_CODES:
                    return Receipt(rid, "conflict", error=error.code)
                if error.code == "write_pending":
                    return self.until_final(rid, arguments, error.receipt or Receipt(rid, "queued"))
                if error.code == "idempotency_conflict":  # an earlier run, other bytes
                    self.earlier = True
                    return self.settle(rid, arguments, str(error))
                raise self.final(SaveOutcome.FAILED, str(error)) from None
            if reply is not None:
                receipt = receipt_of(reply) or Receipt(rid, "committed")
                return self.until_final(rid, arguments, receipt)
            self.back_off()

    def settle(self, rid: str, arguments: dict[str, Any], reason: str) -> Receipt:
        """The write's fate is unknown: ask for its receipt (never send a new id)."""
        receipt = self.poll(rid, arguments)
        if receipt is None:
            raise self.final(
                SaveOutcome.UNAVAILABLE,
                f"{reason}; {self.writer.label} holds no request {rid}: not written",
            )
        return self.until_final(rid, arguments, receipt)

    def until_final(self, rid: str, arguments: dict[str, Any], receipt: Receipt) -> Receipt:
        """Poll a pending request within `pending_wait_s`; a committed or a conflict
        receipt is returned, a failed one is final, one still pending is `unavailable`."""
        deadline = time.monotonic() + self.writer.pending_wait_s
        while receipt.pending or receipt.state == _UNSEEN:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or receipt.inspect_owner:
                raise self.final(SaveOutcome.UNAVAILABLE, self.still_pending(rid, receipt))
            wait = receipt.retry_after_s if receipt.retry_after_s is not None else POLL_DEFAULT_S
            time.sleep(min(max(wait, POLL_MIN_S), remaining))
            polled = self.poll(rid, arguments)
            if polled is None:
                raise self.final(
                    SaveOutcome.FAILED,
                    f"{self.writer.label} no longer knows request {rid} it had accepted;"
                    " not written",
                )
            receipt = polled
        if receipt.committed or receipt.state == "conflict":
            return receipt
        why = f": {receipt.error}" if receipt.error else ""
        raise self.final(
            SaveOutcome.FAILED,
            f"{self.writer.label} ended request {rid} {receipt.state}{why}; not written",
        )

    def still_pending(self, rid: str, receipt: Receipt) -> str:
        """Why the write is not known to be committed, ending `pending, request <id>`."""
        where = self.writer.label
        if receipt.state == _UNSEEN:
            what = f"{where} could not be asked whether it took the write"
        else:
            blocked = f", {receipt.blocked}" if receipt.blocked else ""
            what = f"{where} accepted the write but has not committed it ({receipt.state}{blocked})"
        if receipt.inspect_owner:
            what += "; gbrain advises inspecting its writer (gbrain sources writer status)"
        return f"{what}; the same save run again settles it: pending, request {rid}"

    def poll(self, rid: str, arguments: dict[str, Any]) -> Receipt | None:
        """The request's receipt now: `get_write_request`, or where the server has none
        (or does not let this token read receipts) the same `put_page` replayed with the
        same id. None: the server holds no such request."""
        if self.writer.contract().receipts and not self.replay_polls:
            try:
                return self.writer.receipt(rid)
            except AuthError:
                self.replay_polls = True  # no receipt grant: a replay is the way to ask
            except SourceUnavailable:
                return Receipt(rid, _UNSEEN)
            except OkfError as error:
                raise self.final(SaveOutcome.FAILED, f"{error} (request {rid})") from None
        if self.earlier:  # replaying other bytes under this id only repeats the conflict
            return self.page_settles(rid)
        self.attempts += 1
        try:
            reply = self.writer.put(arguments)
        except AuthError as error:
            raise self.final(SaveOutcome.REFUSED, str(error)) from None
        except (_Transient, _Unknown):
            return Receipt(rid, _UNSEEN)
        except _Rejected as error:
            if error.code in CONFLICT_CODES:
                return Receipt(rid, "conflict", error=error.code)
            if error.code == "write_pending":
                return error.receipt or Receipt(rid, "queued")
            raise self.final(SaveOutcome.FAILED, str(error)) from None
        except OkfError as error:
            raise self.final(SaveOutcome.FAILED, str(error)) from None
        return receipt_of(reply) or Receipt(rid, "committed")

    def page_settles(self, rid: str) -> Receipt:
        """Without receipts, an earlier run's request shows only on the page."""
        page = self.read("to find an earlier request")
        return (
            Receipt(rid, "committed")
            if page is not None and self.ours(page)
            else Receipt(rid, "queued")
        )

    def verify_committed(self, rid: str) -> SaveResult:
        if self.earlier:  # the request that committed carried an earlier run's bytes
            page = self.read("to verify the write")
            if page is not None and self.ours(page) and not self.holds_ours(page):
                return self.done(
                    SaveOutcome.UNCHANGED,
                    f"{SAME_SLICE} (an earlier run of this save wrote it, request {rid})",
                )
        return self.read_back(SaveOutcome.WRITTEN, f"gbrain: committed, request {rid}")

    # -- shared -------------------------------------------------------------------------

    def send(self, arguments: dict[str, Any]) -> dict[str, Any] | None:
        """One `put_page`: its reply, or None to send it again (the same arguments,
        after `back_off`) after a transient failure; `_Unknown` once `WRITE_ATTEMPTS`
        failed."""
        self.attempts += 1
        try:
            return self.writer.put(arguments)
        except AuthError as error:
            raise self.final(SaveOutcome.REFUSED, str(error)) from None
        except _Transient as error:
            if self.attempts >= WRITE_ATTEMPTS:
                raise _Unknown(f"{error}; gave up after {self.attempts} writes") from None
            return None
        except OkfError as error:
            raise self.final(SaveOutcome.FAILED, str(error)) from None

    def back_off(self) -> None:
        """The pause before a resend: `retry_backoff_s`, doubled for each write sent."""
        time.sleep(self.writer.retry_backoff_s * 2 ** (self.attempts - 1))

    def read_back(self, outcome: SaveOutcome, note: str) -> SaveResult:
        back = self.read("to verify the write")
        if back is None:
            return self.done(SaveOutcome.FAILED, "the write succeeded but the page cannot be read")
        differs = difference(self.expected, back)
        if differs:
            return self.done(SaveOutcome.FAILED, f"the page read back differs: {differs}")
        flag = content_flag(back)
        flagged = f"; gbrain flagged it {flag}" if flag else ""
        return self.done(outcome, f"read back identical ({note}){flagged}")

    def contract(self) -> WriteContract:
        try:
            return self.writer.contract()
        except AuthError as error:
            raise self.final(SaveOutcome.REFUSED, str(error)) from None
        except SourceUnavailable as error:
            raise self.final(
                SaveOutcome.UNAVAILABLE, f"{error} (listing its tools); the write was not sent"
            ) from None
        except OkfError as error:
            raise self.final(SaveOutcome.FAILED, f"{error} (listing its tools)") from None

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

    def ours(self, page: dict[str, Any]) -> bool:
        """The page was saved by this save: it carries this idempotency key."""
        frontmatter = page.get("frontmatter")
        if not isinstance(frontmatter, dict):
            return False
        generated = frontmatter.get("generated")
        nested = generated.get(IDEMPOTENCY_KEY) if isinstance(generated, dict) else None
        return self.key in (frontmatter.get(IDEMPOTENCY_KEY), nested)

    def holds_ours(self, page: dict[str, Any] | None) -> bool:
        """The page holds exactly what this save sends (its key, field by field)."""
        if page is None:
            return False
        frontmatter = page.get("frontmatter")
        key = frontmatter.get(IDEMPOTENCY_KEY) if isinstance(frontmatter, dict) else None
        return key == self.key and difference(self.expected, page) is None

    def done(self, outcome: SaveOutcome, detail: str) -> SaveResult:
        return self.writer.result(outcome, self.slug, detail, self.attempts)

    def final(self, outcome: SaveOutcome, detail: str) -> _Outcome:
        return _Outcome(self.done(outcome, detail))
