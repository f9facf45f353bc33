"""A body's links and anchors: wiki-links made clickable, hrefs read back, headings
and block ids found.

Links. Wiki-links are not Markdown, so before rendering we rewrite them into ordinary
links with an `okf:` href that carries the raw target exactly as the core's
parser reports it, and the heading or block it points into as the fragment
(`[[t#h|alias]]` → `[alias](<okf:t#h>)`, `[[t#h]]` → `[t > h](<okf:t#h>)` as Obsidian
reads it, `[[#h]]` → `[h](<okf:#h>)`); the page
pane then resolves that target through the index. An embed becomes an image of
the same href (`![[t]]` → `![t](<okf:t>)`: the renderers show a page embed as a
preview), an embedded attachment an image of an `attachment:` name (`![[a.png|100]]` →
`![a.png](<attachment:a.png>)`: a placeholder with its name). Code fences and inline
code spans are left untouched, as are escaped brackets. Plain Markdown links keep
their href; the page pane treats any scheme-less href as a path target.

Anchors (`[[Page#Heading]]`, `[[Page#^block]]`). Obsidian matches a heading anchor
against the heading's text, ignoring case and the punctuation it cannot carry in a
link (`#`, `|`, `^`, `:`, `%`, brackets); `heading_key` is that comparison.
`section_of` cuts the part of a page an embed (`![[Page#Heading]]`,
`![[Page#^block]]`) shows, and `embedded_text` reads it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from urllib.parse import unquote

from okf_explorer.core.bases import BaseError, is_base_name, list_markdown, table_markdown
from okf_explorer.core.bases.dataview_query import DataviewQuery, QueryRefused, read_query
from okf_explorer.core.bases.dataview_tasks import tasks_markdown
from okf_explorer.core.bases.tasks_query import read_tasks_query
from okf_explorer.core.brain import Brain
from okf_explorer.core.errors import OkfError, PageNotFound
from okf_explorer.core.links.grammar import LinkKind, prose_ranges
from okf_explorer.core.links.spans import WikiSpan, wiki_link_spans, wiki_text
from okf_explorer.core.pages import heading_with_id, without_attributes
from okf_explorer.tui.markdown.dialects import dialect_fields, fields_filled

LINK_SCHEME = "okf:"
WRITTEN_BASE = f"{LINK_SCHEME}.base"
"""The href of a base written in the page (a ```` ```base ```` block: `parser`), whose
YAML its embed carries (`EmbedView.written`)."""
WRITTEN_QUERY = f"{LINK_SCHEME}.dataview"
"""The href of a Dataview query written in the page (a ```` ```dataview ```` block that
`core.bases.dataview_query` reads: `parser`), whose text its embed carries."""
QUERY_TARGET = ".dataview"
"""`WRITTEN_QUERY`'s target (`target_of_href`)."""
WRITTEN_TASKS = f"{LINK_SCHEME}.tasks"
"""The href of a Tasks plugin query written in the page (a ```` ```tasks ```` block that
`core.bases.tasks_query` reads: `parser`), whose text its embed carries."""
TASKS_TARGET = ".tasks"
"""`WRITTEN_TASKS`'s target (`target_of_href`)."""
WRITTEN_QUERIES = frozenset({WRITTEN_QUERY, WRITTEN_TASKS})
"""The hrefs of the queries written in a page: each shows its rows whole, as a base."""
TAG_SCHEME = "okf-tag:"
"""A tag's href (the body's `#tags`, the header's): following it lists the pages so tagged
(`search tag:x`)."""
FILE_SCHEME = "attachment:"
"""markdown-it refuses `file:` links: an attachment's placeholder uses this scheme."""

_MD_SPECIAL = re.compile(r"([\\\[\]*_`<>$~=%])")
"""What a label escapes: Markdown's marks and ours (`$` math, `==` highlight, `%%`)."""
_ESCAPED = re.compile(r"\\" + _MD_SPECIAL.pattern)
REWRITTEN_LINK = re.compile(
    r"(!?)\[((?:\\.|[^\\\[\]\n])*)\]"  # an embed's `!`, the label (its brackets escaped)
    rf"\(<((?:{re.escape(LINK_SCHEME)}|{re.escape(FILE_SCHEME)})[^<>\n]*)>\)"  # the href
)
"""A wiki-link as `linkify_body` writes it (`[label](<okf:target>)`, an attachment
`![name](<attachment:name>)`): its `!`, its label as written (`label_text` reads it), its
href. A try stops at the next unescaped `[`, so a line of them costs its length."""
_SIZE = re.compile(r"^\d+(x\d+)?$")
"""`![[a.png|100]]`, `![[a.png|100x80]]`, `![[a.png|center|500]]`: a display size, not a
caption."""
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")


def linkify_body(text: str) -> str:
    """The body with every wiki-link outside code turned into an `okf:` link.

    The links are the ones the core grammar finds (`core.links.spans`), so a link
    is clickable exactly when the index counts it. Obsidian block ids (` ^grain`)
    are left to the parser (`parser`), which hides them and keeps the anchor.
    """
    out: list[str] = []
    position = 0
    for span in wiki_link_spans(text):
        out.append(text[position : span.start])
        out.append(_rewrite(span))
        position = span.end
    out.append(text[position:])
    return "".join(out)


def _rewrite(span: WikiSpan) -> str:
    name, alias = split_wiki(span.inner)
    anchor = wiki_anchor(span.inner)
    fragment = f"#{_href_text(anchor)}" if anchor else ""
    if span.kind == "embed" and is_base_name(name):  # a base: drawn as its table (`embedded_text`)
        return f"![{_escape(alias or name)}](<{LINK_SCHEME}{_href_text(name)}{fragment}>)"
    if span.target is None:
        if span.kind == "embed" and name:  # an attachment: a placeholder with its name
            words = [w.strip() for w in (alias or "").split("|") if not _SIZE.match(w.strip())]
            caption = " ".join(["", *words]).rstrip()
            return f"![{_escape(name + caption)}](<{FILE_SCHEME}{_href_text(name)}>)"
        if not name and anchor:  # `[[#heading]]`: a heading of this page
            return f"[{_escape(alias or wiki_text(span.inner))}](<{LINK_SCHEME}{fragment}>)"
        return _escape(alias or span.inner)
    label = _escape(alias or wiki_text(span.inner))
    bang = "!" if span.kind == "embed" else ""
    return f"{bang}[{label}](<{LINK_SCHEME}{_href_text(span.target)}{fragment}>)"


def span_link(span: WikiSpan, written: str) -> tuple[str, str]:
    """(label, href) of a link the grammar found (`written` is its text as written), as
    the drawn body lists it (`l`): a wiki-link's `okf:` href with its anchor, an embed's
    label marked `↳`, a Markdown link's destination (a reference link's: the target its
    definition gives)."""
    if span.kind != "markdown":
        name, alias = split_wiki(span.inner)
        anchor = wiki_anchor(span.inner)
        fragment = f"#{anchor}" if anchor else ""
        label = alias or wiki_text(span.inner)
        if span.kind == "embed":
            return f"↳ {label}", f"{LINK_SCHEME}{span.target or name}{fragment}"
        return label, f"{LINK_SCHEME}{span.target or ''}{fragment}"
    found = _DESTINATION.search(written)
    destination = found.group(1).strip("<>") if found is not None else span.target or ""
    return span.inner.strip(), destination


_DESTINATION = re.compile(r"\]\(\s*(<[^<>\n]*>|[^\s()<>]*(?:\([^\s()<>]*\)[^\s()<>]*)*)")
"""A Markdown link's destination, after its text (`[text](dest "title")`)."""


def wiki_anchor(inner: str) -> str:
    """`target#heading|alias` → `heading`; `t#^block` → `^block`; none → ``."""
    body = inner.replace("\\|", "|").partition("|")[0]
    return body.partition("#")[2].strip()


def _href_text(text: str) -> str:
    """Text that can sit inside `<…>` as a link destination."""
    return text.replace("<", "%3C").replace(">", "%3E").replace("$", "%24").replace("\n", " ")


def split_wiki(inner: str) -> tuple[str, str | None]:
    """`target#heading|alias` → (`target`, `alias`); `\\|` is a table-escaped pipe."""
    inner = inner.replace("\\|", "|")
    body, _, alias = inner.partition("|")
    target = body.split("#", 1)[0].strip()
    return target, (alias.strip() or None)


def _escape(text: str) -> str:
    return _MD_SPECIAL.sub(r"\\\1", text)


def label_text(written: str) -> str:
    """A label as `linkify_body` wrote it (`REWRITTEN_LINK`), its escapes read."""
    return _ESCAPED.sub(r"\1", written)


def target_of_href(href: str) -> str | None:
    """The raw link target a clicked href stands for, or None for an external URL.

    `okf:t` → `t`; a scheme-less href (`order_items.md#grain`, `/tables/`) → the
    path without its anchor, as the core's parser reports it.
    """
    if href.startswith(LINK_SCHEME):
        # markdown-it percent-encodes hrefs (`[[Average Order Value]]` → `okf:Average%20...`)
        return unquote(href[len(LINK_SCHEME) :].partition("#")[0]).strip() or None
    if _SCHEME.match(href):
        return None
    return unquote(href.split("#", 1)[0]).strip() or None  # `a%20b.md` is the file `a b.md`


def anchor_of_href(href: str) -> str | None:
    """The heading or `^block` a link points into (`okf:t#Usage` → `Usage`), or None."""
    if _SCHEME.match(href) and not href.startswith(LINK_SCHEME):
        return None
    return unquote(href.partition("#")[2]).strip() or None


def kind_of_href(href: str) -> LinkKind:
    """How the link behind `href` was written: an `okf:` href is a wiki-link (or an
    embed: the same rules), anything else a Markdown link."""
    return "wiki" if href.startswith(LINK_SCHEME) else "markdown"


def anchor_into(
    links: list[tuple[str, str]],
    resolve: Callable[[str, LinkKind], tuple[str, bool] | None],
    slug: str,
) -> str | None:
    """The heading or block a page's body first links into on `slug` (`[[Page#Heading]]`),
    `resolve` giving a link target's (slug, exists)."""
    for _, href in links:
        anchor, target = anchor_of_href(href), target_of_href(href)
        found = resolve(target, kind_of_href(href)) if anchor and target else None
        if found is not None and found[0] == slug:
            return anchor
    return None


# ------------------------------------------------------------------------ anchors

_NOT_KEY = re.compile(r"[^\w]+")
_HEADING = re.compile(r"^(#{1,6})[ \t]+(.*?)[ \t#]*$", re.MULTILINE)


def heading_key(text: str) -> str:
    """`Usage & limits` and `usage-limits` compare equal: lowercase words joined by `-`."""
    return _NOT_KEY.sub("-", text.lower()).strip("-")


def heading_in_path(anchor: str, texts: Sequence[str]) -> int | None:
    """The index among `texts` (a page's headings, in order) of the heading `anchor`
    names, by its text as Obsidian matches it (`heading_key`); a path, `Setup#Linux`
    (`[[page#Setup#Linux]]`), names the first `Linux` after the first `Setup`. None
    when the page has none."""
    found, at = None, 0
    for part in anchor.split("#"):
        if not part.strip():
            continue
        key = heading_key(part)
        found = next((i for i in range(at, len(texts)) if heading_key(texts[i]) == key), None)
        if found is None:
            return None
        at = found + 1
    return found


def heading_named(anchor: str, texts: Sequence[str], markdown: str) -> int | None:
    """The index among `texts` (the headings of `markdown`, in order) of the heading
    `anchor` names: by its text (`heading_in_path`), else by the id its attribute block
    gives it (`## Open it {#open-it}`, as docs copied from MkDocs or Hugo link to it).
    None when the page has none."""
    found = heading_in_path(anchor, texts)
    if found is not None or not (text := heading_with_id(markdown, anchor)):
        return found
    key = heading_key(text)
    return next((index for index, shown in enumerate(texts) if heading_key(shown) == key), None)


def is_block_anchor(anchor: str) -> bool:
    return anchor.startswith("^")


def section_of(markdown: str, anchor: str | None) -> str | None:
    """The text `anchor` names in `markdown`: the whole text (no anchor), a heading
    and what follows it up to the next heading of the same or a higher level, or the
    paragraph (or list item) ending in ` ^block`. None when it is not there."""
    if not anchor:
        return markdown
    if is_block_anchor(anchor):
        return _block(markdown, anchor[1:])
    headings = _headings(markdown)
    position = heading_named(anchor, [text for _, _, text in headings], markdown)
    if position is None:
        return None
    start, level, _ = headings[position]
    end = next(
        (later for later, deeper, _ in headings[position + 1 :] if deeper <= level),
        len(markdown),
    )
    return markdown[start:end].rstrip()


def dendron_section(markdown: str, anchor: str) -> str | None:
    """The text a Dendron note reference's `anchor` names in `markdown`, as Dendron reads
    it (its docs' "Note References" page; Dendron's own docs embed 514 such ranges):
    `start:#end`, each end a heading (by its text or slug), a block (`^id`), or `*` (the
    next heading, as an end); `^begin` (the text before the first heading) and `^end`
    (the note's end, as an end); a heading's `,N` skips its first N lines (`,1`: the
    heading itself). An end heading or block is taken in; `*` is not. Any other anchor as
    `section_of` reads it. None when a part is not there."""
    start, _, end = anchor.partition(":#")
    name, comma, offset = start.partition(",")
    if not end and not comma and name != "^begin":
        return section_of(markdown, anchor)
    if comma and not (offset.isdigit() and len(offset) <= 6):
        return None
    headings = _headings(markdown)
    texts = [text for _, _, text in headings]
    if name == "^begin":
        first = 0
        stop = headings[0][0] if headings else len(markdown)
    elif is_block_anchor(name):
        block = _block(markdown, name[1:])
        if block is None or (first := markdown.find(block)) < 0:
            return None
        stop = first + len(block)
    else:
        position = _dendron_heading(name, texts, markdown)
        if position is None:
            return None
        first, level, _ = headings[position]
        later = (at for at, deeper, _ in headings[position + 1 :] if deeper <= level)
        stop = next(later, len(markdown))
    if end == "*":
        after = [at for at, _, _ in headings if at > first]
        stop = after[0] if after else len(markdown)
    elif end == "^end":
        stop = len(markdown)
    elif is_block_anchor(end):
        block = _block(markdown, end[1:])
        if block is None or (at := markdown.find(block, first)) < 0:
            return None
        stop = at + len(block)
    elif end:
        last = _dendron_heading(end, texts, markdown)
        if last is None or headings[last][0] < first:
            return None
        line_end = markdown.find("\n", headings[last][0])
        stop = len(markdown) if line_end < 0 else line_end
    text = markdown[first:stop]
    if comma:
        text = "\n".join(text.split("\n")[int(offset) :])
    return text.strip("\n").rstrip()


def _dendron_heading(name: str, texts: Sequence[str], markdown: str) -> int | None:
    """`heading_named`, else the heading whose GitHub slug is `name`, as Dendron names a
    heading (`### Header 2.2` is `header-22`)."""
    found = heading_named(name, texts, markdown)
    if found is None:
        slugs = [_GITHUB_DROPPED.sub("", text.lower()).replace(" ", "-") for text in texts]
        found = next((index for index, slug in enumerate(slugs) if slug == name.lower()), None)
    return found


_GITHUB_DROPPED = re.compile(r"[^\w\- ]")
"""What a GitHub heading slug leaves out of the heading's text (punctuation, symbols)."""


def _headings(markdown: str) -> list[tuple[int, int, str]]:
    """(offset, level, text) of each ATX heading outside code."""
    found: list[tuple[int, int, str]] = []
    for start, end in prose_ranges(markdown):
        for match in _HEADING.finditer(markdown, start, end):
            found.append((match.start(), len(match.group(1)), without_attributes(match.group(2))))
    return found


def _block(markdown: str, block_id: str) -> str | None:
    pattern = re.compile(rf"(?:^|[ \t]+)\^{re.escape(block_id)}[ \t]*$", re.MULTILINE)
    match = pattern.search(markdown)
    if match is None:
        return None
    start = markdown.rfind("\n\n", 0, match.start())
    text = markdown[start + 2 if start >= 0 else 0 : match.start()].strip()
    if not text:  # `^id` on a line of its own: the block before it
        before = markdown[: max(0, start)].rstrip()
        text = before[before.rfind("\n\n") + 2 if "\n\n" in before else 0 :]
    lines = text.splitlines()
    if lines and lines[-1].lstrip().startswith(("- ", "* ", "+ ")):
        text = lines[-1]  # a list item: just that item
    return text


WAITING_FOR_INDEX = "waiting for the index…"
"""What an embed says while its page can only be found once the index is built."""


def embedded_text(
    brain: Brain,
    from_slug: str | None,
    target: str,
    anchor: str | None,
    written: str | None = None,
) -> tuple[str | None, str]:
    """What an embed of `target` (section `anchor`) on page `from_slug` shows, or None
    and why not. Blocking (reads the page): run it in a thread. Resolves through the
    index when it is built; before that only an exact slug is found. The text refers to
    the embedded page's fields as that page does (`dialect_fields`): a Dataview query of
    its own field shows its value, as Dataview renders an embed with the embedded file.
    A base (`Books.base`, or one `written` in the page) shows its view's table, a Dataview
    query `written` in the page its list or table, a Tasks query its tasks (the vault's
    Tasks global filter read for it)."""
    if written is not None and target == QUERY_TARGET:
        return _query_text(brain, from_slug, written, read_query)
    if written is not None and target == TASKS_TARGET:
        global_filter = brain.tasks_global_filter()
        return _query_text(
            brain, from_slug, written, lambda text: read_tasks_query(text, global_filter)
        )
    if is_base_name(target):
        return _base_text(brain, from_slug, target, anchor, written)
    slug: str | None = target
    if brain.index is not None and from_slug is not None:
        resolution = brain.resolve_link(from_slug, target, "wiki")
        slug = resolution.slug if resolution.exists else None
    if slug is None:
        return None, f"✗ no page {target}"
    try:
        page = brain.page(slug)
    except PageNotFound:
        return None, f"✗ no page {target}" if brain.index is not None else WAITING_FOR_INDEX
    except OkfError as error:
        return None, f"✗ {error}"
    markup = brain.markup()
    if markup == "dendron" and anchor:
        section = dendron_section(page.content, anchor)
    else:
        section = section_of(page.content, anchor)
    if section is None:
        return None, f"✗ no section {anchor} in {slug}"
    if (fields := dialect_fields(page.frontmatter, page.content, markup)) is not None:
        section = fields_filled(section, markup, fields, slug)  # the embedded page's own
    return section, ""


def _query_text(
    brain: Brain, from_slug: str | None, written: str, read: Callable[[str], DataviewQuery]
) -> tuple[str | None, str]:
    """A query's list or table of the pages it keeps, or its tasks, as Markdown: a
    Dataview query (`core.bases.dataview_query`) or a Tasks one (`core.bases.tasks_query`),
    as `read` reads it; or None and why not. Waits for the index, as a base."""
    if brain.index is None or from_slug is None:
        return None, WAITING_FOR_INDEX
    try:
        query = read(written)
        table = brain.dataview_table(from_slug, query)
    except (QueryRefused, BaseError, OkfError) as error:
        return None, f"✗ {error}"
    names = {slug: info.title for slug, info in brain.index.pages.items()}
    if query.tasks is not None:
        return tasks_markdown(table, names), ""
    if query.listed:
        return list_markdown(table, names, query.without_id), ""
    return table_markdown(table, names), ""


def _base_text(
    brain: Brain, from_slug: str | None, name: str, view: str | None, written: str | None
) -> tuple[str | None, str]:
    """A base's view as a Markdown table of the pages it keeps (`core.bases`), or None and
    why not. Waits for the index (a base reads every page's properties)."""
    if brain.index is None or from_slug is None:
        return None, WAITING_FOR_INDEX
    try:
        table = brain.base_table(from_slug, name, view, written=written)
    except (BaseError, OkfError) as error:
        return None, f"✗ {error}"
    names = {slug: info.title for slug, info in brain.index.pages.items()}
    return table_markdown(table, names), ""
