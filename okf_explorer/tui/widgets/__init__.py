"""The panes of the main screen, one module per widget, grouped by feature: `page/` (the
page pane and its header), `graph/` (link tree, traversal panel, paths, walks, the
local graph), `page_tree` (`f`: every page by folder), `status_bar` and `footer`."""
