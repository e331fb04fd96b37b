"""Who / which / where spans typed by structure: a capitalised name by the kind word that ends it (an
organization is no person; a hospital or a school is a place as well as an institution; a lower-case kind word
after the name belongs to it), a Chinese noun phrase headed by a place's or a building's word, a title before a
Chinese name, a label before a colon. Own sentences, in English and Chinese, nobody tuned for."""

from __future__ import annotations

import pytest

from graphs.text.spans import candidates, of_asked_kind


def texts(sentence: str, kind: str, question: str) -> list[str]:
    spans = candidates(sentence, kind, question)  # type: ignore[arg-type]
    return [s.text for s in of_asked_kind(question, kind, sentence, spans)]  # type: ignore[arg-type]


@pytest.mark.parametrize(("sentence", "question", "organization"), [
    ("A report from the Upland Water Authority is promised for the spring.", "Who was the pump attendant that night?",
     "Upland Water Authority"),
    ("A spokesman for Harrowgate District Council declined to comment.", "Who is the town clerk?",
     "Harrowgate District Council"),
    ("The repairs were paid for by the Keel Street Trust.", "Who mended the organ?", "Keel Street Trust"),
])
def test_an_organization_by_its_kind_word_is_no_person(sentence: str, question: str, organization: str) -> None:
    assert organization not in texts(sentence, "person", question)
    assert organization in texts(sentence, "organization", question.replace("Who", "Which body"))


@pytest.mark.parametrize(("sentence", "question", "place"), [
    ("The two climbers were flown to Ardmore Infirmary and treated for exposure.",
     "Where were the climbers flown?", "Ardmore Infirmary"),
    ("Runners collect their numbers at the Fellgate car park before the start.",
     "Where do runners collect their numbers?", "Fellgate car park"),
    ("The choir rehearses at Saint Aidan's School on Thursdays.", "Where does the choir rehearse?",
     "Saint Aidan's School"),
    ("受伤的两名工人被送往市第二人民医院救治。", "受伤的工人被送到了哪里？", "第二人民医院"),
    ("新仓库建在河西物流园区，明年启用。", "新仓库建在什么地方？", "河西物流园区"),
])
def test_a_building_or_a_common_noun_place_answers_where(sentence: str, question: str, place: str) -> None:
    assert any(place in t for t in texts(sentence, "place", question)), texts(sentence, "place", question)


@pytest.mark.parametrize(("sentence", "question", "name", "not_name"), [
    ("磨坊由石匠师傅吴德明修好。", "磨坊是谁修好的？", "吴德明", "师傅"),
    ("Attendees: Lena Fairbrook (secretary), Omar Quist", "Who was the secretary?", "Lena Fairbrook", "Attendees"),
    ("Thirty-two rowers and their cox, Lena Fairbrook, finished the race.", "Who was the cox?", "Lena Fairbrook",
     "Thirty"),
])
def test_a_title_or_a_label_before_a_name_is_not_the_name(sentence: str, question: str, name: str,
                                                          not_name: str) -> None:
    found = texts(sentence, "person", question)
    assert name in found and not any(not_name in t for t in found), found


def test_a_place_that_holds_the_subjects_name_is_still_its_place() -> None:
    from graphs.rag.answer.calibration import answer_spans
    from tests.support.answers import question
    from tests.support.fakes import hit

    hits = [hit("灯会.md#0", "第五届桐溪灯会在桐溪镇南湖滨水公园举行，共展出花灯三百余组。", title="桐溪灯会")]
    q = question("第五届桐溪灯会在什么地方举行？", hits)
    from graphs.rag.answer.evidence import sentences_of

    spans = [s.text for s in answer_spans(q, sentences_of(q, hits)[0], "place")]
    assert any("南湖滨水公园" in s for s in spans), spans


@pytest.mark.parametrize(("sentence", "question", "answer"), [
    ("Kelby lies on the east bank of the River Orrin, below Harbour Square.", "Which river runs through Kelby?",
     ["River Orrin"]),
    ("The crews were taken to Ardmore Infirmary, not to Kelby Hall.", "Which hospital were the crews taken to?",
     ["Ardmore Infirmary"]),
    ("The market is held in Harbour Square every Thursday.", "Which river flows past the market?", []),
])
def test_which_kind_noun_keeps_the_names_of_that_kind(sentence: str, question: str, answer: list[str]) -> None:
    kind = "place" if "river" in question else "organization"
    assert texts(sentence, kind, question) == answer
