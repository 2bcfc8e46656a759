"""The web edges: HTML pages, the JSON API and the WebSocket; thin over companion.tables."""
