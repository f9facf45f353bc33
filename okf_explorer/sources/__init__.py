"""Page sources: a folder on disk (`bundle`) or a gbrain-compatible MCP server (`mcp`).

Everything above this package is handed a `PageSource` and never asks which kind.
"""
