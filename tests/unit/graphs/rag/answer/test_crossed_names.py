"""Names across languages (issue 24): a name written in another word order around its generic word is the same
name ("Lake Orrin" in the question, "the Orrin Lake rescue team" in the report). Sentences invented here."""

from __future__ import annotations

import pytest

from graphs.rag.answer.question import mentioned, reordered


@pytest.mark.parametrize(("name", "text", "same"), [
    ("lake orrin", "the orrin lake rescue team pulled nine rowers out", True),
    ("tarn valley museum", "the valley tarn museum opens at ten", True),
    ("museum tarn", "the tarn museum opens at ten", True),
    # the words must be adjacent, each once: scattered words or a longer run are something else
    ("lake orrin", "orrin rowed across the lake", False),
    # a name without a generic word is not reordered (two people's names)
    ("hugh aldane", "aldane hugh", False),
])
def test_a_name_with_a_generic_word_in_another_word_order_is_the_same_name(name: str, text: str, same: bool) -> None:
    assert reordered(name, text) is same
    assert mentioned((name,), text) is same
