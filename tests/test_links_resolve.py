"""Link resolution (SPEC §3): every rule, in order, and the dangling node ids."""

from __future__ import annotations

import pytest

from okf_explorer.core.links import Resolution, SlugResolver, resolve, slugify

SLUGS = [
    "index",
    "log",
    "tables/index",
    "tables/orders",
    "tables/customers",
    "tables/sub/line-items",
    "notes/my-draft-note",
    "notes/Mixed Case",
    "people/alice",
    "archive/2023/orders",
    "guide",
    "a/dup",
    "b/dup",
    "x/y/dup",
    "docs/index",
    "docs/README",
    "setup/README",
    "setup/install",
    "Guides/readme",
]
TITLES = {"people/alice": "Alice Liddell", "guide": "The  User Guide"}


@pytest.fixture(scope="module")
def resolver() -> SlugResolver:
    return SlugResolver(SLUGS, TITLES)


@pytest.mark.parametrize(
    ("target", "from_slug", "expected"),
    [
        # leading `/` is the bundle root
        ("/tables/orders.md", "people/alice", Resolution("tables/orders", "path")),
        ("/guide.md", "tables/sub/line-items", Resolution("guide", "path")),
        # relative to the linking page's folder
        ("orders.md", "tables/customers", Resolution("tables/orders", "path")),
        ("./orders.md", "tables/customers", Resolution("tables/orders", "path")),
        ("../orders.md", "tables/sub/line-items", Resolution("tables/orders", "path")),
        ("sub/line-items.md", "tables/index", Resolution("tables/sub/line-items", "path")),
        ("../../guide.md", "tables/sub/line-items", Resolution("guide", "path")),
        ("./sub/../orders.md", "tables/index", Resolution("tables/orders", "path")),
        # case-insensitive path
        ("/Tables/ORDERS.md", "guide", Resolution("tables/orders", "path")),
        ("/notes/mixed case.md", "guide", Resolution("notes/Mixed Case", "path")),
        # folders resolve to their index page
        ("/tables/", "guide", Resolution("tables/index", "folder-index")),
        ("./", "tables/orders", Resolution("tables/index", "folder-index")),
        ("../", "tables/sub/line-items", Resolution("tables/index", "folder-index")),
        ("/", "tables/orders", Resolution("index", "folder-index")),
        ("..", "docs/index", Resolution("index", "folder-index")),
        ("/DOCS/", "guide", Resolution("docs/index", "folder-index")),
        # without an index, a folder's README (as GitHub shows a folder); the index wins
        ("./setup/", "guide", Resolution("setup/README", "folder-index")),
        ("./", "setup/install", Resolution("setup/README", "folder-index")),
        ("/guides/", "guide", Resolution("Guides/readme", "folder-index")),
        ("/docs/", "setup/install", Resolution("docs/index", "folder-index")),
        ("/people/", "guide", Resolution("people/index", "dangling")),
    ],
)
def test_path_rules(
    resolver: SlugResolver, target: str, from_slug: str, expected: Resolution
) -> None:
    assert resolver.resolve(target, from_slug, "markdown") == expected


@pytest.mark.parametrize(
    ("target", "from_slug", "node"),
    [
        ("/missing.md", "tables/orders", "missing"),
        ("./missing.md", "tables/orders", "tables/missing"),
        ("../missing.md", "tables/sub/line-items", "tables/missing"),
        ("../../x.md", "tables/orders", "../x"),
        ("../../../x.md", "tables/orders", "../../x"),
        ("/people/", "guide", "people/index"),
        ("/nowhere/", "guide", "nowhere/index"),
        ("/orders.md", "tables/customers", "orders"),
    ],
)
def test_path_dangling_nodes(
    resolver: SlugResolver, target: str, from_slug: str, node: str
) -> None:
    assert resolver.resolve(target, from_slug, "markdown") == Resolution(node, "dangling")


def test_bare_markdown_path_falls_back_to_wiki_rules(resolver: SlugResolver) -> None:
    # Obsidian writes vault-root paths without a leading slash.
    assert resolver.resolve("tables/orders.md", "people/alice", "markdown") == Resolution(
        "tables/orders", "exact"
    )
    assert resolver.resolve("alice.md", "guide", "markdown") == Resolution(
        "people/alice", "basename"
    )


def test_failed_bare_markdown_path_stays_a_relative_dangling_node(resolver: SlugResolver) -> None:
    assert resolver.resolve("nope.md", "tables/orders", "markdown") == Resolution(
        "tables/nope", "dangling"
    )


def test_explicit_relative_path_never_falls_back(resolver: SlugResolver) -> None:
    assert resolver.resolve("./alice.md", "guide", "markdown") == Resolution("alice", "dangling")


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("tables/orders", Resolution("tables/orders", "exact")),
        ("tables/orders.md", Resolution("tables/orders", "exact")),
        ("  guide  ", Resolution("guide", "exact")),
        ("Tables/Orders", Resolution("tables/orders", "case")),
        ("notes/mixed case", Resolution("notes/Mixed Case", "case")),
        ("Notes/My Draft Note", Resolution("notes/my-draft-note", "slugified")),
        ("My Draft Note", Resolution("My Draft Note", "dangling")),  # slugified is whole slugs
        ("alice liddell", Resolution("people/alice", "title")),
        ("The User   Guide", Resolution("guide", "title")),
        ("alice", Resolution("people/alice", "basename")),
        ("Alice", Resolution("people/alice", "basename")),
        ("line-items", Resolution("tables/sub/line-items", "basename")),
        ("sub/line-items", Resolution("tables/sub/line-items", "suffix")),
        ("SUB/Line-Items", Resolution("tables/sub/line-items", "suffix")),
        ("Line Items", Resolution("Line Items", "dangling")),
        ("/tables/orders", Resolution("tables/orders", "path")),
        ("/tables", Resolution("tables/index", "folder-index")),
        ("tables/", Resolution("tables/index", "folder-index")),
    ],
)
def test_wiki_rules(resolver: SlugResolver, target: str, expected: Resolution) -> None:
    assert resolver.resolve(target, "people/alice", "wiki") == expected


def test_exact_beats_basename(resolver: SlugResolver) -> None:
    # `guide` exists at the root; a basename match elsewhere must not win.
    r = SlugResolver(["guide", "docs/guide"])
    assert r.resolve("guide", "docs/x") == Resolution("guide", "exact")


def test_case_beats_slugified_and_title() -> None:
    r = SlugResolver(["My Note", "my-note", "other"], {"other": "my note"})
    assert r.resolve("my note", "x") == Resolution("My Note", "case")


def test_slugified_beats_title() -> None:
    r = SlugResolver(["my-note", "other"], {"other": "My Note"})
    assert r.resolve("My Note", "x") == Resolution("my-note", "slugified")


def test_basename_beats_alias_and_title() -> None:
    r = SlugResolver(["a/topic", "b/page", "c/other"], {"b/page": "Topic"}, {"c/other": ["topic"]})
    assert r.resolve("topic", "x") == Resolution("a/topic", "basename")
    assert r.resolve("b/page", "x").rule == "exact"


def test_alias_beats_title() -> None:
    r = SlugResolver(["a", "b"], {"b": "Nick"}, {"a": ["nick", "other"]})
    assert r.resolve("NICK", "x") == Resolution("a", "alias")
    assert r.resolve("Other.md", "x") == Resolution("a", "alias")


def test_ambiguous_basename_prefers_shortest_then_smallest(resolver: SlugResolver) -> None:
    assert resolver.resolve("dup", "guide") == Resolution(
        "a/dup", "basename", ("a/dup", "b/dup", "x/y/dup")
    )
    assert resolver.resolve("orders", "guide") == Resolution(
        "tables/orders", "basename", ("tables/orders", "archive/2023/orders")
    )
    r = SlugResolver(["zz/deep/dup", "yy/dup", "xx/q/dup"])
    assert r.resolve("dup", "p") == Resolution(
        "yy/dup", "basename", ("yy/dup", "xx/q/dup", "zz/deep/dup")
    )


def test_ambiguous_basename_prefers_the_linking_pages_folder(resolver: SlugResolver) -> None:
    assert resolver.resolve("dup", "b/page") == Resolution(
        "b/dup", "basename", ("b/dup", "a/dup", "x/y/dup")
    )
    assert resolver.resolve("dup", "x/y/z").node == "x/y/dup"
    assert resolver.resolve("dup", "x/other").node == "a/dup"  # not the folder: fewest folders


def test_unique_basename_is_not_ambiguous(resolver: SlugResolver) -> None:
    assert not resolver.resolve("customers", "guide").ambiguous


@pytest.mark.parametrize(
    ("target", "node"),
    [
        ("Missing Page", "Missing Page"),
        ("  Missing Page  ", "Missing Page"),
        ("missing.md", "missing"),
        ("folder/Missing", "folder/Missing"),
    ],
)
def test_wiki_dangling_node_is_target_as_written(
    resolver: SlugResolver, target: str, node: str
) -> None:
    result = resolver.resolve(target, "guide", "wiki")
    assert result == Resolution(node, "dangling")
    assert not result.exists and result.slug is None


def test_resolution_properties() -> None:
    assert Resolution("a", "exact").slug == "a"
    assert Resolution("a", "exact").exists
    assert Resolution("a", "dangling").slug is None


def test_resolver_ignores_titles_of_unknown_pages_and_blank_titles() -> None:
    r = SlugResolver(["a"], {"ghost": "Ghost", "a": "   "})
    assert r.resolve("Ghost", "a") == Resolution("Ghost", "dangling")


def test_empty_resolver_dangles_everything() -> None:
    r = SlugResolver([])
    assert r.resolve("x", "y") == Resolution("x", "dangling")
    assert r.resolve("/t/", "y", "markdown") == Resolution("t/index", "dangling")


@pytest.mark.parametrize(
    ("target", "from_slug", "expected"),
    [
        ("tables/orders", "guide", "tables/orders"),
        ("/tables/orders.md", "guide", "tables/orders"),
        ("../orders.md", "tables/sub/line-items", "tables/orders"),
        ("/tables/", "guide", "tables/index"),
        ("Notes/My Draft Note", "guide", "notes/my-draft-note"),
        ("alice.md", "guide", "people/alice"),  # a wiki target may carry `.md`
        ("nothing", "guide", None),
        ("/nothing.md", "guide", None),
    ],
)
def test_module_resolve(target: str, from_slug: str, expected: str | None) -> None:
    assert resolve(target, from_slug, SLUGS) == expected


@pytest.mark.parametrize(
    ("text", "slug"),
    [
        ("notes/My Draft Note", "notes/my-draft-note"),
        ("Café Über", "cafe-uber"),
        ("  Hello,   World!  ", "hello-world"),
        ("a -- b", "a-b"),
        ("snake_case keep", "snake_case-keep"),
        ("v1.2 release", "v1.2-release"),
        ("devbox.json", "devbox.json"),
        ("already-a-slug/x_y", "already-a-slug/x_y"),
        ("a//b", "a/b"),
        ("Tab\tand\nnewline", "tab-and-newline"),
        ("日本語 ノート", "日本語-ノート"),
        ("-edge-", "edge"),
        ("ﬁle", "file"),
        ("", ""),
    ],
)
def test_slugify(text: str, slug: str) -> None:
    assert slugify(text) == slug


def test_slugify_is_idempotent() -> None:
    for text in ["Notes/My Draft Note", "Ça va? Très bien!", "x--y/ z "]:
        assert slugify(slugify(text)) == slugify(text)


@pytest.mark.parametrize(
    ("target", "from_slug", "expected"),
    [
        ("./orders", "tables/customers", Resolution("tables/orders", "path")),
        ("../guide", "tables/orders", Resolution("guide", "path")),
        ("sub/", "tables/orders", Resolution("tables/sub/index", "dangling")),
        ("docs/", "tables/orders", Resolution("docs/index", "folder-index")),
        ("./Missing", "tables/orders", Resolution("tables/Missing", "dangling")),
    ],
)
def test_wiki_targets_that_are_paths(
    resolver: SlugResolver, target: str, from_slug: str, expected: Resolution
) -> None:
    # A bare folder (`docs/`) is tried relative to the page, then from the root.
    assert resolver.resolve(target, from_slug, "wiki") == expected


def test_embed_kind_uses_wiki_rules(resolver: SlugResolver) -> None:
    assert resolver.resolve("alice", "guide", "embed") == Resolution("people/alice", "basename")


def test_shared_title_goes_to_the_first_slug() -> None:
    r = SlugResolver(["b/two", "a/one"], {"b/two": "Same", "a/one": "same"})
    assert r.resolve("SAME", "x") == Resolution("a/one", "title", ("a/one", "b/two"))


def test_case_collision_goes_to_the_first_slug_in_code_point_order() -> None:
    r = SlugResolver(["notes/readme", "notes/README"])
    assert r.resolve("notes/Readme", "x") == Resolution(
        "notes/README", "case", ("notes/README", "notes/readme")
    )


def test_resolution_is_stable_across_repeated_calls(resolver: SlugResolver) -> None:
    first = [resolver.resolve(t, "guide") for t in ("dup", "Missing", "alice", "dup")]
    again = [resolver.resolve(t, "guide") for t in ("dup", "Missing", "alice", "dup")]
    assert first == again
    assert first[0] == first[3] == Resolution("a/dup", "basename", ("a/dup", "b/dup", "x/y/dup"))


def test_decomposed_unicode_matches_case_insensitively() -> None:
    nfd = "notes/cafe\u0301"  # how macOS stores `café`
    r = SlugResolver([nfd])
    assert r.resolve("notes/Caf\u00e9", "x") == Resolution(nfd, "case")
    assert r.resolve("/notes/caf\u00e9.md", "x", "markdown") == Resolution(nfd, "path")


def test_expensive_tables_are_built_only_when_a_rule_needs_them() -> None:
    resolver = SlugResolver(["notes/Alpha", "b"], {"b": "Bee"})
    assert resolver.resolve("b", "x") == Resolution("b", "exact")
    assert resolver.resolve("NOTES/alpha", "x") == Resolution("notes/Alpha", "case")
    assert resolver.resolve("/notes/alpha.md", "x", "markdown").rule == "path"
    assert not resolver._lazy  # exact, case and path hits slugify nothing
    assert resolver.resolve("bee", "x") == Resolution("b", "title")
    assert resolver.resolve("alpha", "x") == Resolution("notes/Alpha", "basename")
    assert set(resolver._lazy) == {"_slugified", "_basenames", "_aliases", "_titles"}


SERVER_SLUGS = [
    "zettelkasten",
    "devbox/introduction/the-reason-for-being",
    "devbox/devbox.json",
    "devbox/release-notes-v1.2",
    "guides/index",
]


@pytest.mark.parametrize(
    ("target", "from_slug", "expected"),
    [
        (
            "./devbox/introduction/The reason for being.md",
            "zettelkasten",
            Resolution("devbox/introduction/the-reason-for-being", "slugified"),
        ),
        (
            "introduction/The reason for being.md",
            "devbox/devbox.json",
            Resolution("devbox/introduction/the-reason-for-being", "slugified"),
        ),
        ("devbox/Devbox.JSON.md", "zettelkasten", Resolution("devbox/devbox.json", "path")),
        (
            "/devbox/Release Notes v1.2.md",
            "zettelkasten",
            Resolution("devbox/release-notes-v1.2", "slugified"),
        ),
        ("/Guides/", "zettelkasten", Resolution("guides/index", "folder-index")),
        ("../../Zettelkasten.md", "devbox/introduction/x", Resolution("zettelkasten", "path")),
    ],
)
def test_path_links_find_pages_the_way_a_server_names_them(
    target: str, from_slug: str, expected: Resolution
) -> None:
    """gbrain lowercases and hyphenates file names (keeping dots): a Markdown path link
    written against the files finds the server's page instead of dangling."""
    assert SlugResolver(SERVER_SLUGS).resolve(target, from_slug, "markdown") == expected


def test_a_path_that_slugifies_to_no_page_still_dangles() -> None:
    found = SlugResolver(SERVER_SLUGS).resolve(
        "./devbox/Nothing Here.md", "zettelkasten", "markdown"
    )
    assert found == Resolution("devbox/Nothing Here", "dangling")
