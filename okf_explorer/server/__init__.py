"""The MCP server (`okf-explorer serve`): gbrain's read-only tools over any PageSource.

`run_server(brain, host=, port=, stdio=, token=)` is the one entry the CLI uses;
`tools.call_tool` is the transport-free tool logic.

The MCP SDK imports httpx, and httpx imports rich for its own CLI unless told
not to: `lean_httpx` tells it, before any module of this package imports the SDK
(a package's `__init__` always runs first). Importing this package itself is
cheap: the SDK, Starlette and uvicorn load only when a server starts.
"""

from okf_explorer.sources import lean_httpx  # noqa: F401

# isort: split
from okf_explorer.server.run import DEFAULT_HOST, DEFAULT_PORT, run_server

__all__ = ["DEFAULT_HOST", "DEFAULT_PORT", "run_server"]
