"""A document's period stated in its title or heading is the year of its lines that say "this year" (本年度): a
"which year" question over such a line is answered with the title's year; a sentence of another act, or a document
whose title states no year, answers nothing. Reports invented here."""

from __future__ import annotations

from graphs.domain import Hit
from graphs.rag.answer.evidence import find_evidence, year_by_document
from graphs.rag.answer.extractive import extractive
from graphs.text.dates import in_year, names_year, period_year
from tests.support.answers import question
from tests.support.fakes import hit

CLUB = hit("club#0", "This year the sailing club grew to 212 members.\nOur bosun this year was Priya Lund.\n"
                     "The club bought a safety launch for 9,800 pounds.", title="Wexcombe Sailing Club 2025 annual report")
CHOIR = hit("choir#0", "本年度合唱团共举办专场音乐会5场，观众约2800人次。\n本年度团长由孙若溪担任。",
            title="青枫合唱团2024年度工作总结")
UNDATED = hit("undated#0", "This year the sailing club grew to 212 members.", title="Wexcombe Sailing Club news")


def short(q_text: str, h: Hit) -> str | None:
    q = question(q_text, [h])
    found = find_evidence(q, [h])
    return extractive(q, [h], found, q.chinese).span if found else None


def test_the_period_year_is_the_one_year_the_title_or_heading_states() -> None:
    assert period_year(["Wexcombe Sailing Club 2025 annual report", ""]) == 2025
    assert period_year(["青枫合唱团2024年度工作总结"]) == 2024
    assert period_year(["Club news", "2023 season"]) == 2023  # the heading, where the title states none
    assert period_year(["2019–2024 review"]) is None and period_year(["Club news"]) is None
    assert in_year("this year", 2025) == 2025 and in_year("去年", 2024) == 2023 and in_year("本年度", 2024) == 2024
    assert in_year("2024", 2025) is None and in_year("this year", None) is None
    assert names_year("本年度") and names_year("this year")


def test_a_which_year_question_is_answered_with_the_title_s_year() -> None:
    assert short("In which year did the Wexcombe sailing club grow to 212 members?", CLUB) == "2025 (This year)"
    assert short("青枫合唱团哪一年举办了5场专场音乐会？", CHOIR) == "2024年（本年度）"


def test_a_relative_year_of_another_act_or_of_an_undated_document_answers_nothing() -> None:
    q = question("What year did the Wexcombe sailing club buy a safety launch?", [CLUB])
    bosun = next(s for e in find_evidence(q, [CLUB]) for s in e.sentences if s.text.startswith("Our bosun"))
    assert not year_by_document(q, bosun)  # the bosun's line dates no purchase
    assert short("In which year did the Wexcombe sailing club grow to 212 members?", UNDATED) is None

