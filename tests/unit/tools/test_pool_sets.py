"""Pooling eval sets: one corpus of every set's passages, every set's questions asked of it."""

import json
from pathlib import Path

import pytest

from app.tools.eval import load_corpus, load_questions
from app.tools.pool_sets import PoolError, main, pool


def _set(root: Path, name: str, passages: list[dict], questions: list[dict]) -> Path:
    folder = root / name
    folder.mkdir()
    for file, rows in (("corpus.jsonl", passages), ("questions.jsonl", questions)):
        (folder / file).write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return folder


def _p(pid: str, text: str) -> dict:
    return {"id": pid, "title": pid, "text": text, "metadata": {}}


def test_every_passage_and_question_of_the_sets_in_one_folder(tmp_path: Path) -> None:
    a = _set(tmp_path, "quarry_set", [_p("qa-1", "The Brackwell quarry closed in 1961."), _p("qa-2", "Slate.")],
             [{"id": "qa-q1", "question": "When did the Brackwell quarry close?", "answers": ["1961"],
               "gold_ids": ["qa-1"], "type": "bridge"}])
    b = _set(tmp_path, "mill_set", [_p("ml-1", "磨坊建于1830年。")],
             [{"id": "ml-q1", "question": "磨坊是哪一年建的？", "answers": [], "gold_ids": ["ml-1"]}])
    assert pool(tmp_path / "pooled", [a, b]) == (3, 2)
    assert [d.id for d in load_corpus(tmp_path / "pooled")] == ["qa-1", "qa-2", "ml-1"]
    questions = load_questions(tmp_path / "pooled")
    # ids kept (a set's held part stays held); a question without a type is labelled with its set
    assert [(q.id, q.type) for q in questions] == [("qa-q1", "bridge"), ("ml-q1", "mill_set")]


def test_a_passage_two_sets_share_is_kept_once(tmp_path: Path) -> None:
    shared = _p("x-1", "The ferry sails at noon.")
    a = _set(tmp_path, "a", [shared], [])
    b = _set(tmp_path, "b", [shared, _p("x-2", "Tickets cost 4 pounds.")], [])
    assert pool(tmp_path / "out", [a, b]) == (2, 0)


def test_one_id_for_two_different_passages_is_refused(tmp_path: Path) -> None:
    a = _set(tmp_path, "a", [_p("x-1", "The ferry sails at noon.")], [])
    b = _set(tmp_path, "b", [_p("x-1", "The ferry sails at dawn.")], [])
    with pytest.raises(PoolError, match=r"x-1.*between a and b"):
        pool(tmp_path / "out", [a, b])


def test_the_command_needs_two_sets(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(tmp_path / "out"), str(tmp_path)]) == 2
    assert "usage" in capsys.readouterr().err
