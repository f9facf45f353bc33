"""Auditing a server's graph against the files it was loaded from, cause by cause.

- `compare`: every difference between the two sides with its cause (`compare`,
  `run_compare`, `CAUSES`);
- `model`: the records of each side and of a difference, and `ServerImporter`, what the
  audit needs of the server's importer (gbrain's is `sources.gbrain.importer`, handed in
  by `sources.audit_gather` or, for one page, by the source: `ImportedServer`);
- `page`: one page's audit, for the explorer (`PageView`, `RunViews`, `PageAuditor`).
"""
