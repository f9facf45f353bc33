"""One shape per record: each stored record's row is its own `to_row()` / `from_row()`,
and the disk cache's format version moves whenever a stored record's fields do.

`STORED_FIELDS` is what the cache stores, recorded with the `FORMAT_VERSION` it was
written under. Changing a record's fields without bumping `core/index/cache.py`
`FORMAT_VERSION` fails here (an old cache would be read with the new layout);
after bumping, record the new fields with the new version.
"""

from __future__ import annotations

import inspect
import marshal
from dataclasses import MISSING, fields
from pathlib import Path

import pytest
from typed_bundle import make_typed_bundle

from okf_explorer.core.index.build import build_index
from okf_explorer.core.index.model import ResolvedLink
from okf_explorer.core.index.store import FORMAT_VERSION, cache_payload
from okf_explorer.core.links.grammar import RawLink, extract_link_tuples, extract_links
from okf_explorer.core.pages import PageInfo, fingerprint_of_row, slug_of_row
from okf_explorer.core.port import ScannedPage
from okf_explorer.sources.folder.bundle import BundleSource

RECORDED_FOR_FORMAT = 31
"""The `FORMAT_VERSION` the layout below belongs to."""

STORED_FIELDS: dict[str, tuple[str, ...]] = {
    "PageInfo": (
        "slug",
        "title",
        "type",
        "tags",
        "updated_at",
        "reserved",
        "readable",
        "error",
        "fingerprint",
        "description",
        "tags_known",
        "error_kind",
        "aliases",
        "title_stated",
        "okf_status",
        "okf_trust",
        "okf_stale_after",
        "heading_title",
        "private",
    ),
    "RawLink": ("target", "kind", "count", "refdef", "rel", "incoming", "named"),
    "ResolvedLink": (
        "target",
        "to",
        "kind",
        "rule",
        "count",
        "ambiguous",
        "candidates",
        "rel",
        "incoming",
    ),
    "payload": (
        "complete",
        "infos",
        "targets",
        "reverse",
        "ambiguous",
        "links blob",
        "out_rels",
        "in_rels",
    ),
    "links blob": ("raw links", "resolved links"),
}

RECORDS = {"PageInfo": PageInfo, "RawLink": RawLink, "ResolvedLink": ResolvedLink}


@pytest.fixture(scope="module")
def payload(tmp_path_factory: pytest.TempPathFactory) -> tuple:
    root = make_typed_bundle(tmp_path_factory.mktemp("typed"))
    (root / "notes.md").write_text("[[people/bob]] [x](tables/orders.md) [[nowhere]]\n")
    return cache_payload(build_index(BundleSource(root), cache=False))


def stored_fields(payload: tuple) -> dict[str, tuple[str, ...]]:
    """The recorded names, checked against what `cache_payload` really writes."""
    found = {name: tuple(f.name for f in fields(cls)) for name, cls in RECORDS.items()}
    blob = marshal.loads(payload[STORED_FIELDS["payload"].index("links blob")])
    found["payload"] = STORED_FIELDS["payload"][: len(payload)] + ("?",) * (
        len(payload) - len(STORED_FIELDS["payload"])
    )
    found["links blob"] = STORED_FIELDS["links blob"][: len(blob)] + ("?",) * (
        len(blob) - len(STORED_FIELDS["links blob"])
    )
    infos = payload[STORED_FIELDS["payload"].index("infos")]
    raws, resolved = blob
    rows = {
        "PageInfo": list(infos),
        "RawLink": [row for page in raws for row in page],
        "ResolvedLink": [row for page in resolved for row in page],
    }
    for name, records in rows.items():
        assert records, name
        lengths = {len(row) for row in records}
        if lengths != {len(found[name])}:
            found[name] = (*found[name], f"(rows of {sorted(lengths)} values in the payload)")
    return found


def test_stored_fields_change_only_with_a_cache_format_bump(payload: tuple) -> None:
    now = stored_fields(payload)
    changed = {name for name in STORED_FIELDS if now[name] != STORED_FIELDS[name]}
    if FORMAT_VERSION == RECORDED_FOR_FORMAT:
        was = {name: STORED_FIELDS[name] for name in sorted(changed)}
        is_now = {name: now[name] for name in sorted(changed)}
        assert not changed, (
            f"the disk cache stores {sorted(changed)}, whose fields changed from {was} "
            f"to {is_now}: bump FORMAT_VERSION in okf_explorer/core/index/cache.py (say why in "
            "its docstring), then record the new fields and version in this test"
        )
    else:
        pytest.fail(
            f"FORMAT_VERSION is {FORMAT_VERSION}, the stored fields here were recorded "
            f"for {RECORDED_FOR_FORMAT}: set RECORDED_FOR_FORMAT = {FORMAT_VERSION} and "
            "STORED_FIELDS to the fields the cache now stores"
        )


@pytest.mark.parametrize("cls", [PageInfo, RawLink, ResolvedLink])
def test_rows_round_trip_and_refuse_another_length(cls: type) -> None:
    sample = {
        PageInfo: PageInfo("a/b", "B", "note", ("t",), "2020", False, True, None, "1:2", "d"),
        RawLink: RawLink("b", "wiki", 2, "b.md", "related_to", True),
        ResolvedLink: ResolvedLink("b", "a/b", "wiki", "basename", 2, True, ("a/b", "c/b")),
    }[cls]
    row = sample.to_row()
    assert type(row) is tuple and len(row) == len(fields(cls))
    distinct = {f.name: f"value of {f.name}" for f in fields(cls)}  # any swap shows
    assert cls(**distinct).to_row() == tuple(distinct.values())
    assert cls.from_row(row) == sample
    assert row == tuple(getattr(sample, f.name) for f in fields(cls))
    with pytest.raises(ValueError):
        cls.from_row(row[:-1])
    with pytest.raises(ValueError):
        cls.from_row((*row, None))


def test_bulk_resolved_rows_match_one_by_one() -> None:
    links = (ResolvedLink("b", "b", "wiki", "exact"), ResolvedLink("c", "c", "markdown", "path"))
    rows = ResolvedLink.to_rows(links)
    assert rows == tuple(link.to_row() for link in links)
    assert ResolvedLink.from_rows(rows) == links
    with pytest.raises(ValueError):
        ResolvedLink.from_rows([rows[0][:7]])


def test_page_info_row_of_builds_to_row_without_the_record() -> None:
    """`PageInfo.row_of` takes the fields by name with the dataclass's own defaults."""
    params = inspect.signature(PageInfo.row_of).parameters
    assert tuple(params) == tuple(f.name for f in fields(PageInfo))
    for f in fields(PageInfo):
        default = params[f.name].default
        assert default == (inspect.Parameter.empty if f.default is MISSING else f.default)
    distinct = {f.name: f"value of {f.name}" for f in fields(PageInfo)}  # any swap shows
    row = PageInfo.row_of(**distinct)
    assert row == PageInfo(**distinct).to_row() == tuple(distinct.values())
    assert slug_of_row(row) == "value of slug"
    assert fingerprint_of_row(row) == "value of fingerprint"
    assert PageInfo.row_of(slug="a", title="A") == PageInfo("a", "A").to_row()


def test_parsed_links_are_raw_link_rows() -> None:
    text = "[[a]] [b](b.md) [[a]] ![[c.png]] [[lint]]\n\n[lint]: cli/lint.md\n"
    expected = [
        RawLink(target="a", kind="wiki", count=2),
        RawLink(target="b.md", kind="markdown"),
        RawLink(target="lint", kind="wiki", refdef="cli/lint.md"),
    ]
    assert [RawLink.from_row(row) for row in extract_link_tuples(text)] == expected
    assert extract_links(text) == expected


def test_a_scanned_page_row_round_trips(tmp_path: Path) -> None:
    root = make_typed_bundle(tmp_path)
    source = BundleSource(root)
    stubs = source.enumerate()
    scanned = sorted(map(ScannedPage.from_row, source.scan_rows(stubs)), key=str)
    pages = sorted(source.scan(stubs), key=str)
    assert scanned == pages and any(page.links for page in pages)
    assert [ScannedPage.from_row(page.to_row()) for page in pages] == pages
