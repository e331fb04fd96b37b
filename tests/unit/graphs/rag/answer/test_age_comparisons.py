"""Who is older is who was born first: an age comparison over two birth dates picks the earlier one (谁更年长,
谁年龄更大, "who is older"), the later one for the younger, never the larger number."""

from __future__ import annotations

import pytest

from tests.support.answers import write
from tests.support.fakes import hit

ZH = [hit("a#0", "陈书远（1958年11月2日－）是一位水利工程师，曾主持修建青石水库。", title="陈书远"),
      hit("b#0", "温若岚（1981年3月14日－）是一位大提琴演奏家。", title="温若岚")]
EN = [hit("a#0", "Odile Marsh (born 2 February 1984) is a Welsh botanist.", title="Odile Marsh"),
      hit("b#0", "Piet Verhoef (born 30 September 1966) is a Dutch cartographer.", title="Piet Verhoef")]


@pytest.mark.parametrize(("question", "pages", "older"), [
    ("陈书远和温若岚谁年龄更大？", ZH, "陈书远"), ("温若岚和陈书远谁更年长？", ZH, "陈书远"),
    ("陈书远和温若岚谁更年轻？", ZH, "温若岚"), ("Who is older, Odile Marsh or Piet Verhoef?", EN, "Piet Verhoef"),
    ("Who is younger, Piet Verhoef or Odile Marsh?", EN, "Odile Marsh")])
def test_the_earlier_birth_is_the_older(question: str, pages: list, older: str) -> None:
    decision, reason, span, text = write(question, pages)
    assert decision == "answerable", reason
    assert span == older, text


@pytest.mark.parametrize(("text", "way"), [
    ("哪座石桥更古老，云溪桥还是望川桥？", "min_date"),  # 古老 names no age: the earlier date, by 老
    ("Which mill is older, Harnell Mill or Pike Mill?", "min_date"),  # the age pattern
    ("谁更年轻，骆一川还是覃素？", "max_date"),
    ("Who is the younger of the two wardens?", "max_date"),
    ("Which ferry line opened later?", "max_date"),
    ("哪家茶馆开业更早？", "min_date"),
])
def test_the_direction_of_a_date_comparison(text: str, way: str) -> None:
    from graphs.rag.answer.verdicts import direction

    assert direction(text) == way


THINGS = [hit("k#0", "The club's oldest boat, the Kestrel, was built in 1962; the Heron was bought second-hand in 1978.",
              title="Riverside Rowing Club")]


def test_a_things_age_is_not_a_birth() -> None:
    """"Which boat is older" compares when each was built: the verdict names the years, not births."""
    decision, reason, span, text = write("Which boat is older, the Kestrel or the Heron?", THINGS)
    assert decision == "answerable", reason
    assert span == "Kestrel" and "1962" in text and "born" not in text, text
    _, _, span, text = write("Who is older, Odile Marsh or Piet Verhoef?", EN)
    assert span == "Piet Verhoef" and "born" in text, text
