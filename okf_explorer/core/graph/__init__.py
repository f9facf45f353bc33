"""The link graph: who answers, how a walk goes, and what the whole graph says.

- `backends`: the one `Graph` protocol a `Brain` asks, and its two backends,
  `IndexBacked` (the index a scan built) and `ServerBacked` (a server's stored graph,
  with its listing);
- `traverse`: `Edge` and its SPEC §5 record (`edge_records`), directions, depth, and
  the breadth-first walk (`traverse_with`) every backend runs;
- `analysis`: orphans, dead ends, dangling targets, hubs, shortest paths, the
  networkx graph, `brain_stats`, and `choose_start` (the first page to show);
- `shape`: what the whole graph says (`analyze`): communities (`louvain`), central
  pages (`pagerank`), bridges, and suggested links (`suggested`), all on one
  `projection` of the index;
- `implied`: the inverse relations and the implied edges they give;
- `paths`: the k shortest paths between two pages (`PathGraphs`) and what each hop is;
- `best_paths`: link weights, and weighted walks from several roots, the best path per page;
- `trail`: the pages a person visited and its export.
"""
