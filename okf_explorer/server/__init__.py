"""The MCP server (`okf-explorer serve`): gbrain's read-only tools over any PageSource.

`run_server(brain, host=, port=, stdio=, token=)` is the one entry the CLI uses;
`tools.call_tool` is the transport-free tool logic. Importing this package is
cheap: the MCP SDK (mcp 2.x, which uses httpx2, not httpx), Starlette and uvicorn
load only when a server starts.
"""

from okf_explorer.server.run import run_server

__all__ = ["run_server"]
