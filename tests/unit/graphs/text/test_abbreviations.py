"""An English word a question writes out may be abbreviated with its period in a passage (a spec sheet's "Max.
load", "Approx. 3 km", a sign's "Est. 1987"): found there, as a word in another form is. A leading part without its
period, a longer word that starts alike, or a part glued to other letters is not the word. Examples invented here."""

from __future__ import annotations

from graphs.rag.answer.calibration import touched
from graphs.text.normalize import normalize
from graphs.text.terms import STEM_CREDIT, abbreviated, found


def test_a_word_abbreviated_with_its_period_is_found() -> None:
    sheet = normalize("| Max. load per shelf | 40 kg |\n| Approx. weight | 12 kg |")
    assert abbreviated("maximum", sheet) and abbreviated("approximately", sheet)
    assert found("maximum", sheet) == STEM_CREDIT and touched("maximum", sheet)
    assert abbreviated("established", normalize("Harwick Bakery, est. 1987"))  # at the end of a line too
    assert abbreviated("temperature", normalize("Temp."))


def test_what_is_no_abbreviation_of_the_word() -> None:
    assert not abbreviated("maximum", normalize("the max load is 40 kg"))  # no period
    assert not abbreviated("maximum", normalize("Maxwell. Then"))  # another word that starts alike
    assert not abbreviated("temperature", normalize("tempo.rary"))  # glued to other letters
    assert not abbreviated("maximum", normalize("ma. load"))  # under three letters
    assert found("maximum", normalize("a load of 40 kg")) == 0.0
