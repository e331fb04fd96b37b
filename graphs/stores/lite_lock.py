"""Whether another process holds a Milvus Lite file.

Milvus Lite (2.5+) keeps a file's data in a directory and takes an exclusive ``flock`` on its ``LOCK`` file for
as long as a process has it open; a second process fails deep in the driver ("Open local milvus failed") after
the embedder has loaded. Trying the same lock first, without blocking, and letting go of it at once, tells a
command before it loads anything.
"""

from __future__ import annotations

import os
from pathlib import Path

LOCK_FILENAME = "LOCK"  # milvus_lite.db.LOCK_FILENAME


def lite_file_locked(path: Path) -> bool:
    """Whether another process holds the Lite file at ``path`` (a file not created yet: no)."""
    lock = path / LOCK_FILENAME
    if not lock.is_file():
        return False
    try:
        fd = os.open(lock, os.O_RDWR)
    except OSError:
        return False
    try:
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except (OSError, ImportError):  # no flock here (Windows): let Milvus Lite say it
        return False
    finally:
        os.close(fd)  # closing the descriptor releases a lock it took
    return False
