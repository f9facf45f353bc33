"""The link index of a brain: every page's summary and resolved links, and the walk tables.

- `model`: the records (`LinkIndex`, `ResolvedLink`), each owning its plain row;
- `build`: `build_index`, one incremental scan of a source, the links resolved (in
  the scan workers where the source can) and the walk tables filled;
- `store`: the disk cache (`IndexCache`) and what one build hands the next.
"""
