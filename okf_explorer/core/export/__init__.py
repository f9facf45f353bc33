"""Writing what a walk found to a file: `formats` (a slice as JSON, JSON Lines, DOT,
GraphML or Mermaid, streamed, and the safe writer) and `check` (each export read back
and parsed before it replaces a file). Saving a slice or trail as a page of the brain
is `core.save`.
"""
