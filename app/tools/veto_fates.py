"""Each veto's fate, measured leave-one-set-out on every labelled snapshot.

A veto (``answerability.VETOES``) says "not found" whatever the calibrated score. Each was written from a few
samples; on material nobody tuned for, a veto refuses answerable questions as well as the absent ones it was
written to catch. This tool replays the stored snapshots (``fit_answerability.snapshot``: the question, its
analysis, the ranked passages) with the current code, records for each example *every* veto that holds (not only
the first), whether ``assess`` refuses it first and what the calibrated score says, and judges each veto by its
own effect in front of the score: the examples it refuses that the score (or the bilingual lexicon) would answer,
whatever the other vetoes say (two vetoes that refuse the same examples would otherwise hide each other). Such an example counts ``+1`` when it is unanswerable (an own set's "not found" question, or the
unanswerable protocol's gold-removed twin) and ``-1`` when it is answerable: the trial's "useful" count weighs a
wrong answer and a false "not found" the same.

Leave one family out: for each family of sets the veto touches (``fit_answerability.family``: blind14 … blind20b
are one, written alike by the same hands; a public set is its own), keep it there only if the *other* families'
net is positive, and add that family's own net when kept. A veto that refused an answerable example anywhere stays a hard veto only if
this held-out sum is positive; one that never did (no measured harm, often no measured use either: a veto written
for one sample that no other set reaches) stays. The others are dropped.
The fates ship as ``graphs/rag/answer/vetoes.json``; the runtime reads it (``answerability.ruled_out``).

Each kept veto is also judged on the strong dense matches alone (``strong_match``: the answering sentence close to
the question by the e5 sentence similarity, at least ``STRONG_SIMILARITY``, with a span of the asked type next to
the asked attribute): whether such a match should override it. Measured on 3,421 snapshots of 67 sets (session
20), every kept veto but one catches more unanswerable strong matches than it refuses answerable ones there
(misgoverned 20 / 10, other_edition 13 / 2, misattributed 11 / 1, unsaid_quantity 10 / 1); ``ungoverned`` yields
on 3 examples (2 / 1). The runtime acts on none: the shipped score reads no sentence similarity, so a query
computes none (~125 ms of e5 a question for a net of one example).

    PYTHONPATH=. python -m app.tools.veto_fates SNAPSHOT.jsonl ... [--carry graphs/rag/answer/vetoes.json] \
        [--out vetoes.json]

Snapshots do not outlive the machine they were collected on: ``--carry`` keeps an earlier fates file's per-set
counts for the sets not replayed here (counted by the code of their time), so a new family's snapshots add to the
measurement instead of replacing it.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

PUBLIC = frozenset({"hotpotqa_sample", "2wiki_answers", "cmrc2018_trial", "rgb_zh_reject_dev"})
"""The public dev sets: every negative of theirs is the unanswerable protocol's gold-removed twin."""


@dataclass(frozen=True)
class Replayed:
    """One snapshot as the current chain judges it."""

    dataset: str
    id: str
    label: int
    vetoes: tuple[str, ...] = ()
    """Every veto that holds, in chain order."""
    refused_first: bool = False
    """``assess`` (a name no passage mentions, a year no answering passage states, …) refuses before the vetoes."""
    answered_by_score: bool = True
    """The calibrated score (or the bilingual lexicon) answers when no veto holds."""
    held: bool = False
    strong: bool = False
    """A strong dense match with a typed span of the asked kind (``strong_match``)."""


STRONG_SIMILARITY = 0.88
"""The e5 cosine of question and answering sentence from which a match counts as strong (e5-small's cosines sit
near 0.9: of the answerable examples a veto refuses, a quarter reach 0.91, half 0.855, about 0.38 reach 0.88)."""


def strong_match(features: dict[str, float]) -> bool:
    """The answering sentence is close in meaning to the question and holds a span of the asked type next to the
    asked attribute."""
    return features.get("similarity", 0.0) >= STRONG_SIMILARITY and features.get("span_near", 0.0) == 1.0


@dataclass
class Fate:
    """A veto's measured effect and whether it stays a hard veto."""

    name: str
    caught: int = 0
    refused: int = 0
    per_set: dict[str, list[int]] = field(default_factory=dict)
    held_out: float = 0.0
    kept: bool = False

    def as_json(self) -> dict[str, Any]:
        return {"kept": self.kept, "caught": self.caught, "refused_answerable": self.refused,
                "leave_one_set_out": round(self.held_out, 2),
                "per_set": {s: {"caught": c, "refused_answerable": r} for s, (c, r) in sorted(self.per_set.items())}}


def refused(row: Replayed, on: Iterable[str]) -> bool:
    """Whether the chain with only the vetoes ``on`` says "not found"."""
    return row.refused_first or any(v in on for v in row.vetoes) or not row.answered_by_score


def family(dataset: str) -> str:
    """The group a set is left out with (``fit_answerability.family``: blind14 … blind20b one family)."""
    from app.tools.fit_answerability import family as of

    return of(dataset)


def measure(rows: Sequence[Replayed], name: str, strong_only: bool = False) -> Fate:
    """The effect of ``name`` on its own in front of the score, per set, and its leave-one-family-out sum (on the
    strong dense matches alone with ``strong_only``: kept there means a strong match does not override it)."""
    per: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for row in rows:
        if name in row.vetoes and not refused(row, ()) and (row.strong or not strong_only):
            per[row.dataset][0 if row.label == 0 else 1] += 1
    return judged(name, dict(per))


def judged(name: str, per: dict[str, list[int]]) -> Fate:
    """A veto's fate from its per-set counts (caught unanswerable, refused answerable)."""
    fate = Fate(name)
    fate.per_set = per
    fate.caught = sum(c for c, _ in per.values())
    fate.refused = sum(r for _, r in per.values())
    net: dict[str, int] = defaultdict(int)  # by family: sets written alike by the same hands are left out together
    for s, (c, r) in per.items():
        net[family(s)] += c - r
    fate.held_out = sum(net[s] for s in net if sum(v for t, v in net.items() if t != s) > 0)
    fate.kept = fate.held_out > 0 or fate.refused == 0
    return fate


def fates(rows: Sequence[Replayed], names: Sequence[str]) -> dict[str, Fate]:
    """Every veto's fate."""
    return {n: measure(rows, n) for n in names}


def carried(fate: Fate, earlier: dict[str, Any], replayed: Iterable[str]) -> Fate:
    """The fate with the per-set counts of an earlier fates file's entry (``Fate.as_json``) for the sets not
    replayed here: snapshots do not outlive a machine, so the sets measured before keep their counts (of the code
    of that time) and the replayed ones are counted anew; the leave-one-family-out rule then reads them all."""
    done = set(replayed)
    per = {s: [int(v["caught"]), int(v["refused_answerable"])] for s, v in earlier.get("per_set", {}).items()
           if s not in done}
    return judged(fate.name, {**per, **fate.per_set})


def replay(paths: Sequence[Path]) -> list[Replayed]:
    """The snapshots judged by the current chain (comparisons and yes/no questions keep their own rules)."""
    from app.tools.fit_answerability import held_aside, is_own, snapshot_rows
    from graphs.domain import Hit, ParsedQuery, ValidatedEntity
    from graphs.rag.answer.answerability import assess, stated_across_languages, vetoes
    from graphs.rag.answer.calibration import bundled, candidate_sentences, judge
    from graphs.rag.answer.evidence import find_evidence
    from graphs.rag.answer.question import question_of
    from graphs.text.answer_types import expected_answer

    model = bundled()
    out = []
    for path in paths:
        for row in snapshot_rows(path):
            hits = [Hit.model_validate(h) for h in row["hits"]]
            q = question_of(row["question"], expected_answer(row["question"]),
                            ParsedQuery.model_validate(row["parsed"]),
                            [ValidatedEntity.model_validate(e) for e in row["entities"]]).about(hits)
            if q.kind in ("comparison", "yes_no"):
                continue
            evidence = find_evidence(q, hits)
            sims = {t: row["sims"][t] for t in candidate_sentences(evidence) if t in row["sims"]}
            judged = judge(q, hits, evidence, sims)
            first = assess(q, hits, evidence, supported_from=0.0).decision == "not_found"
            held = row["held"] if is_own(row["dataset"]) and "held" in row else held_aside(row["question_id"])
            found: tuple[str, ...] = ()
            if not first and judged.evidence:
                attribute = judged.asked.attribute.name if judged.asked is not None and \
                    not judged.asked.attribute.generic else None
                found = tuple(vetoes(q, judged, ", ".join(f[0] for f in q.anchors),
                                     attribute.replace("_", " ") if attribute else "what is asked", hits))
            p = model.probability(judged.features) if judged.evidence else 0.0
            by_score = bool(judged.evidence) and (p >= model.threshold or stated_across_languages(judged.features))
            out.append(Replayed(row["dataset"], row["question_id"], row["label"], found, first, by_score, held,
                                strong_match(judged.features)))
    return out


def main(argv: Sequence[str] | None = None) -> None:
    from graphs.rag.answer.answerability import VETOES

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("snapshots", nargs="+", type=Path)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--rows", type=Path, help="Keep the replayed rows as JSONL (read back when it exists).")
    parser.add_argument("--carry", type=Path, help="An earlier fates file: its per-set counts of the sets not "
                                                   "replayed here are kept (``carried``).")
    args = parser.parse_args(argv)
    if args.rows is not None and args.rows.is_file():
        rows = [Replayed(**{**r, "vetoes": tuple(r["vetoes"])}) for r in map(json.loads, args.rows.open())]
    else:
        rows = replay(args.snapshots)
        if args.rows is not None:
            args.rows.write_text("".join(json.dumps(asdict(r), ensure_ascii=False) + "\n" for r in rows),
                                 encoding="utf-8")
    names = [n for n, _ in VETOES]
    judged = fates(rows, names)
    counts = Counter((r.label, refused(r, [n for n, f in judged.items() if f.kept])) for r in rows)
    strong = {n: measure(rows, n, strong_only=True) for n in names}
    sets = sorted({r.dataset for r in rows})
    earlier: dict[str, Any] = json.loads(args.carry.read_text(encoding="utf-8")) if args.carry else {}
    if earlier:
        before = earlier.get("vetoes", {})
        judged = {n: carried(f, before.get(n, {}), sets) for n, f in judged.items()}
        strong = {n: carried(f, before.get(n, {}).get("strong_match", {}), sets) for n, f in strong.items()}
    for f in judged.values():
        s = strong[f.name]
        print(f"{f.name:24s} caught {f.caught:3d} refused answerable {f.refused:3d} "
              f"held out {f.held_out:+5.1f} {'kept' if f.kept else 'dropped'}; on strong matches {s.caught}/{s.refused} "
              f"{'holds' if s.kept else 'yields'}")
    print(f"answerable refused {counts[(1, True)]}/{counts[(1, True)] + counts[(1, False)]}, "
          f"unanswerable refused {counts[(0, True)]}/{counts[(0, True)] + counts[(0, False)]}")
    if args.out is not None:
        kept_sets = sorted({s for f in judged.values() for s in f.per_set} | set(sets))
        note = (f"fates measured by app/tools/veto_fates.py on {len(rows)} replayed snapshots of {len(sets)} "
                "sets (own-file sets: answerable and 'not found' questions, and gold-removed twins; public dev "
                "sets: the unanswerable protocol); a caught unanswerable +1, a refused answerable -1, leave one "
                "family out")
        if earlier:
            note += (f"; the per-set counts of the sets of {args.carry.name} not replayed here carried over "
                     f"({len(kept_sets) - len(sets)} sets: {earlier.get('note', '')})")
        carried_keys = {n: {k: v for k, v in earlier.get("vetoes", {}).get(n, {}).items()
                            if k in ("note", "measured_on")} for n in names}
        args.out.write_text(json.dumps({
            "note": note,
            "sets": kept_sets, "vetoes": {n: carried_keys[n] | judged[n].as_json() | {"strong_match": {
                "caught": strong[n].caught, "refused_answerable": strong[n].refused,
                "leave_one_set_out": round(strong[n].held_out, 2), "yields": not strong[n].kept}} for n in names}}, ensure_ascii=False, indent=1) + "\n",
            encoding="utf-8")


if __name__ == "__main__":
    main()
