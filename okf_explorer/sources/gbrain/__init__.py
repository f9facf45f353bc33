"""A gbrain-compatible MCP server as a page source: transport, replies, writes."""
