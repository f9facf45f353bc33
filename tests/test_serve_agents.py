"""The agents' tools (issue 26) on the wire: a real `serve` over loopback HTTP and a
`serve --stdio` subprocess answer each tool as the CLI prints the same question, on
the sample brain (default tier) and on a generated 10k-page bundle (slow); and the
client (`McpSource`) takes dangling targets from a server's `wanted_pages` instead of
scanning its pages' bodies."""

from __future__ import annotations

import importlib.util
import json
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from okf_explorer.core.brain import Brain
from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.sources.gbrain.source import McpSource
from tests.conftest import SAMPLE_BRAIN
from tests.mcp_server_fixture import (
    MCP_HEADERS,
    ServerHandle,
    serve_bundle,
    stdio_command,
    subprocess_env,
)
from tests.mcp_server_fixture import stdio_session as stdio_messages

Run = Callable[..., tuple[int, str, str]]
GEN_BUNDLE = Path(__file__).resolve().parent / "bench" / "gen_bundle.py"


# -- the two transports -------------------------------------------------------------------


def over_http(server: ServerHandle, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    """The decoded payload of each call, one POST each."""
    answers = []
    with httpx.Client(timeout=60) as http:
        for number, (name, arguments) in enumerate(calls, 1):
            body = {
                "jsonrpc": "2.0",
                "id": number,
                "method": "tools/call",
                "params": {"name": name, "arguments": arguments},
            }
            response = http.post(server.url, json=body, headers=MCP_HEADERS)
            (data,) = [line for line in response.text.splitlines() if line.startswith("data: ")]
            answers.append(decoded(json.loads(data[len("data: ") :])))
    return answers


def over_stdio(root: Path, work: Path, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    """The decoded payload of each call, all in one `serve --stdio` session."""
    session = stdio_messages(*({"name": n, "arguments": a} for n, a in calls))
    done = subprocess.run(
        stdio_command(root),
        input=session,
        env=subprocess_env(work),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    replies = {m["id"]: m for m in map(json.loads, done.stdout.splitlines()) if "id" in m}
    return [decoded(replies[number]) for number in range(1, len(calls) + 1)]


def decoded(message: dict[str, Any]) -> Any:
    result = message["result"]
    assert not result.get("isError"), result
    (item,) = result["content"]
    return json.loads(item["text"])


# -- what the CLI prints ----------------------------------------------------------------------


def cli(run: Run, root: Path, *argv: str) -> str:
    status, out, err = run(*argv, "--source", str(root))
    assert status == 0, err
    return out


def explain_records(out: str) -> list[dict[str, Any]]:
    """`links --explain` lines as `explain_links` records."""
    records = []
    for line in out.splitlines():
        frm, written, to, rule, *candidates = line.split("\t")
        records.append(
            {
                "from": frm,
                "written": None if written == "-" else written,
                "to": to,
                "rule": None if rule == "-" else rule,
                "candidates": candidates,
            }
        )
    return records


def wanted_of(dangling: dict[str, list[str]]) -> list[tuple[str, int, list[str]]]:
    """`stats --json`'s dangling targets as `wanted_pages` rows: target, count, sample."""
    rows = [(target, len(froms), froms[:3]) for target, froms in dangling.items()]
    return sorted(rows, key=lambda row: (-row[1], row[0]))


def wanted_rows(reply: dict[str, Any]) -> list[tuple[str, int, list[str]]]:
    return [
        (row["target"], row["referenced_by"], [o["slug"] for o in row["sample_origins"]])
        for row in reply["targets"]
    ]


def pages_cut(shape: dict[str, Any]) -> dict[str, Any]:
    """`analyze --json` as the tool answers it: each community's pages cut to the cap."""
    from okf_explorer.server.navigation import ANALYZE_PAGES_CAP

    for community in shape["communities"]:
        community["pages"] = community["pages"][:ANALYZE_PAGES_CAP]
    return shape


class Questions:
    """Each tool call beside the CLI command asking the same, and how to compare."""

    def __init__(self, root: Path, run: Run) -> None:
        self.root, self.run = root, run
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.expected: list[Any] = []
        self.seen: list[Callable[[Any], Any]] = []

    def ask(
        self,
        name: str,
        arguments: dict[str, Any],
        expected: Any,
        seen: Callable[[Any], Any] = lambda answer: answer,
    ) -> None:
        self.calls.append((name, arguments))
        self.expected.append(expected)
        self.seen.append(seen)

    def json(self, *argv: str) -> Any:
        return json.loads(cli(self.run, self.root, *argv, "--json"))

    def check(self, answers: list[Any]) -> None:
        assert len(answers) == len(self.calls)
        for (name, arguments), expected, seen, answer in zip(
            self.calls, self.expected, self.seen, answers, strict=True
        ):
            assert seen(answer) == expected, (name, arguments)


def questions(root: Path, run: Run, pages: dict[str, str]) -> Questions:
    """The questions of every tool about `pages` (roles → slugs of the bundle)."""
    asked = Questions(root, run)
    frm, to, page, root_spec = pages["from"], pages["to"], pages["page"], pages["root"]
    asked.ask(
        "find_paths",
        {"from": frm, "to": to, "k": 3, "direction": "any", "avoid": ["hubs"]},
        asked.json("path", frm, to, "--k", "3", "--direction", "any", "--avoid", "hubs"),
    )
    asked.ask("find_paths", {"from": frm, "to": to}, asked.json("path", frm, to))
    asked.ask(
        "best_paths",
        {"roots": [page, root_spec], "depth": 2},
        asked.json("walk", "--root", page, "--root", root_spec, "--depth", "2"),
    )
    asked.ask(
        "best_paths",
        {"roots": [page], "depth": 2, "rel": ["derived_from"]},
        asked.json("walk", "--root", page, "--depth", "2", "--rel", "derived_from"),
    )
    asked.ask("analyze", {"top": 5}, pages_cut(asked.json("analyze", "--top", "5")))
    asked.ask(
        "explain_links",
        {"slug": page},
        explain_records(cli(run, root, "links", page, "--explain")),
    )
    stats = asked.json("stats")
    asked.ask("graph_stats", {}, stats)
    asked.ask("find_mentions", {"slug": page}, asked.json("mentions", page))
    asked.ask("find_mentions", {"slug": to}, asked.json("mentions", to))
    asked.ask("wanted_pages", {"limit": 100}, wanted_of(stats["dangling"])[:100], wanted_rows)
    asked.ask(
        "memory_navigate",
        {"op": "links", "slug": page},
        cli(run, root, "links", page).splitlines(),
    )
    asked.ask(
        "memory_navigate",
        {"op": "backlinks", "slug": to},
        cli(run, root, "links", to, "--backlinks").splitlines(),
    )
    brain = Brain(BundleSource(root), cache_dir=False)
    try:
        pack = brain.context_pack(page, 2, 8000)
    finally:
        brain.close()
    asked.ask("build_context", {"slug": page, "depth": 2, "budget_chars": 8000}, pack)
    return asked


SAMPLE = {"from": "metrics/revenue", "to": "teams/data-platform", "page": "tables/orders",
          "root": "tag:core"}  # fmt: skip


@pytest.fixture(scope="module")
def sample_server() -> Iterator[ServerHandle]:
    with serve_bundle(SAMPLE_BRAIN) as server:
        yield server


def test_every_tool_over_http_answers_as_the_cli(sample_server: ServerHandle, run: Run) -> None:
    asked = questions(SAMPLE_BRAIN, run, SAMPLE)
    asked.check(over_http(sample_server, asked.calls))


def test_every_tool_over_stdio_answers_as_the_cli(run: Run, tmp_path: Path) -> None:
    asked = questions(SAMPLE_BRAIN, run, SAMPLE)
    asked.check(over_stdio(SAMPLE_BRAIN, tmp_path, asked.calls))


@pytest.mark.slow
def test_every_tool_at_10k_pages_over_both_transports(
    tmp_path_factory: pytest.TempPathFactory, run: Run
) -> None:
    root = tmp_path_factory.mktemp("agents10k") / "brain"
    spec = importlib.util.spec_from_file_location("gen_bundle", GEN_BUNDLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.generate(root, 10_000, seed=1)
    pages = {"from": "notes/daily/page-009264", "to": "notes/common-2",
             "page": "page-006572", "root": "type:table"}  # fmt: skip
    asked = questions(root, run, pages)
    with serve_bundle(root) as server:
        asked.check(over_http(server, asked.calls))
    asked.check(over_stdio(root, tmp_path_factory.mktemp("work"), asked.calls))


# -- the client takes dangling targets from wanted_pages -------------------------------------


def test_the_client_asks_wanted_pages_instead_of_scanning(
    sample_server: ServerHandle, counting_proxy: Any
) -> None:
    proxy = counting_proxy(sample_server.url)
    source = McpSource(proxy.url, token=None, token_source="no token")
    brain = Brain(source, cache_dir=False)
    folder = Brain(BundleSource(SAMPLE_BRAIN), cache_dir=False)
    try:
        served, local = brain.wanted_pages(), folder.wanted_pages()
    finally:
        brain.close()
        folder.close()
    assert [(w.target, w.referenced_by, w.link_types) for w in served] == [
        (w.target, w.referenced_by, w.link_types) for w in local
    ]
    assert [w.origins for w in served] == [w.origins[:3] for w in local]
    assert all(w.first_seen and w.last_checked for w in served)
    assert proxy.count("wanted_pages") >= 1
    assert proxy.count("get_page") == 0 and proxy.count("list_pages") == 0


def test_a_server_without_wanted_pages_is_scanned(tmp_path: Path, counting_proxy: Any) -> None:
    """--scan (or a server that lists no `wanted_pages`) reads the pages' bodies."""
    with serve_bundle(SAMPLE_BRAIN) as server:
        proxy = counting_proxy(server.url)
        brain = Brain(
            McpSource(proxy.url, token=None, token_source="x"), scan=True, cache_dir=False
        )
        try:
            scanned = brain.wanted_pages()
        finally:
            brain.close()
    assert proxy.count("wanted_pages") == 0 and proxy.count("get_page") > 0
    assert {w.target for w in scanned} >= {"tables/loyalty_points"}


def test_best_paths_walks_relations_and_implied_edges_as_walk_does(
    tmp_path: Path, run: Run
) -> None:
    """`best_paths` with `rel` and `implied` (issue 27 §4) answers as `walk --rel
    --implied`; on the shape vault the implied `employs` edges change the answer."""
    from tests.shape_vault import make_shape_vault

    root = make_shape_vault(tmp_path / "vault")
    asked = Questions(root, run)
    plain = asked.json("walk", "--root", "companies/acme", "--depth", "2")
    implied = asked.json("walk", "--root", "companies/acme", "--depth", "2", "--implied")
    assert plain != implied
    asked.ask("best_paths", {"roots": ["companies/acme"], "depth": 2, "implied": True}, implied)
    asked.ask(
        "best_paths",
        {"roots": ["garden/tulip"], "depth": 2, "rel": ["next"]},
        asked.json("walk", "--root", "garden/tulip", "--depth", "2", "--rel", "next"),
    )
    with serve_bundle(root) as server:
        asked.check(over_http(server, asked.calls))
