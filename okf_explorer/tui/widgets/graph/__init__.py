"""The graph panes: link tree, traversal, paths, walks, backlinks, tables."""
