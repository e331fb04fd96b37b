"""``GET /metrics``: the process's Prometheus metrics in the text exposition format."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from app.observability.metrics import CONTENT_TYPE, Metrics

router = APIRouter(tags=["operations"])


@router.get(
    "/metrics",
    response_class=Response,
    responses={200: {"description": "Prometheus text format", "content": {"text/plain": {}}}},
)
async def metrics(request: Request) -> Response:
    """Requests, node latencies, routes, relaxations, not-found answers, LLM calls and failures, degradations,
    store errors and ingest counts, each workspace's under its ``workspace`` label: one registry for the process,
    whatever workspace the request names (a key is needed with ``AER_METRICS_REQUIRE_KEY``)."""
    request.state.action = "metrics"
    metrics: Metrics = request.app.state.resources.metrics
    return Response(metrics.render(), media_type=CONTENT_TYPE)
