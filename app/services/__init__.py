"""The use cases that the routes, the CLI, the MCP tools and the page call: query, chat, documents, entities,
index maintenance (reindex) and the workbench."""
