"""The bundled sample brain (`okf_explorer/sample_brain/`).

It is the first thing a new user explores, and other tests and the screenshots
lean on its shape: the hub, the orphan, the dead end, the cycles and the
dangling targets below are deliberate. These tests read the files directly and
use the link grammar (`extract_links` + `SlugResolver`), so a page edit that
silently breaks one of those features fails here, next to the content.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

import okf_explorer
from okf_explorer.core.links import LinkKind, Resolution, SlugResolver, extract_links
from okf_explorer.core.pages import frontmatter_aliases

pytestmark = pytest.mark.plain

SAMPLE = Path(okf_explorer.__file__).resolve().parent / "sample_brain"

FOLDERS = (
    "tables",
    "pipelines",
    "metrics",
    "dashboards",
    "people",
    "teams",
    "glossary",
    "decisions",
    "runbooks",
    "computations",
)
FOLDER_TYPE = {
    "tables": "table",
    "pipelines": "pipeline",
    "metrics": "metric",
    "dashboards": "dashboard",
    "people": "person",
    "teams": "team",
    "glossary": "term",
    "decisions": "decision",
    "runbooks": "runbook",
    "computations": "Attested Computation",
}
REQUIRED_SLUGS = (
    "index",
    "log",
    *(f"{folder}/index" for folder in FOLDERS),
    "tables/orders",
    "tables/customers",
    "tables/products",
    "tables/order_items",
    "tables/stores",
    "tables/orders_legacy",
    "pipelines/orders_daily",
    "metrics/revenue",
    "metrics/average_order_value",
    "glossary/customer",
    "glossary/orders",
    "glossary/sku",
    "glossary/legacy-pos",
    "glossary/gross margin",
    "people/maya-chen",
    "teams/data-platform",
)

HUB = "tables/orders"
ORPHAN = "glossary/legacy-pos"
DEAD_END = "glossary/sku"
DEPRECATED = "tables/orders_legacy"
STALE = "runbooks/orders-daily-late"
ATTESTED = "computations/weekly-revenue"
TWO_CYCLE = ("metrics/revenue", "metrics/average_order_value")
THREE_CYCLE = ("runbooks/orders-daily-late", "dashboards/executive_weekly", "metrics/revenue")
DANGLING = {
    ("tables/customers", "tables/loyalty_points"),
    ("tables/index", "tables/loyalty_points"),
    ("people/tomas-okafor", "tables/loyalty_points"),
    ("tables/roast_batches", "Supplier Scorecard"),
    ("people/jonas-weber", "Supplier Scorecard"),
    ("dashboards/index", "Supplier Scorecard"),
    ("pipelines/index", "pipelines/loyalty_app_sync"),
    ("metrics/revenue", "../runbooks/refund-spike.md"),
}
DANGLING_NODES = {
    "tables/loyalty_points",
    "Supplier Scorecard",
    "pipelines/loyalty_app_sync",
    "runbooks/refund-spike",
}


@dataclass(frozen=True)
class SamplePage:
    slug: str
    meta: dict[str, Any]
    body: str


@dataclass(frozen=True)
class SampleLink:
    frm: str
    target: str
    kind: LinkKind
    resolution: Resolution


_FRONTMATTER = re.compile(r"\A---\n(?P<yaml>.*?)\n---\n(?P<body>.*)\Z", re.DOTALL)


def is_index(slug: str) -> bool:
    return slug.rsplit("/", 1)[-1] == "index"


@cache
def sample_pages() -> dict[str, SamplePage]:
    """Every page of the sample, keyed by slug (read once per test run). Only the
    `index.md` pages go without frontmatter (OKF v0.2 §8; the root's holds `okf_version`)."""
    pages: dict[str, SamplePage] = {}
    for path in sorted(SAMPLE.rglob("*.md")):
        text = path.read_bytes().decode("utf-8")
        slug = path.relative_to(SAMPLE).as_posix().removesuffix(".md")
        match = _FRONTMATTER.match(text)
        if match is None:
            assert is_index(slug), f"{path.name}: no frontmatter block"
            pages[slug] = SamplePage(slug, {}, text)
            continue
        meta = yaml.safe_load(match["yaml"])
        assert isinstance(meta, dict), f"{path.name}: frontmatter is not a mapping"
        pages[slug] = SamplePage(slug, meta, match["body"])
    return pages


@cache
def sample_links() -> tuple[SampleLink, ...]:
    """Every distinct raw link of every page, resolved against the whole sample."""
    pages = sample_pages()
    resolver = SlugResolver(
        pages,
        {slug: page.meta["title"] for slug, page in pages.items() if "title" in page.meta},
        {slug: frontmatter_aliases(page.meta.get("aliases")) for slug, page in pages.items()},
    )
    return tuple(
        SampleLink(
            slug, raw.target, raw.kind, resolver.resolve(raw.target, slug, raw.kind, raw.refdef)
        )
        for slug, page in pages.items()
        for raw in extract_links(page.body)
    )


def out_edges() -> dict[str, set[str]]:
    """Resolved links between existing pages (self-links left out)."""
    edges: dict[str, set[str]] = defaultdict(set)
    for link in sample_links():
        node = link.resolution.slug
        if node is not None and node != link.frm:
            edges[link.frm].add(node)
    return edges


def in_edges() -> dict[str, set[str]]:
    edges: dict[str, set[str]] = defaultdict(set)
    for frm, targets in out_edges().items():
        for to in targets:
            edges[to].add(frm)
    return edges


def link(frm: str, target: str) -> SampleLink:
    found = [x for x in sample_links() if x.frm == frm and x.target == target]
    assert found, f"{frm} has no link to {target!r}"
    return found[0]


# --- files and frontmatter -----------------------------------------------------


def test_sample_holds_only_plain_markdown_files() -> None:
    everything = list(SAMPLE.rglob("*"))
    assert not [p for p in everything if p.is_symlink()]
    assert not [p for p in everything if any(part.startswith(".") for part in p.parts[-3:])]
    files = [p for p in everything if p.is_file()]
    assert files and all(p.suffix == ".md" for p in files)
    folders = {p.relative_to(SAMPLE).as_posix() for p in everything if p.is_dir()}
    assert folders == set(FOLDERS)


def test_index_pages_carry_no_frontmatter_but_the_root_okf_version() -> None:
    """OKF v0.2 §8: `okf-explorer validate` reports 0 errors on the sample."""
    for slug, page in sample_pages().items():
        if is_index(slug):
            assert page.meta == ({"okf_version": "0.2"} if slug == "index" else {}), slug


def test_every_page_has_valid_frontmatter_with_the_okf_fields() -> None:
    allowed_types = {*FOLDER_TYPE.values(), "log"}
    for slug, page in sample_pages().items():
        if is_index(slug):
            continue
        meta = page.meta
        assert meta.get("type") in allowed_types, slug
        assert isinstance(meta.get("title"), str) and meta["title"].strip(), slug
        description = meta.get("description")
        assert isinstance(description, str) and description.endswith("."), slug
        assert description.count(". ") == 0, f"{slug}: description is one sentence"
        tags = meta.get("tags")
        assert isinstance(tags, list) and tags, slug
        assert all(isinstance(tag, str) and tag == tag.strip() for tag in tags), slug


def test_page_types_match_their_folder() -> None:
    for slug, page in sample_pages().items():
        name = slug.rsplit("/", 1)[-1]
        if name == "index":
            assert "type" not in page.meta, slug
        elif name == "log":
            assert page.meta["type"] == name, slug
        else:
            assert page.meta["type"] == FOLDER_TYPE[slug.split("/", 1)[0]], slug


def test_required_slugs_exist_and_page_count_is_in_range() -> None:
    pages = sample_pages()
    assert set(REQUIRED_SLUGS) <= set(pages)
    assert 45 <= len(pages) <= 60
    concept = [s for s in pages if s.rsplit("/", 1)[-1] not in ("index", "log")]
    assert 45 <= len(concept) <= 55


def test_concept_pages_have_substantial_bodies() -> None:
    for slug, page in sample_pages().items():
        if slug.rsplit("/", 1)[-1] in ("index", "log"):
            continue
        words = len(page.body.split())
        assert 80 <= words <= 300, f"{slug}: {words} words"


def test_one_deprecated_page_and_a_few_verified_ones() -> None:
    """OKF v0.2 trust and lifecycle (§5), so the first screens show them."""
    pages = sample_pages()
    deprecated = [s for s, p in pages.items() if p.meta.get("status") == "deprecated"]
    assert deprecated == [DEPRECATED]
    assert {p.meta.get("status") for p in pages.values()} == {None, "draft", "stable", "deprecated"}
    verified = {s: p.meta["verified"] for s, p in pages.items() if "verified" in p.meta}
    assert len(verified) >= 5
    actors = set()
    for slug, value in verified.items():
        events = value if isinstance(value, list) else [value]
        for event in events:
            assert set(event) == {"by", "at"} and isinstance(event["at"], datetime), slug
            assert event["at"].tzinfo is not None, slug
            actors.add(event["by"].split(":", 1)[0])
    assert {"human", "process"} <= actors  # human-reviewed and machine-confirmed pages


def test_sources_are_okf_entries_with_concepts_urls_and_a_cited_footnote() -> None:
    pages = sample_pages()
    kinds = set()
    for slug, page in pages.items():
        for source in page.meta.get("sources", []):
            assert isinstance(source, dict) and source.get("resource"), slug
            resource = source["resource"]
            kinds.add(
                "url" if "://" in resource else "concept" if resource.endswith(".md") else "scope"
            )
            if resource.endswith(".md"):
                assert link_exists(slug, resource), f"{slug}: {resource}"
    assert kinds == {"url", "concept", "scope"}
    cited = [
        (slug, source["id"])
        for slug, page in pages.items()
        for source in page.meta.get("sources", [])
        if "id" in source and f"[^{source['id']}]" in page.body
    ]
    assert ("metrics/revenue", "finance-handbook") in cited and len(cited) >= 3


def link_exists(frm: str, path: str) -> bool:
    resolver = SlugResolver(sample_pages(), {}, {})
    return resolver.resolve(path, frm, "markdown").exists


def test_one_attested_computation_and_one_stale_page() -> None:
    pages = sample_pages()
    computation = pages[ATTESTED].meta
    assert computation["type"] == "Attested Computation" and computation["runtime"] == "bigquery"
    assert {"parameters", "executor", "attester"} <= set(computation)
    now = datetime(2026, 11, 30, tzinfo=UTC)
    stale = [
        s for s, p in pages.items() if "stale_after" in p.meta and p.meta["stale_after"] <= now
    ]
    assert stale == [STALE]


# --- the graph features others rely on -------------------------------------------


def test_orders_table_is_the_hub() -> None:
    incoming = in_edges()
    assert len(incoming[HUB]) >= 12
    most = max(incoming, key=lambda slug: len(incoming[slug]))
    assert most == HUB


def test_the_orphan_is_the_only_page_nobody_links_to() -> None:
    incoming = in_edges()
    assert [slug for slug in sample_pages() if not incoming[slug]] == [ORPHAN]
    assert ORPHAN not in {x.resolution.node for x in sample_links()}


def test_the_dead_end_is_the_only_page_without_links() -> None:
    outgoing = out_edges()
    assert [slug for slug in sample_pages() if not outgoing[slug]] == [DEAD_END]
    assert not [x for x in sample_links() if x.frm == DEAD_END]


def test_exactly_the_planned_targets_dangle() -> None:
    dangling = [x for x in sample_links() if not x.resolution.exists]
    assert {(x.frm, x.target) for x in dangling} == DANGLING
    assert {x.resolution.node for x in dangling} == DANGLING_NODES


def test_cycles() -> None:
    outgoing = out_edges()
    a, b = TWO_CYCLE
    assert b in outgoing[a] and a in outgoing[b]
    first, second, third = THREE_CYCLE
    assert second in outgoing[first] and third in outgoing[second] and first in outgoing[third]
    # A pure 3-cycle: none of its links is answered directly.
    assert first not in outgoing[second] and second not in outgoing[third]
    assert third not in outgoing[first]


def test_every_folder_index_is_reachable_from_the_root() -> None:
    outgoing = out_edges()
    assert {f"{folder}/index" for folder in FOLDERS} <= outgoing["index"]
    assert "log" in outgoing["index"]
    for folder in FOLDERS:
        listed = outgoing[f"{folder}/index"]
        members = {s for s in sample_pages() if s.startswith(f"{folder}/")}
        members -= {f"{folder}/index", ORPHAN}
        assert members <= listed, f"{folder}/index misses {sorted(members - listed)}"


# --- every link form of SPEC §3, in natural use ----------------------------------

LINK_FORMS = [
    # (page, raw target, kind, rule, node, ambiguous)
    ("tables/order_items", "orders.md", "markdown", "path", "tables/orders", False),
    (
        "glossary/gross margin",
        "../metrics/revenue.md",
        "markdown",
        "path",
        "metrics/revenue",
        False,
    ),
    ("pipelines/orders_daily", "/tables/orders.md", "markdown", "path", "tables/orders", False),
    ("index", "/tables/", "markdown", "folder-index", "tables/index", False),
    ("teams/analytics", "/dashboards/", "markdown", "folder-index", "dashboards/index", False),
    (
        "metrics/revenue",
        "../glossary/gross margin.md",
        "markdown",
        "path",
        "glossary/gross margin",
        False,
    ),
    ("glossary/index", "gross margin.md", "markdown", "path", "glossary/gross margin", False),
    ("glossary/customer", "../tables/customers.md", "markdown", "path", "tables/customers", False),
    (
        "runbooks/dashboard-numbers-disagree",
        "../metrics/revenue.md",
        "markdown",
        "path",
        "metrics/revenue",
        False,
    ),
    (
        "metrics/revenue",
        "Average Order Value",
        "wiki",
        "title",
        "metrics/average_order_value",
        False,
    ),
    ("glossary/net-revenue", "analytics.orders", "wiki", "title", "tables/orders", False),
    ("teams/data-platform", "orders_daily", "wiki", "basename", "pipelines/orders_daily", False),
    ("tables/orders", "stores", "wiki", "basename", "tables/stores", False),
    ("people/tomas-okafor", "people/Maya Chen", "wiki", "slugified", "people/maya-chen", False),
    (
        "people/tomas-okafor",
        "Teams/Data Platform",
        "wiki",
        "slugified",
        "teams/data-platform",
        False,
    ),
    ("glossary/customer", "orders", "wiki", "basename", "glossary/orders", True),
    ("metrics/revenue", "glossary/net-revenue", "embed", "exact", "glossary/net-revenue", False),
    (
        "metrics/average_order_value",
        "glossary/channel",
        "embed",
        "exact",
        "glossary/channel",
        False,
    ),
    ("dashboards/executive_weekly", "metrics/revenue", "wiki", "exact", "metrics/revenue", False),
    ("metrics/subscription_churn", "log", "wiki", "exact", "log", False),
    ("tables/index", "Maya", "wiki", "alias", "people/maya-chen", False),
    (
        "dashboards/subscriptions_health",
        "churn",
        "wiki",
        "refdef",
        "metrics/subscription_churn",
        False,
    ),
]


@pytest.mark.parametrize(("frm", "target", "kind", "rule", "node", "ambiguous"), LINK_FORMS)
def test_link_form_resolves_as_intended(
    frm: str, target: str, kind: str, rule: str, node: str, ambiguous: bool
) -> None:
    found = link(frm, target)
    assert found.kind == kind
    resolution = found.resolution
    assert (resolution.node, resolution.rule, resolution.ambiguous) == (node, rule, ambiguous)


def test_a_name_resolves_to_a_person_page() -> None:
    """`[[Maya Chen]]` names people/maya-chen by its title (or slugified name)."""
    assert link("pipelines/pos_ingest", "Maya Chen").resolution.slug == "people/maya-chen"


DECOYS = [
    # (page, text that is in the page, raw target that must not be extracted)
    ("runbooks/index", "[[runbooks/your-new-runbook]]", "runbooks/your-new-runbook"),
    ("runbooks/index", "[the template](template.md)", "template.md"),
    ("runbooks/index", r"\[[runbooks/not-a-link]]", "runbooks/not-a-link"),
    ("pipelines/roast_log_sync", "`[[tables/roast_curves]]`", "tables/roast_curves"),
    ("pipelines/orders_daily", "(orders_daily_lineage.png)", "orders_daily_lineage.png"),
    ("tables/stores", "![[store-map.png]]", "store-map.png"),
    ("tables/orders", "[[#Freshness]]", "#Freshness"),
    (
        "people/maya-chen",
        "(mailto:maya.chen@harborandbean.example)",
        "mailto:maya.chen@harborandbean.example",
    ),
    (
        "teams/data-platform",
        "(https://docs.getdbt.com/best-practices)",
        "https://docs.getdbt.com/best-practices",
    ),
]


@pytest.mark.parametrize(("frm", "text", "target"), DECOYS)
def test_code_images_urls_and_escapes_are_not_links(frm: str, text: str, target: str) -> None:
    assert text in sample_pages()[frm].body
    targets = {x.target for x in sample_links() if x.frm == frm}
    assert target not in targets
    assert not any(t.startswith(("http:", "https:", "mailto:")) for t in targets)


_ANCHORED = re.compile(r"(?<!\\)\[\[([^\]|#]+)#([^\]|\\]+)(?:\\?\|[^\]]*)?\]\]")
_FENCE = re.compile(r"^```.*?^```", re.DOTALL | re.MULTILINE)


def test_heading_and_block_anchors_exist_in_their_targets() -> None:
    pages = sample_pages()
    resolved = {(x.frm, x.target): x.resolution for x in sample_links()}
    headings = blocks = 0
    for slug, page in pages.items():
        for target, anchor in _ANCHORED.findall(_FENCE.sub("", page.body)):
            resolution = resolved[(slug, target.strip())]
            assert resolution.exists, f"{slug}: {target}"
            body = pages[resolution.node].body
            if anchor.startswith("^"):
                blocks += 1
                assert re.search(rf" \{anchor}$", body, re.MULTILINE), f"{slug}: {anchor}"
            else:
                headings += 1
                assert re.search(rf"^#+ {re.escape(anchor)}$", body, re.MULTILINE), anchor
    assert headings >= 6 and blocks >= 3


# --- through the real engine ----------------------------------------------------


def test_the_engine_loads_the_sample_cleanly_and_sees_the_same_features() -> None:
    """The bundle source and `Brain` agree with the file-level checks above."""
    from okf_explorer.core.brain import Brain
    from okf_explorer.sources.folder.bundle import BundleSource

    brain = Brain(BundleSource(SAMPLE), cache_dir=False)
    try:
        infos = brain.pages()
        assert [info.slug for info in infos] == sorted(sample_pages())
        assert all(info.readable and info.error is None for info in infos)
        assert {info.slug for info in infos if info.reserved} == {
            "index",
            "log",
            *(f"{folder}/index" for folder in FOLDERS),
        }
        assert brain.orphans() == [ORPHAN]
        assert brain.dead_ends() == [DEAD_END]
        assert set(brain.dangling()) == DANGLING_NODES
        assert brain.hubs(1)[0][0] == HUB
        assert len(brain.backlinks(HUB)) >= 12
        a, b = TWO_CYCLE
        assert (b, a, 2, "out") in brain.traverse(a, 2, "out")
    finally:
        brain.close()
