"""The web page at ``/`` (ask, see the route, manage documents and entities, read evaluations) and its static
files at ``/static``: hand-written HTML/CSS/JS plus vendored libraries (app/web/static/vendor), no CDN."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

WEB_DIR = Path(__file__).resolve().parents[2] / "web"
STATIC_PATH = "/static"
# Everything the page loads comes from this server: no CDN, no external font, nothing inline to inject into.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; connect-src 'self'; "
    "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)
PAGE_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "Cache-Control": "no-cache",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}

router = APIRouter(include_in_schema=False)


@router.api_route("/", methods=["GET", "HEAD"])
async def page() -> FileResponse:
    """The page (the API key, when one is needed, is asked for there and kept in the tab's sessionStorage)."""
    return FileResponse(WEB_DIR / "index.html", media_type="text/html", headers=PAGE_HEADERS)


def install_page(app: FastAPI) -> None:
    """Serve the page at ``/`` and its assets at ``/static`` (open, like ``/docs``: they hold no data)."""
    app.include_router(router)
    app.mount(STATIC_PATH, StaticFiles(directory=WEB_DIR / "static"), name="static")
