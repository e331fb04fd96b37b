"""Prompt files: every prompt the nodes use exists and declares exactly the variables they pass."""

from __future__ import annotations

import pytest

from graphs.prompts import PromptError, PromptLibrary

USED = {
    "parse_query.system": set(),
    "parse_query.user": {"today", "known", "question"},
    "write_answer.system": set(),
    "write_answer.user": {"passages", "question", "find"},
    "rerank_judge.system": set(),
    "rerank_judge.user": {"question", "entities", "passages"},
    "judge_expansion.system": set(),
    "judge_expansion.user": {"question", "depth", "max_depth", "coverage", "results"},
    "select_evidence.system": set(),
    "select_evidence.user": {"question", "nodes"},
    "plan_query.system": {"max_steps"},
    "plan_query.user": {"question", "entities", "intent", "complexity"},
    "monitor_sufficiency.system": set(),
    "monitor_sufficiency.user": {"question", "turn", "max_turns", "coverage", "passages"},
    "write_answer.direct": set(),
    "write_answer.contradictions": set(),
    "condense_question.system": set(),
    "condense_question.user": {"history", "question"},
}


@pytest.mark.parametrize(("name", "variables"), sorted(USED.items()))
def test_prompt_variables(name: str, variables: set[str]) -> None:
    lib = PromptLibrary()
    assert set(lib.template(name).get_identifiers()) == variables
    assert lib.render(name, **dict.fromkeys(variables, "x")).strip()


def test_no_unused_prompt_files() -> None:
    assert set(PromptLibrary().names()) == set(USED)


def test_wrong_variables_are_rejected() -> None:
    lib = PromptLibrary()
    with pytest.raises(PromptError):
        lib.render("write_answer.user", passages="p")
    with pytest.raises(PromptError):
        lib.render("missing.prompt")
