"""Every tool `serve` publishes, in the order `tools/list` gives them: gbrain's read
tools (`server.tools`), then the ones only okf-explorer has (`server.navigation`).

`call_tool` is what the transports call: `tools.call_tool` over this whole catalog.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from okf_explorer.core.port import CancelCheck
from okf_explorer.server import tools
from okf_explorer.server.navigation import NAVIGATION_SPECS, NAVIGATION_TOOLS
from okf_explorer.server.shapes import ContextCache
from okf_explorer.server.tools import BrainTools, Tool, ToolReply

TOOLS: dict[str, Tool] = {**tools.TOOLS, **NAVIGATION_TOOLS}
TOOL_SPECS: dict[str, dict[str, Any]] = {**tools.TOOL_SPECS, **NAVIGATION_SPECS}


def call_tool(
    brain: BrainTools,
    name: str,
    arguments: Mapping[str, Any] | None,
    *,
    contexts: ContextCache | None = None,
    cancel: CancelCheck | None = None,
    shapes: str = tools.GBRAIN_CURRENT,
    show_private: bool = False,
) -> ToolReply:
    """Run one tool of the catalog (`tools.call_tool`: never raises)."""
    return tools.call_tool(
        brain,
        name,
        arguments,
        contexts=contexts,
        cancel=cancel,
        tools=TOOLS,
        specs=TOOL_SPECS,
        shapes=shapes,
        show_private=show_private,
    )


__all__ = ["TOOLS", "TOOL_SPECS", "call_tool"]
