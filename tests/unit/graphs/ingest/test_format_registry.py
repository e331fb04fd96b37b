"""One list of file types: every module of graphs/ingest/formats/ that declares a FORMAT is a supported type, a
new module is found with nothing else to edit, and every list users see names exactly these types."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

import graphs.ingest.formats as formats
from graphs.ingest.formats import (
    FILE_TYPES,
    FORMATS,
    PARSERS,
    SUPPORTED_SUFFIXES,
    FileFormat,
    format_of,
    parse_file,
)
from graphs.ingest.loaders import discover, load_file

ROOT = Path(__file__).resolve().parents[4]


def test_every_format_module_is_a_supported_type_and_nothing_else_is() -> None:
    modules = {p.stem for p in Path(formats.__file__).parent.glob("*.py")} - {"__init__", "base"}
    declared = {sys.modules[f"graphs.ingest.formats.{m}"].FORMAT for m in modules}
    assert declared == set(FORMATS)
    assert tuple(s for f in FORMATS for s in f.suffixes) == SUPPORTED_SUFFIXES
    assert set(PARSERS) == {s for f in FORMATS if f.parse for s in f.suffixes}
    assert FILE_TYPES == ".md .txt .html .pdf .docx .csv .jsonl"
    assert format_of(".MD") is format_of(".markdown") is not None and format_of(".exe") is None


def test_a_new_module_is_a_new_file_type(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "rot13.py").write_text(
        "import codecs\n"
        "from graphs.domain import DocumentSection\n"
        "from graphs.ingest.formats.base import FileFormat, ParsedFile\n\n"
        "def parse(data: bytes, name: str) -> ParsedFile:\n"
        "    return ParsedFile(sections=[DocumentSection(text=codecs.decode(data.decode(), 'rot13'))])\n\n"
        "FORMAT = FileFormat('ROT13', ('.rot13',), order=70, parse=parse)\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(formats, "__path__", [*formats.__path__, str(tmp_path)])
    monkeypatch.delitem(sys.modules, "graphs.ingest.formats.rot13", raising=False)
    found = formats._discover()
    monkeypatch.setattr(formats, "FORMATS", found)
    assert [f.name for f in found][-1] == "ROT13" and found[:-1] == FORMATS
    assert parse_file(b"Uryyb", "a.rot13", ".rot13").sections[0].text == "Hello"
    [doc] = load_file(b"Uryyb", "a.rot13", doc_id="a", source="a.rot13")
    assert doc.text == "Hello"


def test_two_formats_cannot_claim_one_suffix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "notes.py").write_text(
        "from graphs.ingest.formats.base import FileFormat, ParsedFile\n\n"
        "FORMAT = FileFormat('Notes', ('.txt',), order=5, parse=lambda data, name: ParsedFile())\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(formats, "__path__", [*formats.__path__, str(tmp_path)])
    monkeypatch.delitem(sys.modules, "graphs.ingest.formats.notes", raising=False)
    with pytest.raises(ValueError, match="same suffix"):
        formats._discover()


@pytest.mark.parametrize("kwargs", [
    {"suffixes": (".x",)},  # neither parse nor documents
    {"suffixes": (".x",), "parse": lambda d, n: None, "documents": lambda d, n: []},
    {"suffixes": ("x",), "parse": lambda d, n: None},
    {"suffixes": (".X",), "parse": lambda d, n: None},
    {"suffixes": (), "parse": lambda d, n: None},
])  # fmt: skip
def test_a_format_declares_one_reader_and_dotted_lower_case_suffixes(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        FileFormat("X", order=1, **kwargs)  # type: ignore[arg-type]


def test_folders_are_searched_for_exactly_the_supported_types(tmp_path: Path) -> None:
    for suffix in (*SUPPORTED_SUFFIXES, ".exe", ".json", ".doc"):
        (tmp_path / f"f{suffix}").write_bytes(b"x")
    assert sorted(f.path.suffix for f in discover(tmp_path)) == sorted(SUPPORTED_SUFFIXES)


def test_the_lists_users_see_name_exactly_the_supported_types() -> None:
    page = (ROOT / "app" / "web" / "index.html").read_text(encoding="utf-8")
    picker = re.search(r'id="upload-files"[^>]*accept="([^"]+)"', page)
    assert picker is not None and tuple(picker.group(1).split(",")) == SUPPORTED_SUFFIXES
    label = re.search(r'<label for="upload-files">(.*?)</label>', page, re.DOTALL)
    assert label is not None and re.findall(r"\.[a-z]+", label.group(1)) == FILE_TYPES.split()
    cli = (ROOT / "app" / "cli" / "ingest.py").read_text(encoding="utf-8")
    help_text = re.search(r'help="A file or a folder \(recursive\) of (.*?) files\."\)', cli, re.DOTALL)
    assert help_text is not None and re.findall(r"\.[a-z]+", help_text.group(1)) == FILE_TYPES.split()
