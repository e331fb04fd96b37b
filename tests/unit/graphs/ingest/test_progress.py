"""Progress of a long ingest off a terminal: log lines with the count, the rate and the time left."""

from __future__ import annotations

import io
import logging

import pytest

from graphs.ingest.progress import Progress, duration


def test_off_a_terminal_progress_is_logged_with_count_rate_and_eta(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="graphs.ingest.progress")
    progress = Progress(100, desc="ingest", stream=io.StringIO(), every_s=0.0)
    progress.update(40, 120)
    progress.close()
    first, last = caplog.messages[0], caplog.messages[-1]
    assert first.startswith("ingest: 40/100 documents, 120 chunks, ") and " chunks/s, ETA " in first
    assert last.startswith("ingest: 40/100 documents, 120 chunks") and "finished in" in last


def test_on_a_terminal_it_is_a_tqdm_bar(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="graphs.ingest.progress")
    stream = io.StringIO()
    progress = Progress(10, stream=stream, tty=True)
    progress.update(5, 7)
    progress.close()
    assert "5/10" in stream.getvalue() and caplog.messages == []


@pytest.mark.parametrize(("seconds", "text"), [(42, "42s"), (185, "3m05s"), (3720, "1h02m")])
def test_duration(seconds: float, text: str) -> None:
    assert duration(seconds) == text


def test_without_chunk_counts_the_rate_is_in_documents(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="graphs.ingest.progress")
    progress = Progress(10, stream=io.StringIO(), every_s=0.0)
    progress.update(4)
    assert " documents/s, ETA " in caplog.messages[0] and "chunks" not in caplog.messages[0]
