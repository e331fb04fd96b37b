"""``aer ingest FOLDER`` after a file was renamed in the folder: the document takes the new name (the old id is
removed, ``renamed:`` says so) instead of a second copy that stays until ``--prune``; an edited and renamed file,
or a copy beside the original, stays a document of its own."""

from __future__ import annotations

import json
from pathlib import Path
from unittest import mock

from langchain_core.embeddings import DeterministicFakeEmbedding
from typer.testing import CliRunner, Result

from app import container
from app.cli import cli


def aer(data_dir: Path, *args: str) -> Result:
    fake = DeterministicFakeEmbedding(size=32)  # the real model would cost seconds per command
    with mock.patch.object(container, "build_embedder", lambda _settings: (fake, 32, "fake-embedder")):
        return CliRunner().invoke(cli, list(args), env={"AER_DATA_DIR": str(data_dir)}, catch_exceptions=False)


def ids(data_dir: Path) -> set[str]:
    result = aer(data_dir, "documents", "list", "--json")
    assert result.exit_code == 0, result.output
    return {d["id"] for d in json.loads(result.stdout)["documents"]}


def test_a_file_renamed_in_the_folder_renames_its_document(tmp_path: Path) -> None:
    notes, data = tmp_path / "notes", tmp_path / "data"
    (notes / "kiln").mkdir(parents=True)
    (notes / "kiln" / "firing.md").write_text("# Firing\n\nThe kiln is fired every Tuesday at 900 degrees.\n",
                                              encoding="utf-8")
    (notes / "glaze_log.txt").write_text("2026-04-02 the celadon batch was mixed.\n", encoding="utf-8")
    (notes / "hours.md").write_text("# Hours\n\nThe studio opens at nine.\n", encoding="utf-8")
    assert aer(data, "ingest", str(notes)).exit_code == 0

    (notes / "kiln" / "firing.md").rename(notes / "kiln" / "kiln-schedule.md")
    (notes / "glaze_log.txt").rename(notes / "celadon_log.txt")  # its title comes from the name: it follows
    (notes / "hours.md").rename(notes / "opening-hours.md")
    (notes / "opening-hours.md").write_text("# Hours\n\nThe studio opens at ten.\n", encoding="utf-8")  # edited too
    # a copy beside the original, edited (a byte-for-byte copy is a duplicate: ingested once, said by a line)
    (notes / "copy.md").write_text("# Hours\n\nThe studio opens at ten.\n\nCopied for the front desk.\n",
                                   encoding="utf-8")
    (notes / "opening-hours (1).md").write_bytes((notes / "opening-hours.md").read_bytes())
    again = aer(data, "ingest", str(notes))
    assert "duplicate: opening-hours (1).md (the same bytes as opening-hours.md" in again.stderr
    assert again.exit_code == 0, again.output
    assert "renamed: kiln/firing.md -> kiln/kiln-schedule.md" in again.stderr
    assert "renamed: glaze_log.txt -> celadon_log.txt" in again.stderr and "; renamed 2" in again.stdout
    assert ids(data) == {"kiln/kiln-schedule.md", "celadon_log.txt", "hours.md", "opening-hours.md", "copy.md"}
    shown = aer(data, "documents", "show", "celadon_log.txt", "--json")
    assert '"title": "celadon log"' in shown.stdout


def test_through_a_server_a_renamed_file_renames_its_document_too(tmp_path: Path) -> None:
    """``aer ingest FOLDER`` beside ``aer serve`` goes through the server: the same rename is found there (the new
    files read here, compared with the inventory's content hashes) and the old id deleted over the API."""
    from tests.support.apps import cli_through, running_app

    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "rota.md").write_text("# Rota\n\nMina opens the studio on Fridays.\n", encoding="utf-8")
    (notes / "prices.md").write_text("# Prices\n\nA wheel session costs 25 euros.\n", encoding="utf-8")
    with running_app(tmp_path / "served") as app_client:
        server = ["--server", "http://aer.test"]
        with cli_through(app_client):
            first = aer(tmp_path / "unused", "ingest", str(notes), *server)
            assert first.exit_code == 0, first.output
            (notes / "rota.md").rename(notes / "friday-rota.md")
            again = aer(tmp_path / "unused", "ingest", str(notes), *server)
            assert again.exit_code == 0, again.output
            assert "renamed: rota.md -> friday-rota.md" in again.stderr and "; renamed 1" in again.stdout
            listed = aer(tmp_path / "unused", "documents", "list", "--json", *server)
            assert {d["id"] for d in json.loads(listed.stdout)["documents"]} == {"friday-rota.md", "prices.md"}
