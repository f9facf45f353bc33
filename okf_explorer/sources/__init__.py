"""Page sources: a folder on disk (`folder/`) or a gbrain-compatible MCP server (`gbrain/`).

`factory` opens one from what the user typed (and names the writer that saves into
it); `frontmatter` reads a page's YAML frontmatter for both, within fixed bounds;
`audit_gather` audits a folder against the server loaded from it.
Everything above this package is handed a `PageSource` and never asks which kind.
"""
