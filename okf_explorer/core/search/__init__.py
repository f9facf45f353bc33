"""Finding pages: the full-text index and search, the query, ranking, mentions."""
