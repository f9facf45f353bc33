"""Writing what a walk found: `formats` (a slice as JSON, JSON Lines, DOT, GraphML or
Mermaid, streamed, and the safe writer), `check` (each export read back and parsed
before it replaces a file) and `saved_page` (a slice or trail as a page saved back
into a brain, through the port's `PageWriter`).
"""
