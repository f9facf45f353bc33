"""The graph panes, one module per widget: `link_tree` (`LinkTree`), `traversal_panel`
(`TraversalPanel`, with its backlinks view), `path_view` (`P`), `walk_view` (`w`),
`graph_panel` (`g`: the slice drawn as a graph) with its layout, `graph_layout` (columns
by hop, links as box-drawing lines), and `table_view` (`TableView`, the frame the
traversal panel and the path and walk views share)."""
