"""Domain types shared by the graph, the stores and the ingest pipeline (``from graphs.domain import X``)."""

from graphs.domain.documents import *  # noqa: F403
