"""The one Unicode policy for names, ids and file names, and what counts as visible text."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from graphs.domain import Document, EntityMetadata, id_problem, name_problem
from graphs.unicode_policy import char_problem, text_problem, visible_text

# one of each kind the probe found (U+3164, U+115F, U+034F, U+E000, U+FDD0, U+FFFF, U+0378) and its siblings
HIDDEN = {
    "\u3164": "invisible character", "\u115f": "invisible character", "\u1160": "invisible character",
    "\uffa0": "invisible character", "\u034f": "invisible character", "\u2800": "invisible character",
    "\ue000": "private-use", "\U000f0000": "private-use", "\ufdd0": "noncharacter", "\ufdef": "noncharacter",
    "\uffff": "noncharacter", "\ufffe": "noncharacter", "\U0001fffe": "noncharacter",
    "\u0378": "unassigned", "\u202e": "bidirectional", "\u2066": "bidirectional", "\u200b": "invisible formatting",
    "\u2060": "invisible formatting", "\ufeff": "invisible formatting", "\U000e0041": "invisible formatting",
    "\x07": "control", "\u2028": "control",
}


@pytest.mark.parametrize(("ch", "kind"), HIDDEN.items(), ids=[f"U+{ord(c):04X}" for c in HIDDEN])
def test_every_hidden_kind_is_refused_in_names_ids_and_file_names(ch: str, kind: str) -> None:
    for where in ("name", "id", "file name"):
        problem = text_problem(f"Apple{ch}Inc", where)  # type: ignore[arg-type]
        assert problem is not None and kind in problem
    assert name_problem(f"Apple{ch}") is not None and id_problem(f"doc{ch}.md") is not None
    with pytest.raises(ValidationError) as caught:
        EntityMetadata(standard_name="Apple", type="ORGANIZATION", aliases=[f"Apple{ch}"])
    assert caught.value.errors()[0]["type"] == "invalid_entity_name"


@pytest.mark.parametrize("text", ["C++", "马斯克", "Zoë", "محمد", "❤️ Love", "한국", "Straße 5", "𠀀", "notes/a b.md"])
def test_real_text_passes(text: str) -> None:
    assert name_problem(text) is None and id_problem(text) is None


def test_an_emoji_sequence_with_joiners_may_name_an_entity() -> None:
    assert name_problem("👨‍👩‍👧 Family") is None


def test_joiners_are_kept_in_names_only() -> None:
    assert char_problem("\u200d", "name") is None
    assert char_problem("\u200d", "id") is not None and char_problem("\u200c", "file name") is not None


@pytest.mark.parametrize("text", ["", "   ", "\u200b\u200b", "\ufeff", " \n\t\u3000", "\u3164\u200d", "\u2800"])
def test_text_without_anything_to_read_is_not_visible(text: str) -> None:
    assert not visible_text(text)


@pytest.mark.parametrize("text", [".", "🍎", "a", "。"])
def test_any_drawn_character_is_visible(text: str) -> None:
    assert visible_text(text)


@pytest.mark.parametrize(("doc_id", "text", "code"), [
    ("gpj.\u202eexe-trav8.md", "body", "invalid_document_id"),
    ("a\u200bb", "body", "invalid_document_id"),
    ("\u3164", "body", "invalid_document_id"),
    ("ok", "\u200b \ufeff\n", "empty_document"),
])
def test_documents_follow_the_policy_on_every_path(doc_id: str, text: str, code: str) -> None:
    with pytest.raises(ValidationError) as caught:
        Document(id=doc_id, text=text)
    assert caught.value.errors()[0]["type"] == code
