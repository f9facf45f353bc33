"""The old name of `fast_httpx`, still imported by `server/__init__.py` (owned by the
MCP SDK 2.x migration): delete it once that import names `fast_httpx`."""

from __future__ import annotations

from okf_explorer.sources.fast_httpx import httpx

__all__ = ["httpx"]
