"""Which `put_page` contract a gbrain server speaks, how its receipts read, and what it stores.

What gbrain's writes are, release by release (garrytan/gbrain: CHANGELOG.md,
docs/TOOL_CATALOG.md, docs/guides/concurrent-writes.md, docs/guides/error-codes.md,
src/core/persistence/{params,preconditions,service}.ts, src/core/ops/persistence.ts):

- **0.46.28** (the pinned peer): `put_page {slug, content, allow_empty?}` is an
  upsert with no precondition and no request id (`sources.gbrain.write` sends it only where
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
what it needs from that contract. Everything here is pure: `sources.gbrain.write` does the I/O.

What gbrain stores of a page we `put_page`, and whether a `get_page` reply holds it.

gbrain does not keep the bytes it is sent (GBRAIN_PROTOCOL.md §4; its `parseMarkdown`
and `importFromContent`): it parses the YAML frontmatter (js-yaml), takes `type`,
`title`, `tags` and `slug` out of it, stores the rest as JSON, cuts the body into
`compiled_truth` and `timeline` (at a `<!-- timeline -->` / `--- timeline ---`
sentinel, a `---` line before a `## Timeline|History` heading, or a bare
`## Timeline` section of dated bullets, which moves to the end), and trims both.
`get_page` answers with those fields; its `content` is re-serialised YAML, never our
bytes. So "read back identical" is checked field by field, on the stored form:

- the body: `compiled_truth` (+ `timeline`) must be our body, trimmed, with only the
  timeline block moved out and its one sentinel line dropped: every other line,
  in order, byte for byte;
- the frontmatter: our YAML read with PyYAML, put in JSON form the way gbrain
  stores it (a date or timestamp becomes `YYYY-MM-DDTHH:MM:SS.mmmZ` in UTC, as
  js-yaml's `Date` does), must equal the stored object, key for key. The keys
  gbrain's content gate owns (`quarantine`, `content_flag`, `embed_skip`: stripped
  from a remote writer's text, added by the server itself) are left out on both
  sides; `content_flag` is reported, not failed on;
- `type` and `title`, when our frontmatter states them, must be stored as stated;
  the tags must be the same set (gbrain keeps them sorted and unique).

Where PyYAML (YAML 1.1) and js-yaml (1.2) read a value differently (`yes`, `0755`)
the check says "differs": it can only fail a good write, never pass a bad one.

The slug is stored as sent only when gbrain's `validateSlug` keeps it: it lowercases
every slug and refuses `..` segments, a leading `/`, control and bidi-override
characters, a backslash and an encoded `.`, `/` or `\\` (`%2e`, `%2f`, `%5c`);
v0.51+ page writes also cap a slug at 255 characters. `check_slug` refuses all of
these before anything is sent.
"""

from __future__ import annotations

import json
import re
import uuid
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from okf_explorer.core.errors import ProtocolError
from okf_explorer.sources.frontmatter import split_frontmatter
from okf_explorer.sources.gbrain.http import decode

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


IDEMPOTENCY_KEY = "idempotency_key"
"""The frontmatter key holding a save's idempotency key (gbrain's put_page has no
parameter for one, so the page itself carries it)."""

GATE_KEYS = frozenset({"quarantine", "content_flag", "embed_skip"})
"""Frontmatter keys owned by gbrain's content gate, not by the writer."""

MAX_SLUG_LENGTH = 255
"""gbrain's page-slug cap (`validatePageSlug`, v0.51+ page writes)."""

_LIFTED_KEYS = frozenset({"type", "title", "tags", "slug"})
_ENCODED_SEPARATORS = ("%2e", "%2f", "%5c")
_BIDI_OVERRIDES = re.compile("[\u202a-\u202e\u2066-\u2069]")
_SENTINEL = re.compile(r"^(?:<!--\s*timeline\s*-->|---\s+timeline\s+---|---)$", re.IGNORECASE)


@dataclass(frozen=True)
class ExpectedPage:
    """The stored form a page's text should take in gbrain (see the module docstring)."""

    frontmatter: dict[str, Any]
    type: str | None
    title: str | None
    tags: frozenset[str]
    body: str


def check_slug(slug: str) -> None:
    """Raise `ValueError` (one sentence) for a slug gbrain would refuse or store renamed."""
    segments = slug.split("/")
    if not slug or slug.startswith("/") or ".." in segments or "" in segments:
        raise ValueError(f"bad page name {slug!r} for gbrain: use a relative path like trails/x")
    if any(ord(ch) < 0x20 or 0x7F <= ord(ch) <= 0x9F for ch in slug) or _BIDI_OVERRIDES.search(
        slug
    ):
        raise ValueError(f"bad page name {slug!r} for gbrain: no control or bidi characters")
    if "\\" in slug or any(part in slug.lower() for part in _ENCODED_SEPARATORS):
        raise ValueError(
            f"bad page name {slug!r} for gbrain: no backslash or encoded '.', '/' or '\\'"
            " (%2e, %2f, %5c)"
        )
    if len(slug) > MAX_SLUG_LENGTH:
        raise ValueError(f"bad page name for gbrain: longer than {MAX_SLUG_LENGTH} characters")
    if slug != slug.lower():
        raise ValueError(f"gbrain lowercases page names: save as {slug.lower()!r}")


def with_idempotency_key(text: str, key: str) -> str:
    """`text` whose frontmatter holds `idempotency_key: key` (added when missing).

    Raises `ValueError` when the frontmatter is unreadable or holds another key:
    the caller composed the page, so that is a programming error.
    """
    if not key or "\n" in key:
        raise ValueError("an idempotency key must be one non-empty line")
    frontmatter, body, error = split_frontmatter(text)
    if error:
        raise ValueError(f"the page's frontmatter is not readable ({error})")
    stated = frontmatter.get(IDEMPOTENCY_KEY)
    if stated is not None:
        if str(stated) != key:
            raise ValueError(
                f"the page states idempotency_key {stated!r}, the save was given {key!r}"
            )
        return text
    line = f"{IDEMPOTENCY_KEY}: {json.dumps(key, ensure_ascii=False)}\n"
    if body is text:  # no frontmatter block at all
        return f"---\n{line}---\n{text}"
    head = text[: len(text) - len(body)]
    closing = head.rstrip("\r\n").rfind("\n") + 1  # where the closing `---` line starts
    return head[:closing] + line + head[closing:] + body


def expected_page(text: str) -> ExpectedPage:
    """What gbrain should store for `text` (raises `ValueError` for unreadable YAML)."""
    frontmatter, body, error = split_frontmatter(text)
    if error:
        raise ValueError(f"the page's frontmatter is not readable ({error})")
    kept = {
        str(key): stored_value(value)
        for key, value in frontmatter.items()
        if key not in _LIFTED_KEYS and key not in GATE_KEYS
    }
    return ExpectedPage(
        frontmatter=kept,
        type=_stated(frontmatter.get("type")),
        title=_stated(frontmatter.get("title")),
        tags=frozenset(_tags(frontmatter.get("tags"))),
        body=body,
    )


def difference(expected: ExpectedPage, stored: dict[str, Any]) -> str | None:
    """None when the `get_page` object `stored` holds `expected`, else what differs."""
    found = []
    if expected.type is not None and stored.get("type") != expected.type:
        found.append("type")
    if expected.title is not None and stored.get("title") != expected.title:
        found.append("title")
    tags = stored.get("tags")
    if not isinstance(tags, list) or {str(t) for t in tags} != expected.tags:
        found.append("tags")
    theirs = stored.get("frontmatter")
    theirs = (
        {k: v for k, v in theirs.items() if k not in GATE_KEYS}
        if isinstance(theirs, dict)
        else None
    )
    if theirs != expected.frontmatter:
        keys = sorted(set(theirs or {}) ^ set(expected.frontmatter)) or sorted(
            k for k, v in expected.frontmatter.items() if (theirs or {}).get(k) != v
        )
        found.append("frontmatter" + (f" ({', '.join(keys[:5])})" if keys else ""))
    compiled, timeline = stored.get("compiled_truth"), stored.get("timeline") or ""
    if not isinstance(compiled, str) or not isinstance(timeline, str):
        found.append("body (missing)")
    elif not body_matches(expected.body, compiled, timeline):
        found.append("body")
    return ", ".join(found) if found else None


def content_flag(stored: dict[str, Any]) -> str | None:
    """gbrain's own warning on a stored page (`markup_heavy`, `oversized`), if any."""
    frontmatter = stored.get("frontmatter")
    flag = frontmatter.get("content_flag") if isinstance(frontmatter, dict) else None
    if isinstance(flag, dict):
        return str(flag.get("reason") or "flagged")
    return None if flag is None else "flagged"


def body_matches(body: str, compiled_truth: str, timeline: str) -> bool:
    """True when gbrain's `compiled_truth` / `timeline` split is exactly `body`."""
    if not timeline:
        return compiled_truth == body.strip()
    lines, block = body.split("\n"), timeline.split("\n")
    size = len(block)
    for start in range(len(lines) - size + 1):
        window = lines[start : start + size]
        if not _same_block(window, block):
            continue
        before, probe = lines[:start], start
        while probe and not lines[probe - 1].strip():
            probe -= 1
        if probe and _SENTINEL.match(lines[probe - 1].strip()):
            before = lines[: probe - 1]  # the sentinel and the blank lines after it
        stops = [start + size]  # blank lines after the block may have been trimmed from it
        while stops[-1] < len(lines) and not lines[stops[-1]].strip():
            stops.append(stops[-1] + 1)
        if any("\n".join(before + lines[stop:]).strip() == compiled_truth for stop in stops):
            return True
    return False


def stored_value(value: Any) -> Any:
    """A YAML value as gbrain stores it in JSON (dates as js-yaml's `Date` serialises)."""
    if isinstance(value, datetime):
        moment = value.astimezone(UTC) if value.tzinfo else value.replace(tzinfo=UTC)
        return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"
    if isinstance(value, date):
        return f"{value.isoformat()}T00:00:00.000Z"
    if isinstance(value, dict):
        return {str(key): stored_value(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [stored_value(item) for item in value]
    return value


def _same_block(window: list[str], block: list[str]) -> bool:
    """Lines equal, except that the block's outer edges were trimmed."""
    if len(window) == 1:
        return window[0].strip() == block[0]
    return (
        window[0].lstrip() == block[0]
        and window[-1].rstrip() == block[-1]
        and window[1:-1] == block[1:-1]
    )


def _stated(value: Any) -> str | None:
    """A frontmatter `type` / `title` as gbrain reads it (a date as `YYYY-MM-DD`)."""
    if value is None:
        return None
    if isinstance(value, (date, datetime)):
        text = value.isoformat()[:10]
    elif isinstance(value, bool):
        text = "true" if value else "false"
    else:
        text = str(value)
    return text.strip() or None


def _tags(value: Any) -> list[str]:
    if isinstance(value, list):
        return [str(tag) for tag in value]
    if isinstance(value, str):
        return [tag.strip() for tag in value.split(",") if tag.strip()]
    return []
