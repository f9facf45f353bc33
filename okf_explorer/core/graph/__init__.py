"""Walking the link graph: traversals, listings, stats, paths, best paths, trails."""
