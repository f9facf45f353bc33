"""Decoding gbrain tool replies (GBRAIN_PROTOCOL.md §3-§5) into our types and errors.

Pure functions: no I/O, so the fault-injection tests and the source share them.

- The payload of a `tools/call` is `result.content[0].text`, a JSON string; a server
  built on the official SDK may send `structuredContent` instead.
- Errors come as `isError: true` with a JSON `{"error": code, ...}` text, or as such
  an object *without* `isError` (gbrain's `ambiguous_slug`): both are typed —
  `page_not_found` / `ambiguous_slug` → `PageNotFound`, `invalid_params` →
  `InvalidParams`, scope or token codes → `AuthError`, anything else → `ProtocolError`.
- A page's body is `content` without its YAML frontmatter (and the blank lines gbrain
  puts after it) when the server sends `content`, else `compiled_truth` and
  `timeline` joined by a blank line: gbrain splits the body, and a client reading
  `content` alone would see every page as empty.
- The joined body holds the same links as the page, but cutting the `## Timeline`
  section out moves whatever followed it in front of it; `split_is_exact` says when
  that cannot change the order in which links first appear (SPEC §3 forward-link
  order), so a scan can skip `content` (and the server its YAML dump) for most pages.
- Graph rows (§4): each `get_links` / `get_backlinks` row (`plain_rows`) and each
  one-hop `traverse_graph` row of either shape (`link_rows`: the *node* form
  `{slug, depth, links: [{to_slug, link_type}]}`, the *edge* form `{from_slug, to_slug,
  link_type, context, depth}`, rows possibly carrying a `direction`: from gbrain 0.48.1
  a remote caller that names no direction gets edges of both, so only the edges that
  leave, or reach, the page one hop away count) is a `ServerLink` carrying the row's
  `link_type` as its relation (gbrain's generic `mentions` and its `wikilink_basename`,
  or none, are `links`; any other type passes through), and its `link_source` and
  `context` when the row has them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Literal

from okf_explorer.core.errors import (
    AuthError,
    InvalidParams,
    PageNotFound,
    PageUnreadable,
    ProtocolError,
)
from okf_explorer.core.links import extract_links
from okf_explorer.core.okf.meta import summary as okf_summary
from okf_explorer.core.pages import Page, PageInfo, is_reserved
from okf_explorer.core.port import PageStub, ServerLink, WantedTarget
from okf_explorer.sources.frontmatter import split_frontmatter
from okf_explorer.sources.gbrain.http import decode

_LEADING_BLANK_LINES = re.compile(r"\A(?:[ \t]*\r?\n)+")
_AUTH_CODES = frozenset({"insufficient_scope", "invalid_token", "unauthorized", "forbidden"})


@dataclass(frozen=True)
class ToolDecoder:
    """Turns `tools/call` results into payloads or typed errors for one server.

    `label` is the URL without credentials, `token_source` where the token came
    from, `scrub` removes secrets from any server text we repeat.
    """

    label: str
    token_source: str
    scrub: Callable[[str], str]

    def payload(self, name: str, arguments: dict[str, Any], result: Any) -> Any:
        """The decoded JSON payload, or raises the typed error the reply describes."""
        if not isinstance(result, dict):
            raise ProtocolError(f"{self.label} answered {name} with something unexpected")
        text = _first_text(result)
        is_error = bool(result.get("isError"))
        if text is None:
            if "structuredContent" in result and not is_error:
                return _unwrap_structured(result["structuredContent"])
            raise ProtocolError(f"{self.label} answered {name} without any content")
        try:
            payload = decode(text, self.label)
        except ValueError:
            if is_error:
                raise ProtocolError(f"{self.label} failed {name}: {self.scrub(text)}") from None
            raise ProtocolError(f"{self.label} answered {name} with invalid JSON") from None
        if isinstance(payload, dict) and isinstance(payload.get("error"), str):
            raise self.error(name, arguments, payload)
        if is_error:
            raise ProtocolError(f"{self.label} failed {name}: {self.scrub(text)}")
        return payload

    def error(self, name: str, arguments: dict[str, Any], payload: dict[str, Any]) -> Exception:
        code = payload["error"]
        message = self.scrub(str(payload.get("message") or code))
        slug = str(arguments.get("slug", ""))
        if code == "page_not_found":
            return PageNotFound(slug)
        if code == "ambiguous_slug":
            candidates = [str(c) for c in payload.get("candidates") or []][:5]
            detail = "ambiguous" + (f"; candidates: {', '.join(candidates)}" if candidates else "")
            return PageNotFound(slug, detail)
        if code == "invalid_params":
            return InvalidParams(f"{self.label} rejected the arguments of {name}: {message}")
        if code in _AUTH_CODES:
            return AuthError(
                f"{self.label} refused {name} for the token from {self.token_source}: {message}"
            )
        if code == "page_unreadable":
            # Our server's word for one page it cannot read: a page-level failure, so a
            # scan marks it unreadable and goes on, as a folder scan does with bad bytes.
            # (gbrain's `internal_error` stays a ProtocolError: a broken database must
            # not look like a brain of unreadable pages.)
            reason = payload.get("reason")
            reason = self.scrub(reason) if isinstance(reason, str) else None
            return PageUnreadable(slug, _unreadable_reason(slug, reason, message))
        if code == "unknown_operation":
            return ProtocolError(f"{self.label} has no tool {name!r}")
        return ProtocolError(f"{self.label} failed {name}: {code}: {message}")

    def page(self, requested: str, result: Any) -> Page:
        """The `Page` of one `get_page` result (raises `PageNotFound` etc.)."""
        return page_of(self.page_payload(requested, result), requested)

    def page_payload(self, requested: str, result: Any) -> dict[str, Any]:
        """The decoded `get_page` object of one result (raises `PageNotFound` etc.)."""
        payload = self.payload("get_page", {"slug": requested}, result)
        if not isinstance(payload, dict):
            raise ProtocolError(f"{self.label} answered get_page with something unexpected")
        return payload


def page_of(payload: dict[str, Any], requested: str) -> Page:
    """A `Page` from a gbrain `get_page` object (see the module docstring for the body)."""
    slug = payload["slug"] if isinstance(payload.get("slug"), str) else requested
    frontmatter = payload.get("frontmatter")
    content = payload.get("content")
    if isinstance(content, str):
        _, body, _ = split_frontmatter(content)
        if body is not content:
            body = _LEADING_BLANK_LINES.sub("", body)
    else:
        parts = (payload.get("compiled_truth"), payload.get("timeline"))
        body = "\n\n".join(p for p in parts if isinstance(p, str) and p)
    tags = payload.get("tags")
    updated_at = text_or_none(payload.get("updated_at"))
    frontmatter = dict(frontmatter) if isinstance(frontmatter, dict) else {}
    status, trust, stale_after = okf_summary(frontmatter)
    return Page(
        slug=slug,
        title=text_or_none(payload.get("title")) or slug.rsplit("/", 1)[-1],
        title_stated=text_or_none(payload.get("title")) is not None,
        content=body,
        type=text_or_none(payload.get("type")),
        tags=tuple(str(t) for t in tags) if isinstance(tags, list) else (),
        frontmatter=frontmatter,
        updated_at=updated_at,
        reserved=is_reserved(slug),
        fingerprint=updated_at or text_or_none(payload.get("content_hash")) or "",
        okf_status=status,
        okf_trust=trust,
        okf_stale_after=stale_after,
    )


def split_is_exact(payload: dict[str, Any]) -> bool:
    """True when `page_of` gives the page's links in the page's own first-appearance order.

    Always with `content`. Without it the body is `compiled_truth` + `timeline`, and
    text that followed the timeline now precedes it: the order can only change when
    the timeline holds a link and the rest of the page does too. The timeline is
    short, so it is parsed; the rest is only searched for a bracket. A reply with
    no body field at all (a server that sends the body only as `content`) is not
    exact either: asking again with `content` is what gets its links.
    """
    if isinstance(payload.get("content"), str):
        return True
    timeline, truth = payload.get("timeline"), payload.get("compiled_truth")
    if not isinstance(timeline, str) and not isinstance(truth, str):
        return False
    if not isinstance(timeline, str) or not isinstance(truth, str) or "[" not in truth:
        return True
    return "[" not in timeline or not extract_links(timeline)


def stub_of(row: Any, unversioned: str) -> PageStub | None:
    """A listing entry from a `list_pages` row (None for a row without a slug).

    The fingerprint is `updated_at`; without one it is `unversioned`, a value unique
    to this listing, so such pages are rescanned rather than served stale. gbrain's
    rows carry no tags: then `tags_known` is False (a server that sends a `tags`
    list is believed).
    """
    if not isinstance(row, dict) or not isinstance(row.get("slug"), str) or not row["slug"]:
        return None
    slug = row["slug"]
    updated_at = text_or_none(row.get("updated_at"))
    fingerprint = updated_at or unversioned
    tags = row.get("tags")
    info = PageInfo(
        slug=slug,
        title=text_or_none(row.get("title")) or slug.rsplit("/", 1)[-1],
        title_stated=text_or_none(row.get("title")) is not None,
        type=text_or_none(row.get("type")),
        updated_at=updated_at,
        reserved=is_reserved(slug),
        fingerprint=fingerprint,
        tags=tuple(str(t) for t in tags) if isinstance(tags, list) else (),
        tags_known=isinstance(tags, list),
    )
    return PageStub(slug, fingerprint, info)


def _unreadable_reason(slug: str, reason: str | None, message: str) -> str:
    """Why a page is unreadable, without the `page '…' is unreadable:` lead-in that
    `PageUnreadable` adds itself: our server's `reason`, else the message with any
    such lead-in cut (a server that sends only `message`)."""
    if reason and reason.strip():
        return reason
    lead_in = str(PageUnreadable(slug, ""))
    return (
        message[len(lead_in) :] if message.startswith(lead_in) and message != lead_in else message
    )


def text_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _first_text(result: dict[str, Any]) -> str | None:
    content = result.get("content")
    if not isinstance(content, list):
        return None
    for item in content:
        if isinstance(item, dict) and item.get("type") == "text":
            text = item.get("text")
            if isinstance(text, str):
                return text
    return None


def _unwrap_structured(value: Any) -> Any:
    """The official SDK wraps a non-object tool output as `{"result": value}`."""
    if isinstance(value, dict) and set(value) == {"result"}:
        return value["result"]
    return value


# -- graph rows ------------------------------------------------------------------

Side = Literal["out", "in"]

PLAIN_TYPES = frozenset({"mentions", "wikilink_basename"})
"""gbrain's link types that state no relation: its generic `mentions`, and
`wikilink_basename` (a body `[[name]]` it resolved by file name)."""


def wanted_of(row: Any) -> WantedTarget | None:
    """One `wanted_pages` row as a `WantedTarget` (link types as our relations), or
    None for a row without a target."""
    if not isinstance(row, dict) or not isinstance(row.get("target"), str):
        return None
    count = row.get("referenced_by")

    def slugs(key: str) -> tuple[str, ...]:
        items = row.get(key)
        if not isinstance(items, list):
            return ()
        return tuple(
            i["slug"] for i in items if isinstance(i, dict) and isinstance(i.get("slug"), str)
        )

    types = row.get("link_types")
    rels = sorted({relation_of_type(t) for t in types}) if isinstance(types, list) else []
    times = [
        row.get(key) if isinstance(row.get(key), str) else None
        for key in ("first_seen", "last_checked")
    ]
    return WantedTarget(
        row["target"],
        count if isinstance(count, int) and not isinstance(count, bool) else 0,
        slugs("sample_origins"),
        tuple(rels),
        slugs("existing_matches"),
        *times,
    )


def relation_of_type(link_type: object) -> str:
    """Our relation for a server's `link_type`: a type in `PLAIN_TYPES` (or no type) is a
    plain link, `links`; any other type passes through."""
    if not isinstance(link_type, str) or not link_type.strip() or link_type in PLAIN_TYPES:
        return "links"
    return link_type


def plain_rows(rows: Iterable[Any], side: Side) -> Iterable[ServerLink]:
    """`get_links` / `get_backlinks` rows: the page at the other end of each."""
    key = "to_slug" if side == "out" else "from_slug"
    for row in rows:
        if isinstance(row, dict) and (link := _link(row, row.get(key))) is not None:
            yield link


def link_rows(rows: Iterable[Any], slug: str, side: Side) -> list[ServerLink]:
    """The one-hop neighbours of `slug` on `side` in a `traverse_graph` reply of any
    shape: node rows (the start node's `links`, outgoing only) or edge rows (those
    leaving `slug` for `out`, reaching it for `in`; a row's own `direction`, when it
    has one, must agree; rows deeper than one hop are skipped)."""
    found: list[ServerLink] = []
    for row in rows:
        if not isinstance(row, dict):
            continue
        if isinstance(row.get("links"), list):  # node form
            if side == "out" and row.get("slug") == slug and row.get("depth", 0) in (0, None):
                found.extend(
                    link
                    for item in row["links"]
                    if isinstance(item, dict)
                    if (link := _link(item, item.get("to_slug"))) is not None
                )
            continue
        if row.get("depth", 1) not in (1, None):
            continue
        direction = row.get("direction")
        if isinstance(direction, str) and direction in ("in", "out") and direction != side:
            continue
        near, far = ("from_slug", "to_slug") if side == "out" else ("to_slug", "from_slug")
        if row.get(near) == slug and (link := _link(row, row.get(far))) is not None:
            found.append(link)
    return found


def _link(row: dict[str, Any], other: object) -> ServerLink | None:
    if not isinstance(other, str) or not other:
        return None
    return ServerLink(
        other,
        relation_of_type(row.get("link_type")),
        text_or_none(row.get("link_source")),
        text_or_none(row.get("context")),
    )
