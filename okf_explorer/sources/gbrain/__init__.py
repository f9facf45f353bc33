"""A gbrain-compatible MCP server as a page source.

- `source`: `McpSource`, the `PageSource` (listing, pages, concurrent scans);
- `transport`: JSON-RPC over streamable HTTP (session, replies, errors, a URL's
  credentials kept off the screen), over `http` (a deadline per request, a cap per
  reply, bounded JSON);
- `payloads`: tool replies decoded into pages and typed errors; `graph`: the
  server's stored link graph;
- `write` (`GbrainWriter`) and `contract` (what `put_page` takes and stores);
- `fast_httpx`: httpx without its CLI.
"""
