"""The own-material generators (``tests/data/newuser*/``, ``multihop_own/``, ``span_own/``, ``roles_own/``, ``xlang_own2/`` and ``3/``:
``make_files.py``, then the questions script) share ``tests.support.own_material`` and still write exactly the committed sets: every
questions.jsonl and every text, CSV, Markdown and HTML file byte for byte (PDF and DOCX carry the time they were
written, unless a set writes them ``stable``; their text is checked by the trial's own tests)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SETS = ("newuser", "newuser2", "newuser3", "newuser4", "newuser5", "multihop_own", "newuser6", "newuser7",
        "span_own", "xlang_own2", "newuser8", "fields_own", "newuser9", "roles_own", "xlang_own3", "newuser10", "newuser16")
STAMPED = {".pdf", ".docx"}
# written with ``stable=True``: PDF and DOCX byte for byte too
STABLE = {"newuser6", "newuser7", "span_own", "xlang_own2", "newuser8", "newuser9", "roles_own", "xlang_own3",
          "newuser10"}


@pytest.mark.parametrize("name", SETS)
def test_a_generator_writes_the_committed_files(tmp_path: Path, name: str) -> None:
    (tmp_path / "tests" / "support").mkdir(parents=True)
    for part in ("tests/__init__.py", "tests/support/__init__.py", "tests/support/own_material.py"):
        shutil.copy(ROOT / part, tmp_path / part)
    folder = tmp_path / "tests" / "data" / name
    folder.mkdir(parents=True)
    scripts = sorted(p.name for p in (ROOT / "tests" / "data" / name).glob("*.py"))
    assert "make_files.py" in scripts
    for script in ["make_files.py", *(s for s in scripts if s != "make_files.py")]:
        shutil.copy(ROOT / "tests" / "data" / name / script, folder / script)
        done = subprocess.run([sys.executable, str(folder / script)], cwd=tmp_path, capture_output=True, text=True,
                              timeout=300, check=False)
        assert done.returncode == 0, done.stderr
    committed = ROOT / "tests" / "data" / name

    def made(base: Path) -> list[Path]:
        return sorted([Path("questions.jsonl"), *(p.relative_to(base) for p in (base / "files").rglob("*")
                                                  if p.is_file())])

    assert made(folder) == made(committed)
    for path in made(folder):
        if path.suffix not in STAMPED or name in STABLE:
            assert (folder / path).read_bytes() == (committed / path).read_bytes(), path
