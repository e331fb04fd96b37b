"""Chat front ends' background tasks: recognized by their shape (instructions around an inlined chat history,
an output key), not one template's wording; titles made from the question."""

from __future__ import annotations

import pytest

from app.services.chat_tasks import ChatTask, detect, follow_up_questions, history_turns, render, title_of

HISTORY = "<chat_history>\nUSER: {q}\nASSISTANT: 机器学习是人工智能的一个分支[1]。\n</chat_history>"


def task(head: str, output: str, q: str = "什么是机器学习？") -> str:
    return f"### Task:\n{head}\n### Guidelines:\n- Be brief.\n### Output:\n{output}\n### Chat History:\n" + \
        HISTORY.format(q=q)


@pytest.mark.parametrize(("text", "kind", "key", "shape"), [
    (task("Generate a concise, 3-5 word title with an emoji summarizing the chat history.",
          'JSON format: { "title": "your concise title here" }'), "title", "title", "text"),
    (task("Generate 1-3 broad tags categorizing the main themes of the chat history.",
          'JSON format: { "tags": ["tag1", "tag2", "tag3"] }'), "tags", "tags", "list"),
    (task("Suggest 3-5 relevant follow-up questions the user might ask next.",
          'JSON format: { "follow_ups": ["Question 1?", "Question 2?"] }'), "follow_ups", "follow_ups", "list"),
    (task("Analyze the chat history to determine the necessity of generating search queries.",
          'Respond in the format: { "queries": ["query1", "query2"] }, JSON only'), "queries", "queries", "list"),
    (task("You are an autocompletion system. Continue the text in <text>.",
          'Respond only in JSON format: `{ "text": "<your_completion>" }`.'), "autocomplete", "text", "text"),
    (task("Summarize the chat history in one sentence.", 'Strict JSON format: { "summary": "..." }'),
     "other", "summary", "text"),
    # an older plain-text title prompt: no "### Task:" head, no JSON, the history block and the word "title"
    ("Create a concise, 3-5 word title with an emoji as a title for the chat history. RESPOND ONLY WITH THE "
     "TITLE TEXT.\n\n" + HISTORY.format(q="What is machine learning?"), "title", None, "text"),
    ("Your task is to reflect the speaker's likely facial expression through a fitting emoji.\n\nMessage: ```hi```",
     "emoji", None, "text"),
], ids=["title", "tags", "follow-ups", "queries", "autocomplete", "unknown-json-task", "plain-title", "emoji"])
def test_background_tasks_are_recognized_by_their_shape(text: str, kind: str, key: str | None, shape: str) -> None:
    found = detect(text)
    assert found is not None and (found.kind, found.key, found.shape) == (kind, key, shape)


@pytest.mark.parametrize("text", [
    "什么是机器学习？",
    "What title did the 2023 report give its third chapter?",  # names a task word, but no chat history
    "Suggest tags for my blog post about machine learning",
    "### 安装步骤\n第一步是什么？",
])
def test_ordinary_questions_are_not_tasks(text: str) -> None:
    assert detect(text) is None


def test_the_history_block_is_split_into_turns_that_may_span_lines() -> None:
    block = "USER: first line\nsecond line\nASSISTANT: an answer\nUSER: again"
    assert history_turns(block) == [("user", "first line\nsecond line"), ("assistant", "an answer"),
                                    ("user", "again")]
    found = detect(task("Generate a title.", 'JSON format: { "title": "t" }', q="腾讯是哪一年成立的？"))
    assert found is not None and found.user_turns == ["腾讯是哪一年成立的？"]


@pytest.mark.parametrize(("question", "title"), [
    ("What is machine learning?", "Machine learning"),
    ("how many employees does Tencent have", "How many employees does Tencent have"),
    ("Who is the founder of Tencent?", "Founder of Tencent"),
    ("Why does the sky look blue?", "Why does the sky look blue"),
    ("Could you tell me about the travel reimbursement policy for 2024 trips abroad?",
     "Travel reimbursement policy for 2024 trips…"),
    ("马斯克创办的公司有哪些？", "马斯克创办的公司"),
    ("什么是机器学习？", "什么是机器学习"),
    ("2024年苹果在北京发布的产品以及它们的价格和上市时间分别是什么", "2024年苹果在北京发布的产品以及它们的…"),
    ("Tencent", "Tencent"),
])
def test_a_title_is_the_question_without_its_question_words(question: str, title: str) -> None:
    assert title_of(question) == title


def test_replies_are_the_json_object_the_task_shows() -> None:
    assert render(ChatTask("title", "title"), "机器学习") == '{"title": "机器学习"}'
    assert render(ChatTask("tags", "tags", "list"), ["腾讯"]) == '{"tags": ["腾讯"]}'
    assert render(ChatTask("other", "summary", "list"), "") == '{"summary": []}'
    assert render(ChatTask("title"), "Machine learning") == "Machine learning"
    assert follow_up_questions([("腾讯", ["马化腾"])], chinese=True) == ["马化腾和腾讯有什么关系？", "关于腾讯还有哪些信息？"]
    assert follow_up_questions([("Tencent", [])], chinese=False) == ["What else do the documents say about Tencent?"]
