"""The file types the service ingests (moved: see ``base``)."""

from graphs.ingest.formats.base import *  # noqa: F403
from graphs.ingest.formats.base import (  # noqa: F401
    PARSERS,
    SECTION_SEPARATOR,
    ArchiveBudget,
    FileParseError,
    ParsedFile,
    check_archive,
    clean_line,
    clean_text,
    decode_text,
    joined,
    parse_file,
    reflow,
    table_sentences,
)
