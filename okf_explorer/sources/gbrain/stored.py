"""What gbrain stores of a page we `put_page`, and whether a `get_page` reply holds it.

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
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from okf_explorer.sources.frontmatter import split_frontmatter

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
