"""Finding pages.

- `text_search`: `TextSearch`, a brain's full-text search (the server's own when it
  has one, else the local `text_index`, SQLite FTS5, with its snippets: one line
  around the hits, with bounded work);
- `query`: the query grammar and its bounds;
- `mentions`: pages naming a page without linking to it;
- `find_rank`: the finder's ranking of page names.
"""
