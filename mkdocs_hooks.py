"""MkDocs hook: the site's home page is the README, its links made relative to docs/ (``docs/api.md`` ->
``api.md``), so the README stays the one place that guides a new user and the site cannot drift from it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent


def readme_for_site(text: str) -> str:
    """The README with its ``docs/...`` links and images pointing inside the site."""
    return re.sub(r"\]\(docs/", "](", text)


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    if page.file.src_uri == "index.md":
        return readme_for_site((ROOT / "README.md").read_text(encoding="utf-8"))
    return markdown
