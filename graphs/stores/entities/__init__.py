"""The entity store: the matcher that serves lookups (``matcher``) and its backends, SQLite (``sqlite_store``,
the default) and Redis (``redis_store``)."""
