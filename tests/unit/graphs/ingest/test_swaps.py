"""The per-document reader-writer lock: a read of a document waits out its write; other documents never wait."""

from __future__ import annotations

import threading
import time

from graphs.ingest.swaps import DocumentSwaps


def test_a_reader_waits_for_the_write_of_its_document_only() -> None:
    swaps = DocumentSwaps()
    order: list[str] = []
    started = threading.Event()

    def write() -> None:
        with swaps.writing(["a"]):
            started.set()
            time.sleep(0.2)
            order.append("write done")

    writer = threading.Thread(target=write)
    writer.start()
    started.wait()
    with swaps.reading("b"):
        order.append("read b")
    with swaps.reading("a"):
        order.append("read a")
    writer.join()
    assert order == ["read b", "write done", "read a"]


def test_a_writer_waits_for_readers_and_new_readers_wait_for_it() -> None:
    swaps = DocumentSwaps()
    order: list[str] = []
    reading = threading.Event()
    release = threading.Event()

    def read_slowly() -> None:
        with swaps.reading("a"):
            reading.set()
            release.wait()
            order.append("first read")

    def write() -> None:
        with swaps.writing(["a", "c"]):
            order.append("write")

    first = threading.Thread(target=read_slowly)
    first.start()
    reading.wait()
    writer = threading.Thread(target=write)
    writer.start()
    time.sleep(0.1)  # the writer is waiting now: a new reader queues behind it
    got: list[str] = []

    def late_read() -> None:
        with swaps.reading("a"):
            got.append("late read")
            order.append("late read")

    late = threading.Thread(target=late_read)
    late.start()
    time.sleep(0.1)
    assert order == [] and got == []
    release.set()
    for t in (first, writer, late):
        t.join(2)
    assert order == ["first read", "write", "late read"]


def test_the_writing_thread_may_take_its_documents_again() -> None:
    swaps = DocumentSwaps()
    with swaps.writing(["a", "b"]), swaps.writing(["a"]):  # a failed write rolling back its own documents
        pass
    done = threading.Event()

    def read() -> None:
        with swaps.reading("a"):
            done.set()

    reader = threading.Thread(target=read)
    reader.start()
    assert done.wait(2)  # released fully: readers go on
    reader.join()
