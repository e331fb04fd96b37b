"""The knowledge graph: entity and document nodes with mention, title-link, co-occurrence,
related-entity and hierarchy edges, kept in step with ingest and delete."""
