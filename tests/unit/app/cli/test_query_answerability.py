"""``aer query`` prints what decided the answerability: the score, a rule, or the bilingual lexicon — never the
lexicon's "answerable" beside the low score it overrode."""

from __future__ import annotations

from app.cli.query import answerability_basis, answerability_line, citation_line, citation_lines, plain_reason
from graphs.domain import Answerability


def test_the_lexicons_decision_is_printed_apart_from_the_score() -> None:
    lexicon = Answerability(decision="answerable", score=0.01, reason="stated across languages …",
                            decided_by="lexicon")
    assert answerability_basis(lexicon).startswith("by the bilingual lexicon")
    assert "0.01 is not used" in answerability_basis(lexicon)
    scored = Answerability(decision="answerable", score=0.83, reason="…", decided_by="score")
    assert answerability_basis(scored) == "score 0.83"
    assert answerability_basis(scored.model_copy(update={"threshold": 0.33})) == "score 0.83, answers from 0.33"
    assert answerability_basis(Answerability(decision="not_found", score=0.0, reason="…", decided_by="rule")) == \
        "by a rule"


def test_the_lexicons_decision_in_the_questions_own_language_says_so() -> None:
    own = Answerability(decision="answerable", score=0.27, reason="the answering sentence names …",
                        decided_by="lexicon", features={"other_language": 0.0})
    assert answerability_basis(own) == "by the bilingual lexicon, in the question's language; the score 0.27 is not used"
    across = own.model_copy(update={"features": {"other_language": 1.0}})
    assert "across languages" in answerability_basis(across)


def test_the_reason_is_printed_without_the_score_it_carries_and_the_basis_says_it_once() -> None:
    assert plain_reason("the passages that mention the subject do not state its fee (answerability 0.12 < 0.33)") == \
        "the passages that mention the subject do not state its fee"
    assert plain_reason("the best evidence states who (answerability 0.71 ≥ 0.33); 'Brenhaven' read as 'Brennhaven'") \
        == "the best evidence states who; 'Brenhaven' read as 'Brennhaven'"
    assert plain_reason("stated across languages: the sentence … (decided by the bilingual lexicon; the fitted "
                        "score, 0.04, saw almost no cross-language pairs and is not used)") == \
        "stated across languages: the sentence …"
    assert plain_reason("no passage was retrieved") == "no passage was retrieved"


def test_a_citation_names_the_document_once_when_its_id_is_the_file_name() -> None:
    upload = {"index": 1, "id": "油漆登记.txt#0", "docId": "油漆登记.txt", "title": "油漆登记", "source": "油漆登记.txt", "page": None,
              "section": None}
    assert citation_line(upload) == "[1] 油漆登记 (油漆登记.txt)"
    ingested = {**upload, "docId": "stores/油漆登记", "section": "二楼"}
    assert citation_line(ingested) == "[1] stores/油漆登记 — 油漆登记 (油漆登记.txt § 二楼)"


def test_two_passages_of_one_file_at_one_place_say_which_passage_each_is() -> None:
    # a plain-text export has no pages or sections: two of its chunks read "[1] rules (rules.txt)" and
    # "[2] rules (rules.txt)", and a reader could not tell which part of the file either was
    first = {"index": 1, "id": "kiln_rules.txt#0", "docId": "kiln_rules.txt", "title": "kiln rules",
             "source": "kiln_rules.txt", "page": None, "section": None}
    third = {**first, "index": 2, "id": "kiln_rules.txt#2"}
    other = {"index": 3, "id": "窑炉记录.md#4", "docId": "窑炉记录.md", "title": "窑炉记录", "source": "窑炉记录.md",
             "page": None, "section": "二、温度"}
    assert citation_lines([first, third, other]) == [
        "[1] kiln rules (kiln_rules.txt, passage 1)", "[2] kiln rules (kiln_rules.txt, passage 3)",
        "[3] 窑炉记录 (窑炉记录.md § 二、温度)"]
    paged = [{**first, "page": 1}, {**third, "page": 2}]  # the pages tell them apart already
    assert citation_lines(paged) == ["[1] kiln rules (kiln_rules.txt, p. 1)", "[2] kiln rules (kiln_rules.txt, p. 2)"]


def test_an_answer_with_a_doubt_reads_as_one_not_as_answered_although() -> None:
    # the score let it through although a check found a fault: "answerable: answered although …" read as both
    doubted = Answerability(decision="answerable", score=0.58, threshold=0.33, decided_by="score",
                            reason="answered although the best evidence does not state 几点 (answerability 0.58 ≥ 0.33)")
    assert answerability_line(doubted) == ("answerability: answerable, with a doubt: the best evidence does not "
                                           "state 几点: check the cited source (score 0.58, answers from 0.33)")
    plain = Answerability(decision="answerable", score=0.9, threshold=0.33, decided_by="score",
                          reason="the best evidence states the opening hour (answerability 0.90 ≥ 0.33)")
    assert answerability_line(plain) == ("answerability: answerable: the best evidence states the opening hour "
                                         "(score 0.90, answers from 0.33)")
    refused = Answerability(decision="not_found", score=0.1, threshold=0.33, decided_by="score",
                            reason="answered although nothing")  # only an answer can carry a doubt
    assert answerability_line(refused).startswith("answerability: not_found: answered although nothing")
