"""``aer ingest`` prints the names the ingest linked across scripts, each with why, and says when linking failed
(the job and the synchronous answer carry them as ``linked`` / ``linkError``)."""

from __future__ import annotations

import pytest

from app.cli.ingest import show_links
from app.services.documents import report_body
from graphs.ingest.pipeline import IngestReport


def test_the_links_and_a_link_failure_are_printed(capsys: pytest.CaptureFixture[str]) -> None:
    show_links(["水月港 = Shuiyue Harbour (linked by pinyin: 水月港 reads shuiyue, 港 translates Harbour)"],
               ["names not linked across scripts: the entity store is unavailable"])
    out, err = capsys.readouterr()
    assert out == "linked: 水月港 = Shuiyue Harbour (linked by pinyin: 水月港 reads shuiyue, 港 translates Harbour)\n"
    assert "not linked: names not linked across scripts" in err


def test_the_synchronous_answer_carries_the_links() -> None:
    report = IngestReport(documents=2, chunks=2, linked=["水月港 = Shuiyue Harbour (linked by pinyin: …)"])
    body = report_body(report)
    assert body["linked"] == report.linked and body["linkError"] is None
