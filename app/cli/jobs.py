"""``aer jobs``: an ingest job's status, progress and outcomes."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from app.cli.base import ApiKeyOption, ServerOption, WorkspaceOption, opened, refused, remote, route

jobs_cli = typer.Typer(no_args_is_help=True, help="Ingest jobs (uploads and large add-documents requests).")



def running_for(job: dict[str, Any]) -> str:
    """``running for 1m05s, `` (since the job started), or nothing when it has no start time."""
    from datetime import UTC, datetime

    from graphs.ingest.progress import duration

    started = job.get("startedAt")
    if not started:
        return ""
    return f"running for {duration((datetime.now(UTC) - datetime.fromisoformat(started)).total_seconds())}, "


@jobs_cli.command("list")
def jobs_list(
    unfinished: Annotated[bool, typer.Option("--unfinished", help="Only the queued and running jobs.")] = False,
    limit: Annotated[int, typer.Option("--limit", min=1, max=50, help="The newest N jobs.")] = 20,
    as_json: Annotated[bool, typer.Option("--json", help="Print the jobs as JSON.")] = False,
    server: ServerOption = None,
    api_key: ApiKeyOption = None,
    workspace: WorkspaceOption = None,
) -> None:
    """List the newest ingest jobs, newest first: status and progress (a job that a restart resumed too)."""
    from app.services.documents import list_jobs

    if server := route(server):
        with remote(server, workspace, api_key) as client:
            found = client.jobs(limit, unfinished=unfinished)
    else:
        with opened(workspace=workspace) as resources:
            found = [view.model_dump(by_alias=True, mode="json")
                     for view in list_jobs(resources, limit, unfinished=unfinished)]
    if as_json:
        typer.echo(json.dumps(found, ensure_ascii=False, indent=2))
        return
    if not found:
        typer.echo("no unfinished ingest job" if unfinished else "no ingest job")
        return
    for job in found:
        p = job["progress"]
        typer.echo(f"{job['id']}  {job['status']:<7}  {job['kind']:<13}  {job['createdAt']}  "
                   f"{p['total'] - p['pending']}/{p['total']} document(s)"
                   + (f", {p['failed']} failed" if p["failed"] else "")
                   + (f", resumed {job['resumed']}x after a restart" if job["resumed"] else ""))
    typer.echo("details: aer jobs show JOB_ID")


@jobs_cli.command("cancel")
def jobs_cancel(
    job_id: str,
    server: ServerOption = None,
    api_key: ApiKeyOption = None,
    workspace: WorkspaceOption = None,
) -> None:
    """Cancel a queued or running ingest job: it stops before its next document; the documents it wrote stay
    in the index, the pending ones are not ingested."""
    from app.services.documents import cancel_job, show_job

    if server := route(server):
        with remote(server, workspace, api_key) as client:
            job = client.cancel_job(job_id)
    else:
        with opened(workspace=workspace) as resources:
            status = cancel_job(resources, job_id)
            if status is None:
                raise refused("job_not_found", f"no job {job_id!r}")
            if status != "cancelled":
                raise refused("job_finished", f"job {job_id!r} has already finished ({status}); nothing to cancel")
            view = show_job(resources, job_id, 0, 0)
            assert view is not None
            job = view.model_dump(by_alias=True, mode="json")
    typer.echo(cancel_summary(job))


def cancel_summary(job: dict[str, Any]) -> str:
    """What a cancel left: the documents written (they stay), those of the batch being written when it came (they
    go in still: ``aer jobs show`` counts them once written) and those not ingested."""
    p = job["progress"]
    writing = p.get("writing", 0)
    parts = [f"{p['done']} of {p['total']} document(s) written (they stay in the index)"]
    if p.get("skipped"):
        parts.append(f"{p['skipped']} unchanged, skipped")
    if p.get("failed"):
        parts.append(f"{p['failed']} failed")
    if writing:
        parts.append(f"{writing} being written when the cancel came (they go in still; "
                     f"`aer jobs show {job['id']}` counts them once written)")
    parts.append(f"{p['pending'] - writing} not ingested")
    return f"job {job['id']} cancelled: " + ", ".join(parts)


@jobs_cli.command("show")
def jobs_show(
    job_id: str,
    as_json: Annotated[bool, typer.Option("--json", help="Print the job as JSON.")] = False,
    server: ServerOption = None,
    api_key: ApiKeyOption = None,
    workspace: WorkspaceOption = None,
) -> None:
    """Show an ingest job: status, progress and each document's outcome."""
    from app.services.documents import show_job

    job: dict[str, Any] | None
    if server := route(server):
        with remote(server, workspace, api_key) as client:
            job = client.job(job_id, limit=500)
    else:
        with opened(workspace=workspace) as resources:
            view = show_job(resources, job_id, 0, 500)
            job = view.model_dump(by_alias=True, mode="json") if view else None
    if job is None:
        raise refused("job_not_found", f"no job {job_id!r}")
    if as_json:
        typer.echo(json.dumps(job, ensure_ascii=False, indent=2))
        return
    from graphs.ingest.progress import duration

    p = job["progress"]
    typer.echo(f"job {job['id']} ({job['kind']}): {job['status']}" + (f" — {job['error']}" if job["error"] else "")
               + (f"; resumed {job['resumed']}x after a restart" if job["resumed"] else ""))
    typer.echo(f"{p['done']} done, {p['skipped']} skipped, {p['failed']} failed, {p['pending']} pending of "
               f"{p['total']}; {p['chunks']} chunk(s), {p['chunksPerS'] or 0} chunks/s"
               + (f", ETA {duration(p['etaS'])}" if p.get("etaS") is not None
                  else f", {running_for(job)}no estimate yet" if job["status"] == "running" else ""))
    if p.get("stage"):
        typer.echo(f"now {p['stage']}")
    if p.get("writing"):
        typer.echo(f"{p['writing']} document(s) being written when the cancel came: they go in still")
    for o in job["documents"]:
        typer.echo(f"  {o['status']:<8} {o['id']}" + (f" ({o['chunks']} chunk(s))" if o["chunks"] else "")
                   + (f" — {o['error']}" if o["error"] else ""))
