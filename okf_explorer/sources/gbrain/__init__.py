"""A gbrain-compatible MCP server as a page source.

- `source`: `McpSource`, the `PageSource` (listing, pages, concurrent scans, the
  server's stored link graph);
- `transport`: JSON-RPC over streamable HTTP (session, replies, errors, a URL's
  credentials kept off the screen), over `http` (a deadline per request, a cap per
  reply, bounded JSON);
- `payloads`: tool replies decoded into pages, typed errors and graph rows;
- `write` (`GbrainWriter`) and `contract` (what `put_page` takes and stores);
- `importer`: how gbrain's import names and skips files and its extractor reads links,
  as the audit models them (`GBRAIN`);
- `fast_httpx`: httpx without its CLI.
"""
