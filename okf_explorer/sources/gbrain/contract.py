"""Which `put_page` contract a gbrain server speaks, and how its write receipts read.

What gbrain's writes are, release by release (garrytan/gbrain: CHANGELOG.md,
docs/TOOL_CATALOG.md, docs/guides/concurrent-writes.md, docs/guides/error-codes.md,
src/core/persistence/{params,preconditions,service}.ts, src/core/ops/persistence.ts):

- **0.46.28** (the pinned peer): `put_page {slug, content, allow_empty?}` is an
  upsert with no precondition and no request id (`mcp_write` sends it only where
  it found no page, and reads again before a resend).
- **v0.51.0.0** (2026-09-16, "concurrent edits now have durable outcomes"):
  `get_page` answers the page's `revision` (an opaque UUID, read in the same
  snapshot as its content and tags). `put_page` takes `expected_revision` ("revision
  read; omit to create": a write without it is *create-only*, and a page already
  there is refused `revision_required`), `force` (an explicit overwrite, exclusive
  with `expected_revision`; we never send it) and `request_id` (a UUID; any other
  printable id is mapped to a UUIDv5). A request id is scoped to the brain and the
  token's principal: the same id with the same arguments replays the retained
  receipt and never writes twice; with other arguments it is `idempotency_conflict`.
  A stale `expected_revision` is `revision_conflict`; a request that ended in a
  conflict or a failure is final ("a new attempt needs a new request_id").
- **Receipts** `{request_id, state, retry_after_ms, revision?, outcome?, ...}`;
  `state` is `queued`, `running` or `recovering` (pending) or `committed`,
  `conflict`, `failed`, `cancelled` (final). A committed `put_page` answers its
  receipt (and the same receipt as `write_request`). A write still pending after
  the server's own wait (5 s by default, `wait_ms` up to 30 s) is the error
  `write_pending` carrying `write_request`; a final failure is the error of its
  code (`revision_conflict`, ...) carrying `write_request`.
- **`get_write_request {request_id}`** (write scope; "after write_pending or a lost
  reply", "poll at retry_after_ms until final"): the receipt, or `not_found` for
  an id this principal never had accepted. A server that does not list it is
  asked by repeating the same `put_page` with the same id (the documented way).
- **v0.57.0.0** (2026-09-24, "know when an accepted write needs attention"): a
  pending receipt may carry `diagnostic {age_ms, assessment, reason, next_action}`;
  advised polling is 1 s, then 5 s, and 30 s once a request is two minutes old.
  "Keep the original request_id and arguments"; never submit a duplicate.
  (v0.57.0.1 keeps the revision-conflict detail in the receipt's message.)
- `put_pages` (up to 50 pages under one request id) and `edit_page` (a partial
  change) are listed beside `put_page` in the current catalog; one saved page
  needs neither.

The contract is read from `tools/list`: `put_page` whose input schema has both
`expected_revision` and `request_id` is the revisioned one. A save only ever
creates a page, so it never sends `expected_revision`: the create-only write is
what it needs from that contract. Everything here is pure: `mcp_write` does the I/O.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from typing import Any

from okf_explorer.core.errors import ProtocolError
from okf_explorer.sources.gbrain.bounded_json import decode

PENDING_STATES = frozenset({"queued", "running", "recovering"})
"""Receipt states of a write accepted but not yet final."""

CONFLICT_CODES = frozenset({"revision_conflict", "revision_required"})
"""The page is not at the revision the write named (or exists, for a create)."""

_REQUEST_NAMESPACE = uuid.UUID("6f1c3b0e-2d5a-5e8b-9c47-0b1e7d2a4f63")
"""Our own UUIDv5 namespace for request ids (never change it: ids must stay stable)."""


@dataclass(frozen=True)
class WriteContract:
    """What this server's `put_page` takes.

    `revisions`: `expected_revision` + `request_id` (gbrain v0.51+);
    `receipts`: `get_write_request` is listed, so a pending write can be polled.
    """

    revisions: bool
    receipts: bool


def contract_of(tools: list[Any]) -> WriteContract:
    """The write contract the `tools/list` entries `tools` describe."""
    by_name = {t.get("name"): t for t in tools if isinstance(t, dict)}
    put = by_name.get("put_page")
    schema = put.get("inputSchema") if isinstance(put, dict) else None
    properties = schema.get("properties") if isinstance(schema, dict) else None
    names = set(properties) if isinstance(properties, dict) else set()
    revisions = {"expected_revision", "request_id"} <= names
    return WriteContract(revisions, revisions and "get_write_request" in by_name)


def request_id(idempotency_key: str, slug: str) -> str:
    """The request id of a save's create: a UUID derived from its idempotency key and
    its page.

    Every retry of the write, and a later run of the same save (a write still
    pending, a lost reply), sends the same id, so the server replays the first
    request instead of taking a second one. The `None` is where earlier releases
    named the revision an update replaced (a create named none): kept, so the ids
    of creates stay what they were and a pending request of theirs is found.
    """
    name = json.dumps(["okf-explorer/save", idempotency_key, slug, None])
    return str(uuid.uuid5(_REQUEST_NAMESPACE, name))


@dataclass(frozen=True)
class Receipt:
    """One write request's receipt (see the module docstring).

    `blocked` is why accepted work is not progressing (`blocked_reason`, or a v0.57
    diagnostic's reason); `inspect_owner` is set when the diagnostic's next action
    is to inspect the server's writer, not to keep polling.
    """

    request_id: str
    state: str
    retry_after_s: float | None = None
    revision: str | None = None
    error: str | None = None
    blocked: str | None = None
    inspect_owner: bool = False

    @property
    def pending(self) -> bool:
        return self.state in PENDING_STATES

    @property
    def committed(self) -> bool:
        return self.state == "committed"


def receipt_of(value: Any) -> Receipt | None:
    """The receipt in a reply object (or its `write_request`), else None."""
    if not isinstance(value, dict):
        return None
    inner = value.get("write_request")
    if isinstance(inner, dict) and "state" in inner:
        value = {**inner, **{k: v for k, v in value.items() if k == "write_error"}}
    state, rid = value.get("state"), value.get("request_id")
    if not isinstance(state, str) or not isinstance(rid, str):
        return None
    retry = value.get("retry_after_ms")
    diagnostic = value.get("diagnostic") if isinstance(value.get("diagnostic"), dict) else {}
    blocked = value.get("blocked_reason") or diagnostic.get("reason")
    return Receipt(
        request_id=rid,
        state=state,
        retry_after_s=retry / 1000 if isinstance(retry, int | float) and retry >= 0 else None,
        revision=_text(value.get("revision")),
        error=_text(value.get("write_error")),
        blocked=_text(blocked),
        inspect_owner=diagnostic.get("next_action") == "inspect_owner",
    )


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def tool_error(result: Any) -> dict[str, Any] | None:
    """The `{"error": code, ...}` object of a `tools/call` result, else None."""
    content = result.get("content") if isinstance(result, dict) else None
    first = content[0] if isinstance(content, list) and content else None
    text = first.get("text") if isinstance(first, dict) else None
    if not isinstance(text, str):
        return None
    try:
        payload = decode(text, "the server")
    except (ValueError, ProtocolError):
        return None
    if isinstance(payload, dict) and isinstance(payload.get("error"), str):
        return payload
    return None
