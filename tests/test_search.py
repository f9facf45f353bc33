"""Full-text search: the query grammar, the FTS5 index and its incremental sync, the CLI."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest

from okf_explorer.core.brain import Brain
from okf_explorer.core.search.query import SearchSyntaxError, parse_query
from okf_explorer.core.search.words import TOKENIZER, separates
from okf_explorer.sources.folder.bundle import BundleSource
from tests.bundles import write_bundle

PAGES = {
    "tables/orders.md": (
        "---\ntype: table\ntags: [sales, core]\n---\n# Orders\nOne row per order.\n"
    ),
    "tables/refunds.md": "---\ntype: table\n---\n# Refunds\nA refund reverses an order.\n",
    "people/ana.md": "---\ntype: person\n---\n# Ana\nAna owns the orders pipeline and ordering.\n",
    "notes/café.md": "# Café\nThe café sells coffee. Gross margin is thin.\n",
}


@pytest.fixture
def bundle(tmp_path: Path) -> Path:
    return write_bundle(tmp_path / "b", PAGES)


def slugs(brain: Brain, query: str) -> list[str]:
    return [hit.slug for hit in brain.text_search().search(query)]


def test_query_grammar() -> None:
    q = parse_query('type:table tag:"core" path:/tables/ orders "one row" ord* tables/orders')
    assert (q.type, q.tag, q.path) == ("table", "core", "tables/")
    assert q.text == 'orders "one row" ord* "tables/orders"'
    listing = parse_query("type:table")  # filters alone list the pages passing them
    assert listing.listing and (listing.type, listing.text) == ("table", "")
    with pytest.raises(SearchSyntaxError):
        parse_query("  ")


@pytest.mark.parametrize("query", ["tag:", "orders type: table", 'path:"" orders', "Tag:"])
def test_a_filter_without_its_value_is_refused_not_searched_as_a_word(query: str) -> None:
    """`tag:` alone searched the word `tag`, and `type: table` the words `type` and `table`,
    silently; a filter needs its value."""
    with pytest.raises(SearchSyntaxError, match=r"needs a value right after the colon"):
        parse_query(query)


def test_punctuation_is_no_word_searched_for() -> None:
    """`：`, `，` and `—` are separators to the index's tokenizer (Unicode punctuation): as
    terms they matched nothing and took places among the 32 searched for (a Chinese
    sentence's marks)."""
    assert parse_query("今年：夏季，台风 — forecast").terms == (
        '"今 年"',
        '"夏 季"',
        '"台 风"',
        '"forecast"',
    )
    with pytest.raises(SearchSyntaxError, match="needs a word, not punctuation or symbols alone"):
        parse_query("— ：")


def test_a_symbol_is_searched_for_only_where_the_index_reads_it_as_a_word() -> None:
    """SQLite's tokenizer reads symbols by Unicode 6.1: `⚠`, `→`, `✓` and `_` separate
    words, so `search ⚠` matched nothing and said nothing; `🗂` and `½` are words."""
    assert parse_query("🗂 ½").terms == ('"🗂"', '"½"')
    assert parse_query("⚠ warning → ✓").terms == ('"warning"',)
    for symbols in ("⚠", "→ ✓", "_"):
        with pytest.raises(
            SearchSyntaxError, match="needs a word, not punctuation or symbols alone"
        ):
            parse_query(symbols)


def test_every_character_is_a_separator_as_the_index_s_tokenizer_reads_it() -> None:
    """`separates` against the tokenizer fed every character at once."""
    chars = [chr(code) for code in range(0x21, 0x3000) if not 0xD800 <= code < 0xE000]
    chars += [chr(code) for code in range(0x1F300, 0x1F700)]
    db = sqlite3.connect(":memory:")
    db.execute(f"CREATE VIRTUAL TABLE t USING fts5(x, tokenize='{TOKENIZER}')")
    db.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')")
    for char in chars:
        db.execute("INSERT INTO t (x) VALUES (?)", (char,))
    read = {rowid for (rowid,) in db.execute("SELECT DISTINCT doc FROM v")}
    assert [char for i, char in enumerate(chars, 1) if separates(char) == (i in read)] == []


def test_a_filter_word_inside_a_phrase_is_text() -> None:
    assert parse_query('"type: concept" tag:core').text == '"type: concept"'
    assert parse_query('"path: x" "tag:"').text == '"path: x" "tag:"'


def test_words_phrases_prefixes_filters(bundle: Path) -> None:
    brain = Brain(BundleSource(bundle), cache_dir=False)
    everyone = {"tables/orders", "tables/refunds", "people/ana"}
    assert set(slugs(brain, "order")) == everyone  # stemmed: orders, ordering
    assert slugs(brain, '"orders pipeline"') == ["people/ana"]
    assert set(slugs(brain, "order*")) == everyone
    assert slugs(brain, "type:table row") == ["tables/orders"]
    assert slugs(brain, "tag:sales order") == ["tables/orders"]
    assert slugs(brain, "path:people order*") == ["people/ana"]
    assert slugs(brain, "cafe") == ["notes/café"]  # diacritics folded
    assert set(slugs(brain, "order NOT refund")) == {"tables/orders", "people/ana"}


def test_title_ranks_first_and_hits_are_marked(bundle: Path) -> None:
    brain = Brain(BundleSource(bundle), cache_dir=False)
    [first, *_] = brain.text_search().search("refunds")
    assert first.slug == "tables/refunds"
    # `refunds` marks `refund` (stemmed alike); the heading `# Refunds` that repeats the
    # title the hit shows is left out of the snippet
    assert first.marked() == "A «refund» reverses an order."
    assert first.hit_words() == ["refund"]


def test_bad_syntax_raises(bundle: Path) -> None:
    brain = Brain(BundleSource(bundle), cache_dir=False)
    with pytest.raises(SearchSyntaxError, match="bad search syntax"):
        brain.text_search().search('"unclosed')
    # FTS5 says `syntax error near ""` when the query stops after an operator
    with pytest.raises(SearchSyntaxError, match="ends where a word should follow"):
        brain.text_search().search("order AND")


class BodyCountingSource(BundleSource):
    """A bundle recording the slugs each `map_bodies` call (what the text index reads
    bodies with) was asked for."""

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.reads: list[list[str]] = []

    def map_bodies(self, slugs, make):
        self.reads.append(list(slugs))
        return super().map_bodies(slugs, make)


def test_index_beside_the_cache_is_synced_incrementally(bundle: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    brain = Brain(BodyCountingSource(bundle), cache_dir=cache)
    assert slugs(brain, "coffee") == ["notes/café"]
    fts = brain.text_index_path()
    assert fts is not None and fts.parent == cache and fts.exists()
    assert oct(os.stat(fts).st_mode & 0o777) == "0o600"
    assert len(brain.text_search().text_index()) == 4
    brain.close()
    # a new process: nothing changed, nothing read again
    source = BodyCountingSource(bundle)
    brain = Brain(source, cache_dir=cache)
    assert slugs(brain, "coffee") == ["notes/café"]
    assert source.reads == []
    # one page changed, one removed: only the changed one is read
    (bundle / "notes" / "café.md").write_text("# Café\nNow it sells tea.\n", encoding="utf-8")
    (bundle / "tables" / "refunds.md").unlink()
    brain.refresh()
    assert slugs(brain, "tea") == ["notes/café"]
    assert source.reads == [["notes/café"]]
    assert slugs(brain, "coffee") == [] and slugs(brain, "refund") == []


def test_corrupt_index_file_is_rebuilt(bundle: Path, tmp_path: Path) -> None:
    brain = Brain(BundleSource(bundle), cache_dir=tmp_path / "cache")
    path = brain.text_index_path()
    assert path is not None
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not a database at all" * 100)
    assert slugs(brain, "coffee") == ["notes/café"]


def test_cli_search(bundle: Path, run) -> None:
    status, out, err = run("search", "row", "--source", str(bundle))
    assert (status, err) == (0, "")
    assert out == "tables/orders\tOne «row» per order.\n"  # text, not Markdown
    status, out, _ = run("search", "order*", "--limit", "1", "--json", "--source", str(bundle))
    [record] = json.loads(out)
    assert set(record) == {"slug", "title", "type", "score", "snippet"}
    assert "«" in record["snippet"]


def test_cli_search_says_so_when_a_word_is_a_folder(bundle: Path, run) -> None:
    """`search WORDS VAULT` (as `validate VAULT` and `browse VAULT` read) searched the
    sample brain for the folder's path as words; it is a usage error that says how."""
    status, out, err = run("search", "row", str(bundle))
    assert (status, out) == (2, "")
    assert err.count("\n") == 1 and f"--source {bundle}" in err
    status, _, err = run("search", "row", "http://127.0.0.1:9/mcp")
    assert status == 2 and "--source http://127.0.0.1:9/mcp" in err
    status, _, err = run("get", "tables/orders", str(bundle))
    assert status == 2 and f"(a source goes in --source {bundle})" in err
    status, out, _ = run("search", "row", "path:tables/", "--source", str(bundle))
    assert (status, out) == (0, "tables/orders\tOne «row» per order.\n")


@pytest.mark.parametrize("query", ['"unclosed', "AND", "(order OR", "tag: sales"])
def test_cli_search_bad_syntax_exits_2(bundle: Path, run, query: str) -> None:
    status, out, err = run("search", query, "--source", str(bundle))
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err


def test_the_text_index_filled_by_worker_processes_is_the_one_filled_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A large folder's rows are made in the processes that read the bodies: the index
    holds the same rows, names and text as one whose rows are all made here."""
    from okf_explorer.core.index.build import build_index
    from okf_explorer.core.search.text_index import TextIndex
    from okf_explorer.sources.folder import scan

    files = {
        f"topic/page-{i:02d}.md": (
            f"---\ntitle: Page {i}\naliases: [P{i}]\ndescription: about {i}\n---\n"
            f"# Heading {i}\n\nSee [[page-{(i + 1) % 24:02d}|the next]] and ^[a note {i}].\n"
            "> [!tip] A tip\n> with **bold** and `code` 日本語のテキスト\n"
        )
        for i in range(24)
    }
    source = BundleSource(write_bundle(tmp_path / "b", files))
    pages = build_index(source, cache=False).pages

    def rows(texts: TextIndex) -> list[tuple]:
        db = texts._db
        docs = db.execute(
            "SELECT d.slug, d.title, d.type, d.tags, d.body, f.title, f.names, f.headings,"
            " f.summary, f.body FROM docs d JOIN fts f ON f.rowid = d.id ORDER BY d.slug"
        ).fetchall()
        names = db.execute(
            "SELECT n.key, d.slug FROM names n JOIN docs d ON d.id = n.doc ORDER BY 1, 2"
        ).fetchall()
        return docs + names

    here = TextIndex(None, "here")
    assert here.sync(pages, source.map_bodies) == 24
    monkeypatch.setattr(scan, "PARALLEL_THRESHOLD", 8)
    pooled = TextIndex(None, "pool")
    assert pooled.sync(pages, source.map_bodies) == 24
    assert rows(pooled) == rows(here) and len(rows(here)) > 24
    hits = pooled.search(parse_query("next tip"), 3)
    assert [h.slug for h in hits] == [h.slug for h in here.search(parse_query("next tip"), 3)]


def test_a_fill_reports_its_progress_and_a_fill_with_nothing_to_read_does_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from okf_explorer.core.index.build import build_index
    from okf_explorer.core.search import text_index
    from okf_explorer.core.search.text_index import TextIndex

    monkeypatch.setattr(text_index, "PROGRESS_STEP", 2)
    root = write_bundle(tmp_path / "b", {f"p{i}.md": f"# P{i}\n\nWords {i}.\n" for i in range(5)})
    source = BundleSource(root)
    pages = build_index(source, cache=False).pages
    heard: list[tuple[int, int]] = []

    def hear(done: int, total: int) -> None:
        heard.append((done, total))

    texts = TextIndex(tmp_path / "text.fts", "progress")
    assert texts.sync(pages, source.map_bodies, hear) == 5
    assert heard == [(0, 5), (2, 5), (4, 5), (5, 5)]
    heard.clear()
    assert texts.sync(pages, source.map_bodies, hear) == 0
    assert heard == []
    texts.close()


def test_a_fill_leaves_no_log_as_big_as_the_index(tmp_path: Path) -> None:
    """A 16k-page wiki's first fill left a 455 MB write-ahead log beside its 453 MB index
    (one transaction; the explorer quits without closing the file): after a fill that wrote,
    the log is written into the file and cut, before any close."""
    from okf_explorer.core.index.build import build_index
    from okf_explorer.core.search.text_index import LOG_LIMIT, TextIndex

    words = " ".join(f"word{n}" for n in range(2_000))
    pages = {f"p{i}.md": f"# P{i}\n\n{words} {i}.\n" for i in range(300)}
    source = BundleSource(write_bundle(tmp_path / "b", pages))
    texts = TextIndex(tmp_path / "text.fts", "log")
    assert texts.sync(build_index(source, cache=False).pages, source.map_bodies) == 300
    log = tmp_path / "text.fts-wal"
    assert (tmp_path / "text.fts").stat().st_size > 2 * LOG_LIMIT  # big enough to tell
    assert not log.exists() or log.stat().st_size <= LOG_LIMIT
    assert len(texts) == 300
    texts.close()


def test_a_first_fill_is_written_aside_and_put_in_place_whole(tmp_path: Path) -> None:
    """A first fill in place wrote every row twice, into the write-ahead log and then
    into the file (databricks-okf: 2.7-2.9 s, 95 MB twice). It is written aside, in a
    file of our own beside the index, without a log, and renamed over the empty index:
    the same rows as an index filled in memory, found the same; the next sync is in
    place."""
    from okf_explorer.core.index.build import build_index
    from okf_explorer.core.search.text_index import TextIndex

    files = {f"p{i}.md": f"# Page {i}\n\nWords {i} and [[p{i + 1}|the next]].\n" for i in range(40)}
    root = write_bundle(tmp_path / "b", files)
    source = BundleSource(root)
    pages = build_index(source, cache=False).pages
    path = tmp_path / "cache" / "text.fts"
    path.parent.mkdir()
    beside: list[dict[str, int]] = []

    def watched(slugs, make):  # type: ignore[no-untyped-def]
        yield from source.map_bodies(slugs, make)
        # every row inserted, not yet committed: what is beside the index, and how big
        beside.append({entry.name: entry.stat().st_size for entry in os.scandir(path.parent)})

    texts = TextIndex(path, "aside")
    assert texts.sync(pages, watched) == 40
    [during] = beside
    assert during.get("text.fts-wal", 0) == 0  # no row went through the log
    [aside] = [size for name, size in during.items() if name.endswith(".tmp")]
    assert aside > 0  # but into a file of its own
    assert not [name for name in os.listdir(path.parent) if name.endswith(".tmp")]
    assert oct(os.stat(path).st_mode & 0o777) == "0o600"

    def rows(texts: TextIndex) -> list[tuple]:
        return texts._db.execute(
            "SELECT d.slug, d.fingerprint, d.body, f.title, f.body FROM docs d"
            " JOIN fts f ON f.rowid = d.id ORDER BY d.slug"
        ).fetchall()

    memory = TextIndex(None, "aside")
    memory.sync(pages, source.map_bodies)
    assert rows(texts) == rows(memory) and len(rows(texts)) == 40
    query = parse_query("words next")
    assert texts.search(query, 5) == memory.search(query, 5)

    (root / "p3.md").write_text("# Page 3\n\nNow about kilns.\n", encoding="utf-8")
    inode = path.stat().st_ino
    assert texts.sync(build_index(source, cache=False).pages, source.map_bodies) == 1
    assert path.stat().st_ino == inode  # in place
    assert [hit.slug for hit in texts.search(parse_query("kilns"), 5)] == ["p3"]
    texts.close()
    memory.close()


def test_a_sync_follows_the_index_another_process_put_in_place(
    bundle: Path, tmp_path: Path
) -> None:
    """Two processes open the empty index; the first to fill it puts its file in place.
    The other's next sync opens that file instead of filling the one it had open (gone
    from the folder): nothing read again, and what it writes later is where the next
    process reads."""
    from okf_explorer.core.index.build import build_index
    from okf_explorer.core.search.text_index import TextIndex

    source = BodyCountingSource(bundle)
    pages = build_index(source, cache=False).pages
    path = tmp_path / "text.fts"
    first, other = TextIndex(path, "two"), TextIndex(path, "two")
    assert first.sync(pages, source.map_bodies) == len(pages)
    source.reads.clear()
    assert other.sync(pages, source.map_bodies) == 0 and source.reads == []
    assert [hit.slug for hit in other.search(parse_query("coffee"), 5)] == ["notes/café"]
    (bundle / "notes" / "café.md").write_text("# Café\nNow it sells tea.\n", encoding="utf-8")
    assert other.sync(build_index(source, cache=False).pages, source.map_bodies) == 1
    first.close()
    other.close()
    again = TextIndex(path, "two")
    assert [hit.slug for hit in again.search(parse_query("tea"), 5)] == ["notes/café"]
    again.close()


def test_a_first_fill_that_stops_leaves_the_empty_index_and_nothing_beside_it(
    tmp_path: Path,
) -> None:
    from okf_explorer.core.index.build import build_index
    from okf_explorer.core.search.text_index import TextIndex

    root = write_bundle(tmp_path / "b", {f"p{i}.md": f"# P{i}\n\nWords {i}.\n" for i in range(9)})
    source = BundleSource(root)
    pages = build_index(source, cache=False).pages
    path = tmp_path / "text.fts"

    class Stopped(Exception):
        pass

    def stopping(slugs, make):  # type: ignore[no-untyped-def]
        for at, row in enumerate(source.map_bodies(slugs, make)):
            if at == 5:
                raise Stopped
            yield row

    texts = TextIndex(path, "stops")
    with pytest.raises(Stopped):
        texts.sync(pages, stopping)
    assert not [name for name in os.listdir(tmp_path) if name.endswith(".tmp")]
    assert len(texts) == 0 and texts.path == path
    assert texts.sync(pages, source.map_bodies) == 9
    assert [hit.slug for hit in texts.search(parse_query("words"), 20)] != []
    texts.close()


@pytest.mark.parametrize("terminal", [True, False])
def test_a_long_first_search_on_a_terminal_says_it_reads_the_pages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run, terminal: bool
) -> None:
    """`search` on a 35k-page wiki was silent for 29 s the first time: on a terminal a
    fill of `LONG_FILL` pages or more says so in one line on stderr; a script (stderr
    not a terminal) and a later search hear nothing."""
    import sys

    from okf_explorer.cli.commands import search

    monkeypatch.setattr(search, "LONG_FILL", 3)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: terminal)
    root = write_bundle(tmp_path / "b", {f"p{i}.md": f"# P{i}\n\nZebra {i}.\n" for i in range(4)})
    status, out, err = run("--source", str(root), "search", "zebra")
    assert status == 0 and len(out.splitlines()) == 4
    said = "okf-explorer: reading 4 pages for full-text search, once (later: what changed)\n"
    assert err == (said if terminal else "")
    monkeypatch.setattr(sys.stderr, "isatty", lambda: terminal)
    assert run("--source", str(root), "search", "zebra")[2] == ""
