"""``aer fit-answerability``: fit the calibrated answerability score on the dev sets and validate it
leave-one-dataset-out.

The unanswerable protocol, per question: the full graph ranks the passages of the dataset's eval index; the
question over that ranking is an answerable example when a gold answer occurs in the top passages, and the same
question over a deeper ranking (``RANK_DEEP``) without its gold passages and without every other passage that
states a gold answer, cut to the top ``FULL_TOP_K``, is an unanswerable one: truly negative, and as many passages
as the answerable one. Since session 25 an answerable example is labelled by **the line the extractive writer
chooses** (``--label chosen``, the default; ``Example.chosen``): it stays answerable only when that answer states a
gold form; gold in the passages but not on the chosen line makes it a negative for "answer now" (answering it gives
a wrong answer). ``--label retrieved`` fits the earlier label (gold anywhere in the top passages); the snapshots
carry the question's gold forms for this. On ``rgb_zh_reject_dev`` the passages left are RGB's hard negatives (same topic, same
event, no answer). Removing the passages from the ranking stands in for re-indexing without them (``aer eval
--unanswerable``): the dense ranking is the same, BM25's statistics barely move.

Own-file sets (``tests/data/*``: ``files/`` and ``questions.jsonl``, read as ``aer trial`` reads them) are further
datasets: their eval index is built from the files by the upload's loaders; a question its files do not answer
("notFound": the subject present, the asked attribute absent) is an unanswerable example as ranked — the negative
the public sets' protocol never makes — and an answerable one gives the two examples above.

A public set is split by a fixed hash of the question id: 30 % is held aside (the part ``aer eval``'s all · held
tables report), never fitted on nor used to choose the threshold, and reported next to the part the model was
fitted on; an own-file set keeps its own ``split``. The model is a logistic regression (numpy, Newton's method,
L2 penalty ``--l2``) over ``graphs.rag.answer.calibration.FEATURES`` (``--features``); the threshold is the one
with the most "not found" on unanswerable examples while the score's false "not found" on answerable ones stays at
most 0.10 on each public set and on the own-file sets together. The rules come before the score (``assess``: a
name no passage mentions, a code or a year no answering passage states; and ``ruled_out``, which runs with it): an
example they refuse scores 0 and is not fitted on (``refused_before_score``). Validation leaves one public set, or
one family of own-file sets (``family``), out at a time. The weights, the threshold, that table and a note of the
data go to ``graphs/rag/answer/answerability.json``.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Annotated, Any

import numpy as np
import typer

from app.settings import Settings
from app.tools.calibration import ece
from app.tools.eval import FULL_TOP_K, contains_answer, load_questions, prepare_index, states_answer

DEFAULT_SETS = ("hotpotqa_sample", "cmrc2018_trial", "rgb_zh_reject_dev")
HELD_PERCENT = 30
"""This share of a public set's questions (by SHA-256 of the id) is held aside: the held part ``aer eval``'s
all · held tables report, so that the fit never sees the questions its end-to-end held figures are measured on.
An own-file set's questions are held by their own ``split`` ("held")."""
FITTED = ("coverage", "own", "anchored", "focus", "span", "attribute_known", "attribute_stated", "span_near",
          "qualified", "qualifier_sentence", "qualifier_passage", "own_typed", "qualified_typed")
"""The features a fit reads by default (``--features shipped``): what the best evidence covers of the question,
states of the asked attribute (by the relation lexicon, either language) with a span of the asked type next to
it, and of the question's qualifiers. Left out since session 24 (measured leave one family out with the newest
own-file families held, docs/answers.md "Session 24"): ``cross_language`` (0.4 % of the public sets' examples; on own
files it marks more unanswerable than answerable examples on the older kinds and the reverse on the newest: it
tells the language, not the answer) and ``bridge`` (+0.23 answerable on the public sets and the older own files,
-0.05 on the newest); the sentence similarity (the same ranking for ~125 ms of e5 a question). The weights that
ship (``answerability.json``) are still the earlier fit's on 15 features: the refit on these, better ranked on
the held families, lost end to end (session 24). The other ``FEATURES`` feed the rules before the score
(``ruled_out``) and stay out of the fit (``--features all`` fits every one)."""
MAX_FALSE_NOT_FOUND = 0.10
L2 = 1e-2


def held_aside(question_id: str) -> bool:
    """Whether a question is in the held-aside part (a fixed hash split: the same on every machine)."""
    return int(hashlib.sha256(question_id.encode()).hexdigest()[:8], 16) % 100 < HELD_PERCENT


def family(dataset: str) -> str:
    """The group a dataset is left out with: a public set alone; an own-file set with its family (blind14 …
    blind16b, absent_attribute … absent_attribute8 are one family each: written alike, by the same hands)."""
    return next((f for f in OWN_FAMILIES if dataset.startswith(f)), dataset)


def is_own(dataset: str) -> bool:
    """Whether a dataset is an own-file set (its files and questions, ``tests/data``)."""
    return family(dataset) != dataset or dataset in OWN_FAMILIES


OWN_FILES = "own files"
"""The threshold's group of every own-file set: each public set must keep its false "not found" within
``MAX_FALSE_NOT_FOUND``, and so must the own-file sets together (one family's few answerable questions are too
few to hold a threshold to)."""


def threshold_group(dataset: str) -> str:
    return OWN_FILES if is_own(dataset) else dataset


OWN_FAMILIES = ("absent_attribute", "absent_own", "acts_own", "blind", "compare_own", "compound_own", "dates_own",
                "fields_own", "fresh", "govern_own", "ident_own", "kinds_own", "lists_own", "multihop_own",
                "multihop_wiki_own", "names_own", "newuser", "paraphrase_own", "roles_own", "span_own", "tables_own",
                "terms_own", "values_own", "when_own", "who_own", "xlang_own", "xname_own")
"""The own-file set families of ``tests/data`` (a set's name is its family's and a number)."""


@dataclass
class Example:
    dataset: str
    question_id: str
    label: int
    held: bool
    features: dict[str, float]
    ruled: bool = False
    """The rules decided "not found" before the score (it is 0)."""
    chosen: int | None = None
    """The label by the chosen line: 1 when the answer the extractive writer would give (its short answer and the
    lines it shows) states a gold form, else 0 — an answerable example whose answer was retrieved but whose chosen
    line does not hold it is a negative for "answer now" (answering it gives a wrong answer). None where the
    snapshot carries no gold forms (``label`` is then the only one)."""

    @property
    def group(self) -> str:
        """What leave-one-dataset-out leaves out with it (``family``)."""
        return family(self.dataset)


# ---------------------------------------------------------------------------- the model


SCALE_FLOOR = 0.25
"""The least spread a feature is standardized by. A feature (nearly) constant on the fitted material (the answering
sentence in the other language: 0.4 % of the public sets' examples, a spread of 0.064) would otherwise stand 15
spreads out wherever it holds, and its weight with it: on own files, where half the answers cross languages, that
one feature sent every such answer to ~0.01 (session 24). Floored, a rare feature moves the score by its weight
over the floor at most, as a common one does."""


def fit(x: np.ndarray, y: np.ndarray, l2: float = L2, steps: int = 50, weights: np.ndarray | None = None,
        floor: float = SCALE_FLOOR) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """Logistic regression on standardized features (each spread at least ``floor``), each example weighing
    ``weights`` (1 when None): (mean, scale, weights, bias)."""
    sw = np.ones(len(x)) if weights is None else np.asarray(weights, dtype=float)
    mean = np.average(x, axis=0, weights=sw) if len(x) else np.zeros(x.shape[1])
    scale = np.maximum(np.sqrt(np.average((x - mean) ** 2, axis=0, weights=sw)), floor) if len(x) \
        else np.ones(x.shape[1])
    scale[scale < 1e-9] = 1.0
    z = np.hstack([(x - mean) / scale, np.ones((len(x), 1))])
    w = np.zeros(z.shape[1])
    penalty = l2 * float(sw.sum()) * np.eye(z.shape[1])
    penalty[-1, -1] = 0.0
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-np.clip(z @ w, -30, 30)))
        grad = z.T @ (sw * (p - y)) + penalty @ w
        hess = (z * (sw * p * (1 - p))[:, None]).T @ z + penalty + 1e-9 * np.eye(z.shape[1])
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return mean, scale, w[:-1], float(w[-1])


def balanced(groups: Sequence[str]) -> np.ndarray:
    """Example weights under which each group (``threshold_group``: each public set, the own-file sets together)
    weighs the same in the fit: the public sets' many examples of their few kinds do not outvote every other
    kind of document (their mean weight is 1)."""
    counts: dict[str, int] = {}
    for g in groups:
        counts[g] = counts.get(g, 0) + 1
    return np.array([len(groups) / (len(counts) * counts[g]) for g in groups], dtype=float)


def predict(model: tuple[np.ndarray, np.ndarray, np.ndarray, float], x: np.ndarray,
            gated: np.ndarray | None = None) -> np.ndarray:
    """The score of each row; 0 where the rule before the score says "not found" (``gated``)."""
    mean, scale, w, b = model
    p = 1.0 / (1.0 + np.exp(-np.clip(((x - mean) / scale) @ w + b, -30, 30)))
    return np.where(gated, 0.0, p) if gated is not None else p


def gates(examples: Sequence[Example]) -> np.ndarray:
    """Where the rules said "not found" before the score."""
    return np.array([e.ruled for e in examples], dtype=bool)


def fit_on(examples: Sequence[Example], names: Sequence[str], l2: float = L2) -> tuple[Any, float]:
    """The model fitted on the examples the rules do not decide, and its threshold on those same examples: the
    false "not found" budget is the score's own (the rules' refusals are the same at every threshold; counted in,
    a set whose rules already refuse more than the budget, as the own-file sets' do, holds no threshold at all)."""
    kept = [e for e in examples if not e.ruled]
    x, y = matrix(kept, names)
    groups = [threshold_group(e.dataset) for e in kept]
    model = fit(x, y, l2=l2, weights=balanced(groups))
    return model, choose_threshold(predict(model, x), y, groups)


def auroc(p: np.ndarray, y: np.ndarray) -> float:
    pos, neg = p[y == 1], p[y == 0]
    if not len(pos) or not len(neg):
        return float("nan")
    return float(((pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum())
                 / (len(pos) * len(neg)))


def rates(p: np.ndarray, y: np.ndarray, threshold: float) -> dict[str, float]:
    """False "not found" on answerable examples, "not found" on unanswerable ones."""
    answered = p >= threshold
    pos, neg = y == 1, y == 0
    return {"false_not_found": round(float((~answered[pos]).mean()) if pos.any() else 0.0, 4),
            "not_found_unanswerable": round(float((~answered[neg]).mean()) if neg.any() else 0.0, 4)}


def choose_threshold(p: np.ndarray, y: np.ndarray, groups: Sequence[str] | None = None,
                     max_false: float = MAX_FALSE_NOT_FOUND) -> float:
    """The threshold with the most "not found" on unanswerable examples while false "not found" stays within
    ``max_false`` on every group (dataset); the balanced best when none does."""
    grid = np.round(np.arange(0.02, 0.99, 0.01), 2)
    labels = np.array(groups if groups is not None else ["all"] * len(p))
    scored = [(t, rates(p, y, t)) for t in grid]
    worst = {t: max(rates(p[labels == g], y[labels == g], t)["false_not_found"] for g in set(labels)) for t in grid}
    within = [(r["not_found_unanswerable"], -t, t) for t, r in scored if worst[t] <= max_false]
    if within:
        return float(max(within)[2])
    return float(max(scored, key=lambda tr: tr[1]["not_found_unanswerable"] - tr[1]["false_not_found"])[0])


def matrix(examples: Sequence[Example], names: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    x = np.array([[e.features.get(n, 0.0) for n in names] for e in examples], dtype=float)
    return x.reshape(len(examples), len(names)), np.array([e.label for e in examples], dtype=float)


def evaluate(model: Any, examples: Sequence[Example], names: Sequence[str], threshold: float) -> dict[str, Any]:
    x, y = matrix(examples, names)
    p = predict(model, x, gates(examples))
    return {"n": len(examples), "answerable": int(y.sum()), "unanswerable": int(len(y) - y.sum()),
            "auroc": round(auroc(p, y), 4), "ece": round(ece(p, y), 4), **rates(p, y, threshold)}


def validate(examples: Sequence[Example], names: Sequence[str], l2: float = L2,
             threshold: float | None = None) -> dict[str, Any]:
    """Leave one dataset out: fit (and choose the threshold) on the dev parts of the others, measure on the
    left-out set's dev part and held-aside part. An own-file set is left out with its family (``family``): the
    model never saw a set written alike."""
    groups = sorted({e.group for e in examples})
    table: dict[str, Any] = {}
    for out in groups:
        train = [e for e in examples if e.group != out and not e.held]
        if len({e.label for e in train}) < 2:
            continue
        model, chosen = fit_on(train, names, l2)
        at = chosen if threshold is None else threshold  # a threshold fixed for every fold (--threshold)
        table[out] = {"threshold": at,
                      "dev": evaluate(model, [e for e in examples if e.group == out and not e.held], names, at),
                      "held_aside": evaluate(model, [e for e in examples if e.group == out and e.held], names, at)}
    return table


# ---------------------------------------------------------------------------- collecting the examples


RANK_DEEP = 20
"""How deep the full graph ranks for the unanswerable example: its gold passages and every other passage that
holds a gold answer are removed from this ranking and the next ones move up into the top ``FULL_TOP_K``."""


def negatives(ranked: Sequence[Any], q: Any) -> list[Any]:
    """The question's ranking without any passage that holds its answer (its gold passages, and any other that
    states a gold answer), cut to the top ``FULL_TOP_K``: an unanswerable example that is truly unanswerable."""
    gold = set(q.gold_ids)
    return [h for h in ranked if h.doc_id not in gold and not contains_answer(f"{h.title} {h.text}", q.answers)
            and not states_answer(f"{h.title} {h.text}", q.answers)][:FULL_TOP_K]


@dataclass(frozen=True)
class Sampled:
    """A question the examples are collected for."""

    id: str
    question: str
    answers: Sequence[str]
    gold_ids: Sequence[str]
    not_found: bool = False
    """An own-file set's question its files do not answer (``"notFound"``): the subject present, the asked
    attribute absent — a negative the public sets' protocol (gold passages removed) does not make."""
    held: bool = False


def _sample(dataset_dir: Path, per_set: int) -> list[Sampled]:
    """Up to ``per_set`` usable questions (no comparisons or yes/no: those keep their own rules), in hash
    order so that the choice is the same on every machine and spread over the set. An own-file set's (files and
    ``questions.jsonl``, read as ``aer trial`` reads them) are all taken, its "not found" ones too, each held
    aside by its own ``split``."""
    from app.tools.eval import own_documents
    from app.tools.http_trial import load_trial_questions
    from graphs.text.answer_types import expected_answer

    if own_documents(dataset_dir):
        picked = [Sampled(q.id, q.question, q.answers, q.files, q.not_found, q.split == "held")
                  for q in load_trial_questions(dataset_dir) if (q.files or q.not_found)]
    else:
        picked = [Sampled(q.id, q.question, q.answers, q.gold_ids, False, held_aside(q.id))
                  for q in load_questions(dataset_dir) if q.gold_ids and q.answers]
    usable = [q for q in picked if q.question.strip() and expected_answer(q.question) not in ("comparison", "yes_no")]
    usable.sort(key=lambda q: hashlib.sha256(q.id.encode()).hexdigest())
    return usable[:per_set]


def snapshot(dataset: str, question_id: str, label: int, question: str, parsed: Any, entities: Sequence[Any],
             hits: Sequence[Any], sims: dict[str, float], ruled: bool, held: bool | None = None,
             answers: Sequence[str] = ()) -> dict[str, Any]:
    """What an example's features are computed from (the question, its analysis, the ranked passages and the
    sentence similarities), and the question's gold forms (what the chosen line is labelled by): replayed by
    ``replay`` after the features change, with no graph run and no embedder."""
    return {"dataset": dataset, "question_id": question_id, "label": label, "question": question,
            "answers": list(answers),
            "parsed": parsed.model_dump(mode="json"), "entities": [e.model_dump(mode="json") for e in entities],
            "hits": [h.model_dump(mode="json") for h in hits], "sims": sims, "ruled": ruled,
            "held": held_aside(question_id) if held is None else held}


def snapshot_rows(path: Path) -> list[dict[str, Any]]:
    """The snapshots of a file; a collection stopped midway may leave its last line cut: that one is skipped."""
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    rows = []
    for n, line in enumerate(lines):
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            if n != len(lines) - 1:
                raise
    return rows


def replay(row: dict[str, Any]) -> Example:
    """An example's features recomputed from its snapshot by the current code."""
    from graphs.domain import Hit, ParsedQuery, ValidatedEntity
    from graphs.rag.answer.calibration import candidate_sentences, judge
    from graphs.rag.answer.evidence import find_evidence
    from graphs.rag.answer.question import question_of
    from graphs.text.answer_types import expected_answer

    hits = [Hit.model_validate(h) for h in row["hits"]]
    asked = question_of(row["question"], expected_answer(row["question"]), ParsedQuery.model_validate(row["parsed"]),
                        [ValidatedEntity.model_validate(e) for e in row["entities"]]).about(hits)
    evidence = find_evidence(asked, hits)
    # only the similarities the runtime computes for this evidence (its candidate sentences, at most
    # SIMILARITY_SENTENCES): a snapshot collected under a larger cap holds more
    sims = {t: row["sims"][t] for t in candidate_sentences(evidence) if t in row["sims"]}
    judged = judge(asked, hits, evidence, sims)
    ruled = refused_before_score(asked, hits, evidence, judged)
    held = row["held"] if is_own(row["dataset"]) and "held" in row else held_aside(row["question_id"])
    chosen = chosen_label(row["label"], asked, hits, evidence, row.get("answers"))
    return Example(row["dataset"], row["question_id"], row["label"], held, judged.features, ruled, chosen)


def refused_before_score(asked: Any, hits: Sequence[Any], evidence: Sequence[Any], judged: Any) -> bool:
    """Whether the runtime says "not found" before the score reads the features: the rules of ``assess``, and
    those that run with the score (``ruled_out``: the attribute stated nowhere, another label's value, a quantity
    the passage never touches, a negated attribute …). Such an example scores 0 whatever the weights, so the fit
    does not read it and the threshold counts it refused, as the runtime does."""
    from graphs.rag.answer.answerability import assess, ruled_out

    if assess(asked, hits, evidence, supported_from=0.0).decision == "not_found":
        return True
    if not judged.evidence:
        return False
    attribute = judged.asked.attribute.name if judged.asked is not None and not judged.asked.attribute.generic \
        else None
    names = ", ".join(forms[0] for forms in asked.anchors)
    what = attribute.replace("_", " ") if attribute else "what is asked"
    return ruled_out(asked, judged, names, what, hits) is not None


def chosen_states(asked: Any, hits: Sequence[Any], evidence: Sequence[Any], answers: Sequence[str]) -> bool:
    """Whether the answer the extractive writer gives over this evidence (``extractive``: the short answer, then the
    lines it shows; no relation chain followed) states a gold form (``contains_answer`` or ``states_answer``) — what
    a trial counts useful, not "the gold is somewhere in the top passages"."""
    from graphs.rag.answer.extractive import extractive
    from graphs.text.normalize import has_han

    if not evidence or not answers:
        return False
    text = extractive(asked, hits, evidence, has_han(asked.text)).text
    return contains_answer(text, answers) > 0 or states_answer(text, answers)


def chosen_label(label: int, asked: Any, hits: Sequence[Any], evidence: Sequence[Any],
                 answers: Sequence[str] | None) -> int | None:
    """``Example.chosen``: an unanswerable example stays 0; an answerable one is 1 only where its chosen line states
    a gold form (one the rules refuse too: the threshold's rates count it); None without gold forms."""
    if not label:
        return 0
    if not answers:
        return None
    return int(chosen_states(asked, hits, evidence, answers))


def labelled(examples: Sequence[Example], by: str) -> tuple[list[Example], int]:
    """The examples labelled ``by`` "chosen" (the chosen line states a gold form) or "retrieved" (a gold form in the
    top passages, the protocol before session 25), and how many kept the retrieved label for want of gold forms."""
    if by == "retrieved":
        return list(examples), 0
    out = [replace(e, label=e.chosen) if e.chosen is not None else e for e in examples]
    return out, sum(e.chosen is None for e in examples)


async def _collect(dataset: str, resources: Any, questions: Sequence[Any], log: Any, sink: Any = None
                   ) -> list[Example]:
    from app.schemas import QueryRequest
    from app.services.query import _run_workflow
    from graphs.rag.answer.calibration import candidate_sentences, judge, similarities
    from graphs.rag.answer.evidence import find_evidence
    from graphs.rag.answer.question import EVIDENCE_PASSAGES, question_of
    from graphs.text.answer_types import expected_answer

    ctx = resources.context
    out: list[Example] = []
    started = time.perf_counter()
    for n, q in enumerate(questions, start=1):
        state, _ = await _run_workflow(resources, ctx, QueryRequest(question=q.question, top_k=RANK_DEEP))
        ranked = state.get("ranked") or []
        if "parsed" not in state or not ranked:
            continue
        # a question its files do not answer is a negative as ranked; an answerable one gives a positive where its
        # answer is retrieved, and a negative without every passage that holds it
        pairs = ((0, ranked[:FULL_TOP_K]),) if q.not_found else ((1, ranked[:FULL_TOP_K]), (0, negatives(ranked, q)))
        for label, hits in pairs:
            top = " ".join(f"{h.title} {h.text}" for h in hits[:EVIDENCE_PASSAGES])
            present = bool(hits) and contains_answer(top, q.answers) > 0
            if present != bool(label):
                continue  # an answerable one whose answer was not retrieved; an unanswerable one still answered
            asked = question_of(q.question, expected_answer(q.question), state["parsed"],
                                state.get("entities", [])).about(hits)
            evidence = find_evidence(asked, hits)
            sims = await asyncio.to_thread(similarities, ctx.embedder, q.question, candidate_sentences(evidence))
            judged = judge(asked, hits, evidence, sims)
            ruled = refused_before_score(asked, hits, evidence, judged)
            chosen = chosen_label(label, asked, hits, evidence, q.answers)
            out.append(Example(dataset, q.id, label, q.held, judged.features, ruled, chosen))
            if sink is not None:
                sink.write(json.dumps(snapshot(dataset, q.id, label, q.question, state["parsed"],
                                               state.get("entities", []), hits[:FULL_TOP_K], sims, ruled, q.held,
                                               q.answers),
                                      ensure_ascii=False) + "\n")
                sink.flush()
        if n % 25 == 0:
            log(f"{dataset}: {n}/{len(questions)} questions, {len(out)} examples, "
                f"{time.perf_counter() - started:.0f} s")
    return out


def collect(dataset_dir: Path, settings: Settings, per_set: int, log: Any = print, sink: Any = None
            ) -> list[Example]:
    """The answerable and unanswerable examples of one dataset (their snapshots to ``sink``, when given)."""
    prepared = prepare_index(dataset_dir, settings, log=log)
    try:
        return asyncio.run(_collect(dataset_dir.resolve().name, prepared.resources, _sample(dataset_dir, per_set),
                                    log, sink))
    finally:
        prepared.resources.close()


# ---------------------------------------------------------------------------- the light ranking


def _tokens(text: str) -> list[str]:
    """BM25 tokens: Latin words, and Chinese character bigrams."""
    import re

    from graphs.text.normalize import normalize

    folded = normalize(text)
    words = re.findall(r"[a-z0-9]+", folded)
    han = re.findall(r"[\u3400-\u9fff]+", folded)
    return words + [run[i : i + 2] for run in han for i in range(max(1, len(run) - 1))]


class Bm25:
    """Okapi BM25 over the corpus's passages (k1 1.5, b 0.75), in memory."""

    def __init__(self, texts: Sequence[str]) -> None:
        from collections import Counter

        self.docs = [Counter(_tokens(t)) for t in texts]
        self.lengths = np.array([sum(d.values()) for d in self.docs], dtype=float)
        df: Counter[str] = Counter()
        for d in self.docs:
            df.update(d.keys())
        n = len(self.docs)
        self.idf = {t: float(np.log(1 + (n - f + 0.5) / (f + 0.5))) for t, f in df.items()}
        self.index: dict[str, list[tuple[int, int]]] = {}
        for i, d in enumerate(self.docs):
            for t, c in d.items():
                self.index.setdefault(t, []).append((i, c))

    def scores(self, query: str) -> np.ndarray:
        out = np.zeros(len(self.docs))
        avg = self.lengths.mean() or 1.0
        for t in set(_tokens(query)):
            for i, c in self.index.get(t, []):
                out[i] += self.idf[t] * c * 2.5 / (c + 1.5 * (0.25 + 0.75 * self.lengths[i] / avg))
        return out


def collect_light(dataset_dir: Path, per_set: int, embedder: Any, log: Any = print, sink: Any = None
                  ) -> list[Example]:
    """The examples of one dataset over a light ranking: BM25 over the passages, the top ``FULL_TOP_K``, and the
    same question's ranking without its gold passages for the unanswerable example
    (what re-indexing without them gives BM25, but for its document frequencies). No entity store: the
    question's names are those the rules spot. For sets whose eval index is too slow to build here."""
    from datetime import date

    from graphs.domain import Hit, ParsedQuery, ValidatedEntity
    from graphs.rag.answer.calibration import candidate_sentences, judge, similarities
    from graphs.rag.answer.evidence import find_evidence
    from graphs.rag.answer.question import EVIDENCE_PASSAGES, question_of
    from graphs.text.answer_types import expected_answer
    from graphs.text.gazetteer import Gazetteer
    from graphs.text.query_analysis import analyze_query

    dataset = dataset_dir.resolve().name
    corpus = [json.loads(line) for line in (dataset_dir / "corpus.jsonl").read_text(encoding="utf-8").splitlines()
              if line.strip()]
    bm25 = Bm25([f"{p.get('title', '')} {p['text']}" for p in corpus])
    out: list[Example] = []
    started = time.perf_counter()
    questions = _sample(dataset_dir, per_set)
    for n, q in enumerate(questions, start=1):
        order = np.argsort(-bm25.scores(q.question), kind="stable")
        gold = set(q.gold_ids)
        with_gold = [int(i) for i in order[:FULL_TOP_K]]
        without = [int(i) for i in order if corpus[i]["id"] not in gold
                   and not contains_answer(f"{corpus[i].get('title', '')} {corpus[i]['text']}", q.answers)
                   ][:FULL_TOP_K]
        parsed = analyze_query(q.question, Gazetteer([]), date.today())
        # the dates the question names, as validate_entities gives them (the years rule reads them)
        dates = [ValidatedEntity(text=e.text, type="DATE", match="date", valid=True, date_range=e.date_range)
                 for e in parsed.entities if e.type == "DATE" and e.date_range is not None]
        query = parsed or ParsedQuery(original_query=q.question)
        for label, picked in ((1, with_gold), (0, without)):
            raw = bm25.scores(q.question)
            hits = [Hit(id=f"{corpus[i]['id']}#0", doc_id=corpus[i]["id"], title=corpus[i].get("title") or "",
                        text=corpus[i]["text"], score=float(raw[i]), channel="hybrid", bm25_score=float(raw[i]))
                    for i in picked]
            top = " ".join(f"{h.title} {h.text}" for h in hits[:EVIDENCE_PASSAGES])
            if (bool(hits) and contains_answer(top, q.answers) > 0) != bool(label):
                continue
            asked = question_of(q.question, expected_answer(q.question), query, dates).about(hits)
            evidence = find_evidence(asked, hits)
            sims = similarities(embedder, q.question, candidate_sentences(evidence)) if embedder is not None else {}
            judged = judge(asked, hits, evidence, sims)
            ruled = refused_before_score(asked, hits, evidence, judged)
            chosen = chosen_label(label, asked, hits, evidence, q.answers)
            out.append(Example(dataset, q.id, label, q.held, judged.features, ruled, chosen))
            if sink is not None:  # replayable (``replay``) by later code, like the full graph's snapshots
                sink.write(json.dumps(snapshot(dataset, q.id, label, q.question, query, dates, hits, sims, ruled,
                                               answers=q.answers),
                                      ensure_ascii=False) + "\n")
                sink.flush()
        if n % 25 == 0:
            log(f"{dataset}: {n}/{len(questions)} questions, {len(out)} examples, "
                f"{time.perf_counter() - started:.0f} s")
    return out


def _similarity_embedder(settings: Settings) -> Any:
    """The embedder of a new index (e5), for the sentence similarities of the light collection (its OpenMP threads
    sleep while they wait, as the service's: spinning ones cost seconds a sentence on a busy machine)."""
    from app.container import apply_openmp
    from graphs.embeddings import E5Embeddings

    apply_openmp(settings)
    return E5Embeddings(threads=settings.embedding_threads or 2)


SHIP_MARGIN = 0.02
"""A feature ships only if, leave one dataset out, no left-out set's held-aside part gets worse by more than this
on any of false "not found", "not found" when unanswerable and ECE (against the same fit without it)."""
_WORSE: dict[str, int] = {"false_not_found": 1, "not_found_unanswerable": -1, "ece": 1}
"""The held-aside metrics the ship check reads, and which way is worse (+1: higher is worse)."""


def regressions(with_: dict[str, Any], without: dict[str, Any], margin: float = SHIP_MARGIN) -> list[str]:
    """Where the leave-one-dataset-out table of a fit with a feature is worse than the one without it by more than
    ``margin`` on a left-out set's held-aside part (each 'set: metric before → after')."""
    out = []
    for name, row in with_.items():
        if name not in without:
            continue
        after, before = row["held_aside"], without[name]["held_aside"]
        for metric, sign in _WORSE.items():
            if sign * (after[metric] - before[metric]) > margin:
                out.append(f"{name}: {metric} {before[metric]:.3f} → {after[metric]:.3f}")
    return out


def format_comparison(with_: dict[str, Any], without: dict[str, Any]) -> str:
    """Held-aside figures of each left-out set, without and with the similarity features (markdown)."""
    lines = ["| left out (held-aside) | false \"not found\" without → with | \"not found\" when unanswerable | ECE |",
             "|---|---|---|---|"]
    for name, row in with_.items():
        if name in without:
            a, b = row["held_aside"], without[name]["held_aside"]
            lines.append(f"| {name} | {b['false_not_found']:.2f} → {a['false_not_found']:.2f} "
                         f"| {b['not_found_unanswerable']:.2f} → {a['not_found_unanswerable']:.2f} "
                         f"| {b['ece']:.3f} → {a['ece']:.3f} |")
    return "\n".join(lines)


def format_table(table: dict[str, Any], pooled: dict[str, Any]) -> str:
    """The leave-one-dataset-out table (markdown)."""
    lines = ["| left out (measured on) | part | n (ans / unans) | AUROC | ECE | threshold | false \"not found\" "
             "| \"not found\" when unanswerable |", "|---|---|---|---|---|---|---|---|"]
    for name, row in table.items():
        for part in ("dev", "held_aside"):
            r = row[part]
            lines.append(f"| {name} | {part.replace('_', '-')} | {r['n']} ({r['answerable']} / {r['unanswerable']}) "
                         f"| {r['auroc']:.3f} | {r['ece']:.3f} | {row['threshold']:.2f} | {r['false_not_found']:.2f} "
                         f"| {r['not_found_unanswerable']:.2f} |")
    for name, r in pooled.items():
        lines.append(f"| pooled model on {name} | held-aside | {r['n']} ({r['answerable']} / {r['unanswerable']}) "
                     f"| {r['auroc']:.3f} | {r['ece']:.3f} | {r['threshold']:.2f} | {r['false_not_found']:.2f} "
                     f"| {r['not_found_unanswerable']:.2f} |")
    return "\n".join(lines)


def note_of(examples: Sequence[Example], names: Sequence[str], l2: float, light: bool,
            fixed_threshold: float | None = None, label: str = "chosen") -> str:
    """The weights' note: what data, what ranking, what split, what was fitted."""
    sets = sorted({e.dataset for e in examples})
    public = [d for d in sets if not is_own(d)]
    own = [d for d in sets if is_own(d)]

    def of(d: str) -> str:
        return f"{d} ({len({e.question_id for e in examples if e.dataset == d})} questions)"

    return ("fitted by aer fit-answerability on " + ", ".join(of(d) for d in public)
            + (f" and {len(own)} own-file sets of tests/data ({sum(1 for e in examples if is_own(e.dataset))} "
               f"examples: {', '.join(own)})" if own else "")
            + (": in-memory BM25 ranking (--light)" if light else
               ": each question ranked by the full graph over its set's eval index (e5, no LLM)")
            + ("; answerable = the line the extractive writer chooses states a gold answer (gold in the top passages "
               "but not on the chosen line: unanswerable)" if label == "chosen" else
               "; answerable = gold answer in the top passages")
            + "; unanswerable = the same question over a ranking 20 "
              "deep without every passage that states a gold answer, cut to the top 5; an own-file set's 'not "
              "found' questions as ranked (the subject present, the attribute absent)"
            + f"; held aside: public sets {HELD_PERCENT} % by SHA-256 of the id (the part aer eval's all · held "
              "tables report), own-file sets their 'held' split; examples the rules refuse before the score "
              "(assess, ruled_out) score 0 and are not fitted on"
            + f"; logistic regression over {len(names)} features ({', '.join(names)}), L2 {l2:g}; threshold: "
            + (f"{fixed_threshold:.2f}, chosen on the leave-one-out table's dev parts (--threshold)"
               if fixed_threshold is not None else
               f"the most 'not found' on unanswerable examples with the score's false 'not found' ≤ "
               f"{MAX_FALSE_NOT_FOUND:.2f} on each public set and on the own-file sets together")
            + "; leave-one-out: each public set, each own-file family")


def fit_command(
    data: Annotated[Path, typer.Option(exists=True, file_okay=False, help="Folder holding the dev sets.")],
    dataset: Annotated[list[str] | None, typer.Option("--dataset", "-d", help="Dev set(s) (repeatable).")] = None,
    per_set: Annotated[int, typer.Option(min=10, help="Questions per set (hash order).")] = 150,
    out: Annotated[Path | None, typer.Option(help="Where to write the weights (default: the package's file).")] = None,
    light: Annotated[bool, typer.Option(
        "--light", help="Rank by in-memory BM25 instead of the eval index's full graph (the sentence similarity "
                 "still by e5).")] = False,
    without: Annotated[list[str] | None, typer.Option(
        "--without", help="Features the model leaves out (repeatable; 'similarity' also skips the embedder).")] = None,
    examples_file: Annotated[Path | None, typer.Option(
        "--examples", help="Reuse (or write, if missing) the collected examples as JSONL.")] = None,
    similarity_embedder: Annotated[str, typer.Option(
        "--similarity-embedder", help="The embedder the examples' sentence similarities come from (the weights "
                                      "use them only over an index of that embedder; another gets the fallback "
                                      "fitted without them).")] = "multilingual-e5-small-q4",
    force: Annotated[bool, typer.Option(
        "--force", help="Ship the similarity features even where, left out, a held-aside part gets worse by more "
                        "than 0.02 (false \"not found\", \"not found\" when unanswerable, ECE).")] = False,
    features: Annotated[str, typer.Option(
        help="The features the score reads: 'shipped' (FITTED, the default features of a fit), "
             "'all' (every feature computed), or a comma-separated list.")] = "shipped",
    fixed_threshold: Annotated[float | None, typer.Option(
        "--threshold", min=0.0, max=1.0, help="The default minAnswerability to ship, chosen from the "
        "leave-one-out table (default: the pooled fit's, by the false 'not found' budget).")] = None,
    l2: Annotated[float, typer.Option(
        "--l2", min=0.0, help="The L2 penalty (per example, on the standardized weights).")] = L2,
    label: Annotated[str, typer.Option(
        "--label", help="What makes an example answerable: 'chosen' (the line the extractive writer chooses states "
                        "a gold form) or 'retrieved' (a gold form anywhere in the top passages, the earlier "
                        "protocol).")] = "chosen",
    snapshots: Annotated[list[Path] | None, typer.Option(
        "--snapshots", help="JSONL of what the features are computed from (question, analysis, ranked passages, "
                            "sentence similarities): replayed by the current code when the file exists, written "
                            "while collecting (the full graph, or with --light in-memory BM25) when it does not "
                            "(repeatable: one per set).")] = None,
) -> None:
    """Fit the answerability score on the dev sets (unanswerable protocol), validate it leave-one-dataset-out,
    and write the weights with the table and a note of the data."""
    from graphs.rag.answer import calibration as answerability

    leave_out = {f for w in without or () for f in w.split(",") if f}
    if "similarity" in leave_out:
        leave_out.add("similarity_margin")
    chosen = answerability.FEATURES if features == "all" else FITTED if features == "shipped" else tuple(
        f for f in features.split(",") if f in answerability.FEATURES)
    names = [f for f in chosen if f not in leave_out]
    sets = dataset or list(DEFAULT_SETS)
    if snapshots and all(p.is_file() for p in snapshots):
        examples = [replay(row) for p in snapshots for row in snapshot_rows(p)]
    elif snapshots:
        settings = Settings()
        examples = []
        e5 = _similarity_embedder(settings) if light and "similarity" not in leave_out else None
        for name, path in zip(sets, snapshots, strict=True):
            if path.is_file():  # one set's snapshots collected already: replayed, the others collected
                examples += [replay(row) for row in snapshot_rows(path)]
                continue
            with path.open("w", encoding="utf-8") as written:
                examples += (collect_light(data / name, per_set, e5, lambda m: typer.echo(m, err=True), written)
                             if light else
                             collect(data / name, settings, per_set, lambda m: typer.echo(m, err=True), written))
    elif examples_file is not None and examples_file.is_file():
        examples = [Example(**json.loads(line)) for line in examples_file.read_text(encoding="utf-8").splitlines()
                    if line.strip()]
        for e in examples:
            e.features = answerability.derived(e.features)
    else:
        settings = Settings()
        if light:
            e5 = None if "similarity" in leave_out else _similarity_embedder(settings)
            sink = examples_file.open("a", encoding="utf-8") if examples_file is not None else None
            try:
                examples = [e for name in sets for e in collect_light(data / name, per_set, e5,
                                                                      lambda m: typer.echo(m, err=True), sink)]
            finally:
                if sink is not None:
                    sink.close()
            if examples_file is not None:
                examples_file = None  # written as collected
        else:
            examples = [e for name in sets for e in collect(data / name, settings, per_set,
                                                           lambda m: typer.echo(m, err=True))]
        if examples_file is not None:
            examples_file.write_text("".join(json.dumps(e.__dict__) + "\n" for e in examples), encoding="utf-8")
    if label not in ("chosen", "retrieved"):
        raise typer.BadParameter(f"--label {label!r}: 'chosen' or 'retrieved'")
    examples, unlabelled = labelled(examples, label)
    if unlabelled:
        typer.echo(f"{unlabelled} examples carry no gold forms (snapshots collected before session 25): labelled "
                   "by retrieval", err=True)
    dev = [e for e in examples if not e.held]
    if len({e.label for e in dev}) < 2:
        raise typer.BadParameter("the dev sets gave examples of one label only: nothing to fit")
    model, threshold = fit_on(dev, names, l2)
    if fixed_threshold is not None:  # chosen from the leave-one-out table, not by the pooled fit's budget
        threshold = fixed_threshold
    table = validate(examples, names, l2, fixed_threshold)
    pooled = {name: {**evaluate(model, [e for e in examples if e.dataset == name and e.held], names, threshold),
                     "threshold": threshold} for name in sorted({e.dataset for e in examples})}
    typer.echo(format_table(table, pooled))
    counts = {name: {"answerable": sum(e.label for e in examples if e.dataset == name),
                     "unanswerable": sum(1 - e.label for e in examples if e.dataset == name)}
              for name in sorted({e.dataset for e in examples})}
    mean, scale, w, b = model
    fitted = answerability.Model(features=tuple(names), mean=mean, scale=scale, weights=w, bias=b,
                                 threshold=threshold,
                                 note=note_of(examples, names, l2, light, fixed_threshold, label))
    similar = [n for n in names if n.startswith("similarity")]
    if similar:  # the same fit without them: what an index of another embedder is scored with
        plain = [n for n in names if n not in similar]
        (pm, ps, pw, pb), plain_threshold = fit_on(dev, plain, l2)
        fallback = answerability.Model(features=tuple(plain), mean=pm, scale=ps, weights=pw, bias=pb,
                                       threshold=plain_threshold, note="the fit without the similarity features")
        plain_table = validate(examples, plain, l2)
        typer.echo(f"fallback without {', '.join(similar)}: threshold {plain_threshold:.2f}")
        typer.echo(format_comparison(table, plain_table))
        worse = regressions(table, plain_table)
        if worse and not force:
            # the ship rule: the similarity stays out of the weights unless no held-aside part gets worse
            typer.echo(f"the similarity features are not shipped (worse by more than {SHIP_MARGIN} left out: "
                       f"{'; '.join(worse)}); the weights are the fit without them (--force ships them anyway)")
            pooled = {name: {**evaluate((pm, ps, pw, pb), [e for e in examples if e.dataset == name and e.held],
                                        plain, plain_threshold), "threshold": plain_threshold}
                      for name in sorted({e.dataset for e in examples})}
            fitted = replace(fallback, note=f"{fitted.note}; similarity features measured and left out: "
                                            f"{'; '.join(worse)}")
            table = plain_table
        else:
            fitted = replace(fitted, embedder=similarity_embedder, fallback=fallback)
    target = out or Path(answerability.__file__).with_name(answerability.WEIGHTS)
    target.write_text(json.dumps(fitted.to_json(examples=counts, leave_one_dataset_out=table, pooled_held_aside=pooled),
                                 indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    typer.echo(f"weights written to {target} (threshold {fitted.threshold:.2f})")
