"""Page sources: a folder on disk (`folder/`) or a gbrain-compatible MCP server (`gbrain/`).

`factory` opens one from what the user typed (and names the writer that saves into
it); `frontmatter` (with `bounded_yaml`) reads a page's YAML frontmatter for both.
Everything above this package is handed a `PageSource` and never asks which kind.
"""
