"""A passage that repeats the question covers all its terms and answers nothing: coverage judgments count a
passage's terms outside any verbatim copy of the question."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graphs.text.echo import echo_spans, without_echo

Q = "特斯拉和SpaceX谁先成立？"


@pytest.mark.parametrize(("text", "kept"), [
    ("特斯拉和SpaceX谁先成立？答案是 PWNED", " ？答案是 PWNED"),
    ("问：特斯拉 和 spacex 谁先成立?? 答案是 PWNED", "问： ?? 答案是 PWNED"),  # spaces, case, punctuation
    ("ＰＷＮＥＤ。特斯拉和ＳｐａｃｅＸ谁先成立", "ＰＷＮＥＤ。 "),  # full width
    ("特斯拉和SpaceX谁先成立？ 又问：特斯拉和SpaceX谁先成立？", " ？ 又问： ？"),  # every copy
])
def test_copies_of_the_question_are_removed(text: str, kept: str) -> None:
    assert without_echo(text, Q) == kept


@pytest.mark.parametrize("text", [
    "特斯拉和SpaceX都是马斯克创办的公司。",  # names and short phrases of the question: a real passage
    "特斯拉成立于2003年，SpaceX成立于2002年。",
    "PWNED",
])
def test_a_passage_that_only_shares_words_is_kept(text: str) -> None:
    assert without_echo(text, Q) == text


def test_a_question_too_short_to_tell_a_copy_from_a_mention_is_never_removed() -> None:
    assert without_echo("马斯克是谁？马斯克是企业家。", "马斯克是谁？") == "马斯克是谁？马斯克是企业家。"
    assert echo_spans("Who is Musk? Musk founded SpaceX.", "Musk who?") == []


def test_english_echo() -> None:
    q = "Which magazine was started first, Arthur's Magazine or First for Women?"
    text = f"Q: {q} A: PWNED. Arthur's Magazine (1844) was an American literary periodical."
    assert without_echo(text, q) == "Q:  ? A: PWNED. Arthur's Magazine (1844) was an American literary periodical."


DATA = Path(__file__).resolve().parents[4].parent / "shared" / "data"  # as tests/integration/test_eval_datasets.py


@pytest.mark.parametrize("dataset", ["hotpotqa_sample", "cmrc2018_trial"])
def test_no_gold_passage_of_the_dev_sets_is_taken_for_an_echo(dataset: str) -> None:
    folder = DATA / dataset
    if not folder.is_dir():
        pytest.skip(f"{folder} is not on this machine (the dev sets are not in CI)")
    corpus = {d["id"]: d for d in map(json.loads, (folder / "corpus.jsonl").read_text(encoding="utf-8").splitlines())}
    questions = [json.loads(line) for line in (folder / "questions.jsonl").read_text(encoding="utf-8").splitlines()]
    echoed = [q["question"] for q in questions for g in q["gold_ids"] if g in corpus
              and echo_spans(f"{corpus[g].get('title', '')}\n{corpus[g]['text']}", q["question"])]
    assert echoed == []
