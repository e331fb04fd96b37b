"""``GET /api/adaptive-entity-rag/evaluations``: the latest ``aer eval`` reports in ``AER_EVAL_RESULTS_DIR``
(read-only), and each report's chart."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter
from fastapi.responses import FileResponse

from app.api.deps import ResourcesDep
from app.api.errors import ApiError
from app.schemas import API_PATH, EvalReports
from app.services.evaluations import read_reports, report_files

router = APIRouter(prefix=API_PATH, tags=["adaptive-entity-rag"])


@router.get("/evaluations")
async def evaluations(resources: ResourcesDep) -> EvalReports:
    """The latest ``aer eval`` report of each dataset (tables, notes, whether a chart exists)."""
    folder = resources.settings.eval_results_dir
    return await asyncio.to_thread(read_reports, folder)


@router.get(
    "/evaluations/{dataset}/chart",
    response_class=FileResponse,
    responses={200: {"content": {"image/png": {}}, "description": "The report's bar chart (PNG)."}},
)
async def evaluation_chart(resources: ResourcesDep, dataset: str) -> FileResponse:
    """The bar chart of a dataset's report; 404 when there is no such report or it has no chart."""
    folder = resources.settings.eval_results_dir
    # Only names found in the folder are served: a dataset is never joined into a path.
    path = (await asyncio.to_thread(report_files, folder)).get(dataset)
    chart = path.with_suffix(".png") if path is not None else None
    if chart is None or not chart.is_file():
        raise ApiError(404, "not_found", f"no chart for an evaluation named {dataset!r}")
    return FileResponse(chart, media_type="image/png")
