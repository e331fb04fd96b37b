"""Domain types shared by the graph, the stores and the ingest pipeline, one module per concern; every name is
re-exported here, so ``from graphs.domain import X`` works for all of them.

- ``model``: ``Model``, the base (camelCase on the wire, frozen)
- ``entities``: entity types, names and their checks, ``EntityMetadata``, ``EntityMatch``
- ``query``: the analysed question (``ParsedQuery``), constraints, relaxations, routing
- ``retrieval``: ``Hit``, search records, score fusion, the knowledge-graph route's nodes (``KgNode``)
- ``plan``: the master layer (teams, the plan of sub-questions, sufficiency, reflection)
- ``answer``: answerability, citations, the workflow's steps
- ``documents``: documents as ingested (checks, sections), inventory records, chunks
"""

from graphs.domain.answer import *  # noqa: F403
from graphs.domain.documents import *  # noqa: F403
from graphs.domain.entities import *  # noqa: F403
from graphs.domain.model import *  # noqa: F403
from graphs.domain.plan import *  # noqa: F403
from graphs.domain.query import *  # noqa: F403
from graphs.domain.retrieval import *  # noqa: F403
