"""The server's fast encoders write exactly what the slow, reference ones write:
`frontmatter_yaml` = PyYAML's own emitter, `result_object` = the SDK's wire serialisation
of the `CallToolResult`."""

from __future__ import annotations

import json
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from mcp.types import methods

from okf_explorer.server.fast_calls import call_result, plain_tool_call, result_object
from okf_explorer.server.mcp_app import error_result, to_result
from okf_explorer.server.shapes import frontmatter_yaml
from okf_explorer.server.tools import ToolReply

pytestmark = pytest.mark.plain

YAML_TEXT = st.one_of(
    st.text(max_size=60),
    st.text(st.characters(max_codepoint=0xFFFF, exclude_categories=("Cs",)), max_size=300),
    st.sampled_from(["", "yes", "~", "- a", ": b", "#c", "a\n\nb", "\ufeff", "\u2028", "x" * 130]),
)
YAML_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), YAML_TEXT),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(YAML_TEXT, inner, max_size=3)
    ),
    max_leaves=10,
)


@settings(max_examples=250, deadline=None, derandomize=True)
@given(st.dictionaries(YAML_TEXT, YAML_VALUES, min_size=1, max_size=5))
def test_frontmatter_yaml_is_pyyaml_safe_dump(data: dict[str, Any]) -> None:
    expected = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=False)
    assert frontmatter_yaml(data) == expected


@pytest.mark.parametrize(
    "reply",
    [
        ToolReply({"slug": "a", "tags": ["x"], "n": None}),
        ToolReply([{"from_slug": "a"}], warnings=[{"code": "unknown_param", "param": "zz"}]),
        ToolReply(
            [{"from_slug": "a"}], warnings=[{"code": "truncated", "message": "m"}], truncated=True
        ),
        ToolReply({"error": "page_not_found", "message": "Page not found: x"}, True),
        ToolReply([]),
    ],
)
@pytest.mark.parametrize("version", ["2024-11-05", "2025-06-18", "2025-11-25"])
def test_result_object_is_the_sdk_serialisation(reply: ToolReply, version: str) -> None:
    """As mcp 2.x's `ServerRunner` puts a handler's result on the wire: dumped, then
    re-serialised through the negotiated version's wire model."""
    dumped = to_result(reply).model_dump(by_alias=True, mode="json", exclude_none=True)
    sdk = methods.serialize_server_result("tools/call", version, dumped)
    assert json.dumps(result_object(reply)) == json.dumps(sdk)


def test_plain_mode_sends_every_tool_call_through_the_sdk(monkeypatch: pytest.MonkeyPatch) -> None:
    call = {"name": "get_page", "arguments": {"slug": "a"}}
    item = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": call}
    monkeypatch.setenv("OKF_EXPLORER_PLAIN", "0")
    assert plain_tool_call(item) == ("get_page", {"slug": "a"})
    monkeypatch.setenv("OKF_EXPLORER_PLAIN", "1")
    assert plain_tool_call(item) is None


def test_a_failing_call_answers_as_the_sdk_handler_does() -> None:
    """A tool call that fails outside the tools (the freshness check) is `isError` with
    the error's text on both paths, written the same."""

    class Built:
        def refusal(self, name: str, arguments: Any) -> None:
            return None  # the index is built: every call runs

    class Broken:
        contexts = None
        warmer = Built()

        def current(self) -> Any:
            raise RuntimeError("index gone")

    fast = call_result(Broken(), ("get_page", {"slug": "a"}))  # type: ignore[arg-type]
    dumped = error_result("index gone").model_dump(by_alias=True, mode="json", exclude_none=True)
    sdk = methods.serialize_server_result("tools/call", "2025-11-25", dumped)
    assert json.dumps(fast) == json.dumps(sdk)
