"""A question less the names it writes (``without_names``): one helper for every reader of what is asked."""

from __future__ import annotations

import pytest

from graphs.text.normalize import without_names


@pytest.mark.parametrize(("text", "names", "rest"), [
    ("What does the Brightwell K7 kettle cost?", ["brightwell k7", "Brightwell"], "What does the   kettle cost?"),
    ("红茶跟大红袍，哪样贵一点？", ["大红袍", "大红"], "红茶跟 ，哪样贵一点？"),  # the longest name first
    ("Who chairs it?", [], "Who chairs it?"),
    ("Who chairs it?", [""], "Who chairs it?"),  # an empty name blanks nothing
])
def test_names_are_blanked_longest_first_in_any_case(text: str, names: list[str], rest: str) -> None:
    assert without_names(text, names) == rest
