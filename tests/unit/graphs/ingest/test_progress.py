"""Progress of a long ingest off a terminal: log lines with the count, the rate and the time left."""

from __future__ import annotations

import io
import logging

import pytest

from graphs.ingest.progress import BatchSizer, Progress, duration


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


def test_batches_start_at_one_document_and_follow_the_rate() -> None:
    sizer = BatchSizer(max_size=32, target_s=1.0)
    assert sizer.size == 1  # the first document gives the rate (and the ETA)
    sizer.record(1, 2.5)  # one document takes over twice the target: one document a batch
    assert sizer.size == 1
    sizer.record(1, 1.5)  # within the target's band: no change
    assert sizer.size == 1
    sizes = []
    for _ in range(6):  # fast: at most twofold a batch, up to the largest
        sizer.record(sizer.size, 0.001 * sizer.size)
        sizes.append(sizer.size)
    assert sizes == [2, 4, 8, 16, 32, 32]
    sizer.record(32, 8.0)  # 4 documents a second: 4 a batch
    assert sizer.size == 4
    sizer.record(4, 0.0)  # too fast to time
    assert sizer.size == 8
    sizer.record(0, 9.0)  # nothing learned
    assert sizer.size == 8


def test_fixed_costs_per_batch_do_not_pin_the_batch_at_one_document() -> None:
    """A batch costs 0.5 s whatever its size (an index flush) plus 0.05 s a document: batches grow until one
    takes about the target, where a size computed from the rate would stay at one document."""
    sizer = BatchSizer(max_size=32, target_s=1.0)
    sizes = []
    for _ in range(8):
        sizes.append(sizer.size)
        sizer.record(sizer.size, 0.5 + 0.05 * sizer.size)
    assert sizes == [1, 2, 4, 8, 16, 16, 16, 16]


def test_fixed_batches_without_a_target() -> None:
    sizer = BatchSizer(max_size=5, target_s=None)
    sizer.record(5, 100.0)
    assert sizer.size == 5
    with pytest.raises(ValueError):
        BatchSizer(max_size=0)
