"""The use cases that the routes, the CLI, the MCP tools and the page call: ``query`` (answer, stream, resolve a
chat's question), ``chat`` and ``chat_tasks`` (the OpenAI-compatible chat's follow-ups and background tasks),
``documents`` (add, upload checks and jobs, folders, the inventory), ``entities`` (add, remove aliases, delete,
list), ``reindex`` (index maintenance), ``workbench`` (the page's knowledge graph and evaluation jobs) and
``evaluations`` (the ``aer eval`` reports). No transport here: they raise domain errors, the callers map them."""
