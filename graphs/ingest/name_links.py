"""Names linked across scripts at ingest: a workspace's Chinese and Latin names of one thing become one entity
(the Chinese name standard, the Latin one its alias), so that a question in either language reaches the files
written in the other (the entity route's tag filter, the answer layer's spellings of the name).

A link is made only on evidence, and says which:

- **stated**: a document writes both names as one ("银杉蜂业合作社（Silverfir Apiary Cooperative）", "Brightpaw,
  known in Chinese as 明爪", "又称 …", "also known as …"): ``graphs.text.scripts.stated_pairs``;
- **pinyin**: the Latin name's transliterated words are an exact pinyin reading of Chinese characters of the
  workspace, and its kind word is translated by the Chinese ending ("Lanxi Village" = 岚溪 + 村); a name with no
  kind word (a person) links only to characters the Chinese text's own tagging calls a name, and only when one
  spelling reads so;
- **shared facts**: a translated name ("Morningstar Youth Orchestra" / 晨星青年管弦乐团) whose kind word the
  Chinese ending translates, and whose passages state the same hard facts as the Chinese name's (numbers, codes,
  names already linked): at least ``MIN_SHARED`` of them, and more than any other candidate.

Nothing is linked when two Chinese names fit one Latin name equally. ``NameLinker`` is the ``Ingestor``'s part
that writes the links (``upsert_entity`` + ``retag``), after each ingest."""

from __future__ import annotations

import logging
import math
import re
import statistics
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, cast

from graphs.domain import EntityMetadata, EntityType
from graphs.stores.base import AliasConflictError, EntityStore, IndexedChunks
from graphs.stores.filters import docs_filter
from graphs.text.normalize import has_han, normalize
from graphs.text.scripts import (
    KIND_SUFFIXES,
    char_readings,
    distinctive_reading,
    kind_of,
    latin_names,
    stated_pairs,
)

log = logging.getLogger(__name__)

MIN_SHARED = 3
"""Hard facts (numbers, codes, linked names) a translated name's passages must share with the Chinese name's."""
MAX_DOCUMENTS = 400
"""Documents read per linking pass (a larger workspace links the names of its newest documents' neighbours
only through stated pairs in the documents just written)."""
MEANING_LEAD = 3.0
"""How much nearer in meaning (the embedder's cosine, names embedded as queries) a translated name's distinctive
part must be to its Chinese candidate's than to the next name compared, in spreads (standard deviations) of the
other names' similarities to it, for a link on fewer than ``MIN_SHARED`` shared facts. A lead in spreads holds
across embedders, an absolute one does not: on the translated pairs of ``tests/data/xname_pairs`` (each against
12 other names), the nearest wrong name leads the second by 3 spreads for 6 % (e5, dev; held 6 %) and 2 % (USE;
held 9 %) of names, while a true pair leads by as much in 34 % (e5) and 33 % (USE); a lead of 0.03 in cosine, as
selective on e5, lets 68 % of chance leads through on USE (whose cosines of names spread five times wider)."""
MEANING_MARGIN = 0.03
"""The lead in cosine asked when fewer than ``MIN_SPREAD`` other names are compared (no spread to measure by):
e5's 95th percentile of chance leads on the same pairs is 0.025."""
MIN_SPREAD = 3
"""Other names compared, at least, for their spread to measure a lead by."""
MAX_RIVALS = 12
"""Chinese names of other kinds, written in the candidates' own passages, that a translated name is also compared
with (the nearest must still be its own candidate)."""
MAX_NAME = 8
"""Characters of a Chinese rival name at most (a longer run ending with a kind word is a clause: 每天有六班船往返东湾)."""
Similarity = Callable[[str, Sequence[str]], Sequence[float]]
"""The embedder's similarity of a text to each of some others (``graphs.embeddings.sentence_similarity``)."""
Basis = Literal["stated", "pinyin", "shared facts", "meaning"]

_HAN_RUN = re.compile(r"[\u3400-\u9fff]+")
_NUMBER = re.compile(r"(?<![A-Za-z0-9.-])\d[\d,]*(?:\.\d+)?")
_CODE = re.compile(r"(?<![A-Za-z0-9])[A-Z]{1,4}-?\d{2,6}(?![A-Za-z0-9])")
_WORD = re.compile(r"[a-z][a-z'’-]*")
_FUNCTION_CHARS = frozenset("在于的和与是从到为将由把被向位了及或")


@dataclass(frozen=True)
class NameLink:
    """A Chinese and a Latin name of one thing, its entity type and why they were linked."""

    han: str
    latin: str
    type: EntityType
    basis: Basis
    reason: str

    def describe(self) -> str:
        return f"{self.han} = {self.latin} (linked by {self.basis}: {self.reason})"


def facts(text: str) -> set[str]:
    """Hard facts a passage states: numbers of two or more digits (commas dropped), codes."""
    out = {m[0].replace(",", "") for m in _NUMBER.finditer(text)}
    out = {n for n in out if len(n.replace(".", "")) >= 2}
    return out | {m[0].upper().replace("-", "") for m in _CODE.finditer(text)}


def _han_names_ending(text: str, endings: Sequence[str]) -> set[str]:
    """Chinese names in a text that end with one of ``endings`` and hold at least two characters before it,
    cut after the last function character ("晨星青年管弦乐团成立于…" → 晨星青年管弦乐团)."""
    out = set()
    for run in _HAN_RUN.findall(text):
        for ending in endings:
            start = 0
            while (at := run.find(ending, start)) >= 0:
                head = run[:at]
                cut = max((i for i, ch in enumerate(head) if ch in _FUNCTION_CHARS), default=-1)
                head = head[cut + 1 :][-10:]
                if len(head) >= 2:
                    out.add(head + ending)
                start = at + 1
    return out


def _windows_by_reading(han_texts: Iterable[str], targets: Iterable[str]) -> dict[str, set[tuple[str, str]]]:
    """The windows of two to four Chinese characters of the texts that read as one of ``targets`` (the Latin
    names' readings), under that reading, with the characters that follow each. Only a window whose first
    character starts some target is read whole (a passage's windows are hundreds of thousands on a large
    workspace; nearly all start with a syllable no name of it starts with)."""
    targets = set(targets)
    starts = {t[:k] for t in targets for k in range(1, len(t) + 1)}
    out: dict[str, set[tuple[str, str]]] = {}
    for text in han_texts:
        for run in _HAN_RUN.findall(text):
            for i in range(len(run) - 1):
                # the readings of run[i:i+size] that start some target, grown a character at a time
                partial = {r for r in char_readings(run[i]) if r in starts}
                for size in (2, 3, 4):
                    if not partial or i + size > len(run):
                        break
                    partial = {p + r for p in partial for r in char_readings(run[i + size - 1]) if p + r in starts}
                    for reading in partial & targets:
                        out.setdefault(reading, set()).add((run[i : i + size], run[i + size : i + size + 8]))
    return out


def _pinyin_candidates(reading: str, windows: Mapping[str, set[tuple[str, str]]], endings: Sequence[str] | None,
                       known: set[str]) -> set[str]:
    """Chinese spellings of a Latin name's reading: characters read exactly so, followed by the ending of its
    kind word (when it has one), else tagged as a name by the Chinese text's own tagging."""
    out: set[str] = set()
    for window, rest in windows.get(reading, ()):
        if endings is not None:
            out.update(window + e for e in endings if rest.startswith(e))
        elif window in known:
            out.add(window)
    return out


MAX_BETWEEN = 4
"""Chinese characters at most between a transliterated head and the ending of its kind word (青山 + 种子 + 图书馆
for "Qingshan Seed Library")."""


def head_readings(latin: str) -> list[str]:
    """The readings of a Latin name's leading words, longest first, when the words before its kind word are more
    than one ("Qingshan Seed Library" → "qingshan"): a transliterated head followed by translated words."""
    kind = kind_of(latin)
    words = [w.replace("'", "").replace("’", "").replace("-", "") for w in _WORD.findall(normalize(latin))]
    if kind is None:
        return []
    words = words[: len(latin.split()) - (2 if " ".join(latin.lower().split()[-2:]) in KIND_SUFFIXES else 1)]
    return [r for k in range(len(words) - 1, 0, -1) if len(r := "".join(words[:k])) >= 4]


def _headed_candidates(reading: str, windows: Mapping[str, set[tuple[str, str]]], endings: Sequence[str]) -> set[str]:
    """Chinese names that begin with characters read exactly as a Latin name's head and end, at most
    ``MAX_BETWEEN`` characters later, with the ending of its kind word (白沙 + 小学 is not one: something must
    stand for the translated words between)."""
    out: set[str] = set()
    for window, rest in windows.get(reading, ()):
        for e in endings:
            at = rest.find(e)
            if 0 < at <= MAX_BETWEEN:
                out.add(window + rest[: at + len(e)])
    return out


def propose_links(docs: Mapping[str, Sequence[str]], known_han: Iterable[str] = (),
                  new: Collection[str] | None = None, similar: Similarity | None = None) -> list[NameLink]:
    """The name links the documents (doc id → its passages' texts) support, stated ones first. ``new``: the
    documents just written; only links with a side in them are proposed (the others were proposed when their
    own documents were written), judged against all the documents as before. ``similar``: the embedder's
    similarity, for translated names that share fewer than ``MIN_SHARED`` facts (``_by_meaning``)."""
    links: dict[tuple[str, str], NameLink] = {}
    for doc_id, texts in docs.items():
        if new is not None and doc_id not in new:
            continue
        for text in texts:
            for han, latin in stated_pairs(text):
                kind = kind_of(latin)
                key = (normalize(han), normalize(latin))
                links.setdefault(key, NameLink(han, latin, cast(EntityType, kind[1]) if kind else "OTHER",
                                               "stated", f"written together in {doc_id}"))
    linked_latin = {k[1] for k in links}
    linked_han = {k[0] for k in links}
    passages = [t for texts in docs.values() for t in texts]
    han_texts = [t for t in passages if has_han(t)]
    latin_texts = [t for t in passages if re.search(r"[A-Za-z]{3}", t)]
    known = set(known_han)
    names = list(dict.fromkeys(n for t in latin_texts for n in latin_names(t)))
    targets = {r for n in names if len(r := distinctive_reading(n)) >= 4} | {r for n in names
                                                                               for r in head_readings(n)}
    windows = _windows_by_reading(han_texts, targets) if targets and han_texts else {}
    untranslated = []
    for latin in names:
        if normalize(latin) in linked_latin:
            continue
        kind = kind_of(latin)
        reading = distinctive_reading(latin)
        found = (_pinyin_candidates(reading, windows, kind[0] if kind else None, known)
                 if len(reading) >= 4 else set())
        head = None
        if not found and kind is not None:
            # a transliterated head and translated words ("Qingshan Seed Library" / 青山种子图书馆)
            head = next(((r, c) for r in head_readings(latin) if (c := _headed_candidates(r, windows, kind[0]))),
                        None)
            # only one such name: two or more (北京日报报业集团, 北京某某集团 for "Beijing Daily Group") say nothing,
            # and the name is judged as a translated one
            head = head if head is not None and len(head[1]) == 1 else None
            found = set(head[1]) if head is not None else set()
        if len(found) == 1:
            han = found.pop()
            if normalize(han) not in linked_han:
                why = (f"{han} reads {reading}" if head is None else f"{han} begins with {head[0]} read so") + (
                    f", {kind_of(latin)[0][0]} translates {latin.split()[-1]}" if kind else "")  # type: ignore[index]
                links[(normalize(han), normalize(latin))] = NameLink(
                    han, latin, cast(EntityType, kind[1]) if kind else "PERSON", "pinyin", why)
                linked_han.add(normalize(han))
                linked_latin.add(normalize(latin))
        elif not found and kind is not None:
            untranslated.append((latin, kind))
    pairs = {k: v.han for k, v in links.items()}
    ending_names: dict[tuple[str, ...], set[str]] = {}  # the Chinese names of a kind's endings, read once
    fresh_blob = "\n".join(t for d in new for t in docs.get(d, ())) if new is not None else None
    for latin, (endings, etype) in untranslated:
        if fresh_blob is not None and latin not in fresh_blob and not any(e in fresh_blob for e in endings):
            continue  # neither side can be in the new documents: proposed when its own documents were written
        if any(latin != n and latin in n for n in names):
            continue  # part of a longer name ("Seed Library" of "Qingshan Seed Library"): that one is the name
        about = [t for t in latin_texts if latin in t]
        own = set().union(*(facts(t) for t in about)) | {
            normalize(han) for (h, lat), han in pairs.items() if any(lat in normalize(t) for t in about)}
        scored = []
        if endings not in ending_names:
            found_han = {h for t in han_texts for h in _han_names_ending(t, endings)}
            # a name inside a longer one of the same kind (茶叶博物馆 in 松岭茶叶博物馆) is not one on its own
            ending_names[endings] = {h for h in found_han if not any(han != h and h in han for han in found_han)}
        for han in ending_names[endings]:
            if normalize(han) in linked_han:
                continue
            theirs = [t for t in han_texts if han in t]
            shared = own & (set().union(*(facts(t) for t in theirs)) | {
                normalize(h) for h in pairs.values() if any(h in t for t in theirs)})
            scored.append((len(shared), han, shared))
        scored.sort(key=lambda s: (-s[0], s[1]))
        log.debug("translated %s: %s", latin, scored[:3])
        if scored and scored[0][0] >= MIN_SHARED and (len(scored) == 1 or scored[1][0] < scored[0][0]):
            _, han, shared = scored[0]
            links[(normalize(han), normalize(latin))] = NameLink(
                han, latin, cast(EntityType, etype), "shared facts",
                f"{endings[0]} translates {latin.split()[-1]}; both state {', '.join(sorted(shared)[:6])}")
            linked_han.add(normalize(han))
        elif similar is not None and any(n and _strong(shared) for n, _, shared in scored):
            # rivals: the names of other kinds that the candidates' own passages write (their neighbours)
            near = [t for t in han_texts if any(h in t for _, h, shared in scored if _strong(shared))]
            rivals = sorted({h for t in near for ends, _ in KIND_SUFFIXES.values() if ends != endings
                             for h in _han_names_ending(t, ends) if len(h) <= MAX_NAME}
                            - {h for _, h, _ in scored})[:MAX_RIVALS]
            same_kind = [lat for lat, k in untranslated if k == (endings, etype) and lat != latin]
            link = _by_meaning(latin, endings, etype, scored, rivals, same_kind, similar)
            if link is not None:
                links[(normalize(link.han), normalize(latin))] = link
                linked_han.add(normalize(link.han))
    if new is None:
        return list(links.values())
    fresh = [t for d in new for t in docs.get(d, ())]
    return [link for link in links.values()
            if link.basis == "stated" or any(link.latin in t or link.han in t for t in fresh)]


def _head(name: str, endings: Sequence[str] = ()) -> str:
    """A name's distinctive part: a Latin name without its kind word(s) ("Redkite Ferry Company" → "Redkite
    Ferry"), a Chinese one without the ending that translates it (红鸢轮渡公司 → 红鸢轮渡)."""
    if has_han(name):
        ending = next((e for e in sorted(endings, key=len, reverse=True) if name.endswith(e)), "")
        return name[: len(name) - len(ending)] or name
    words = name.split()
    cut = 2 if len(words) > 2 and " ".join(words[-2:]).lower() in KIND_SUFFIXES else 1
    return " ".join(words[:-cut]) if len(words) > cut else name


def _strong(shared: Iterable[str]) -> set[str]:
    """The shared facts that tell two things apart: a linked name, a code, a number of three digits or more (a
    year, a count); "12" or "30" is shared by chance."""
    return {f for f in shared if len(f.replace(".", "")) >= 3 or has_han(f)}


def _leads(best: float, others: Sequence[float]) -> bool:
    """Whether a similarity leads the others by more than chance: by ``MEANING_LEAD`` spreads of the others, or by
    ``MEANING_MARGIN`` when they are too few to measure a spread by."""
    lead = best - max(others)
    if len(others) < MIN_SPREAD:
        return lead >= MEANING_MARGIN
    spread = statistics.pstdev(others)
    return lead > 0 and lead >= MEANING_LEAD * spread


def _by_meaning(latin: str, endings: Sequence[str], etype: str, scored: Sequence[tuple[int, str, set[str]]],
                rivals: Sequence[str], same_kind: Sequence[str], similar: Similarity) -> NameLink | None:
    """A translated name ("Redkite Ferry Company" / 红鸢轮渡公司) linked on fewer shared facts than ``MIN_SHARED``:
    the Chinese name of its kind that shares at least one hard fact with it, and whose distinctive part is the
    nearest in meaning to its own by more than chance (``_leads``) — nearer than every other Chinese name of its
    kind and every Chinese name of another kind (``rivals``) — while the Latin name is in turn the nearest to it of
    the Latin names of that kind (``same_kind``). None otherwise: a wrong link is worse than none."""
    scored = [s for s in scored if len(s[1]) <= MAX_NAME][:MAX_RIVALS]
    candidates = [h for _, h, _ in scored]
    if not candidates:
        return None  # every name of its kind is too long to be one: nothing to compare
    heads = [_head(h, endings) for h in candidates]
    sims = list(similar(_head(latin), [*heads, *(_head(r, [e for ends, _ in KIND_SUFFIXES.values() for e in ends])
                                                 for r in rivals)]))
    ranked = sorted(range(len(sims)), key=lambda i: -sims[i])
    best = ranked[0]
    if best >= len(candidates) or not _strong(scored[best][2]):
        return None  # the nearest is a name of another kind, or shares no fact
    second = sims[ranked[1]] if len(ranked) > 1 else None
    if second is not None and not _leads(sims[best], [sims[i] for i in ranked[1:]]):
        return None
    if same_kind:
        back = list(similar(heads[best], [_head(latin), *(_head(o) for o in same_kind)]))
        if not _leads(back[0], back[1:]):
            return None  # another Latin name of this kind reads as near to it
    _, han, shared = scored[best]
    near = f", next {second:.3f}" if second is not None else ""
    return NameLink(han, latin, cast(EntityType, etype), "meaning",
                    f"{endings[0]} translates {latin.split()[-1]}; {_head(latin)!r} and {heads[best]} are nearest "
                    f"in meaning ({sims[best]:.3f}{near}); both state {', '.join(sorted(shared)[:6])}")


class NameLinker:
    """Links a workspace's names across scripts after an ingest (a part of ``Ingestor``)."""

    index: IndexedChunks
    entities: EntityStore
    link_names_on_ingest: bool

    if TYPE_CHECKING:  # the entity writer, composed in ``Ingestor``
        def upsert_entity(self, entity: EntityMetadata) -> EntityMetadata: ...
        def retag(self, entity: EntityMetadata, removed: Sequence[str] = ()) -> int: ...

    def link_names(self, new: Sequence[str] | None = None) -> list[NameLink]:
        """Find the names the indexed documents link across scripts and write each as an entity with its alias
        (merged into an entity that already holds one of the names); the chunks naming either are re-tagged.
        A link whose alias another entity owns is left out. ``new``: the documents just written (read first;
        only links with a side in them are proposed); None: every document. Returns the links written."""
        fresh = list(dict.fromkeys(new)) if new is not None else []
        others = sorted(self.index.document_ids() - set(fresh))
        doc_ids = (fresh + others)[:MAX_DOCUMENTS]
        texts: dict[str, list[str]] = {d: [] for d in sorted(doc_ids)}
        known: set[str] = set()
        names: set[str] = set()
        # one read of every chunk (not one query per document), one pass over their tags
        for c in self.index.chunks_where(docs_filter(doc_ids)) if doc_ids else ():
            texts.setdefault(c.doc_id, []).append(f"{c.title}\n{c.text}")
            for t, ns in c.entities.items():
                han = [n for n in ns if has_han(n)]
                names.update(han)
                if t == "PERSON":
                    known.update(han)
        written = []
        for link in propose_links(texts, known, None if new is None else set(fresh), self._similarity()):
            if link.basis != "stated" and any(link.han != n and link.han in n for n in names):
                # a reading that matches part of a longer name (飞飞 inside 李飞飞 for "Fei-Fei") is no name
                log.info("name link %s left out: part of a longer name", link.describe())
                continue
            try:
                entity = self._linked_entity(link)  # a name the entity model refuses raises ValueError
                if entity is None:
                    continue
                saved = self.upsert_entity(entity)
            except (AliasConflictError, ValueError) as exc:  # another entity's alias, or a name the store refuses
                log.info("name link %s left out: %s", link.describe(), exc)
                continue
            self.retag(saved)
            log.info("linked %s", link.describe())
            written.append(link)
        return written

    def _similarity(self) -> Similarity | None:
        """The ingest embedder's cosine similarity of short names, both sides embedded as queries (e5's recipe
        for a symmetric similarity, as ``graphs.embeddings.sentence_similarity``), cached for one pass; None
        without an embedder. Never through ``embed_documents``: a name is no passage of the index, and what
        the passage side embeds (and an embedder's passage cache keeps) stays a function of each chunk's own
        document, whatever the corpus links. An embedder that fails raises (``Ingestor`` reports it as the link
        error)."""
        embedder = getattr(self, "embedder", None)
        if embedder is None:
            return None
        cache: dict[str, list[float]] = {}

        def vectors(texts: Sequence[str]) -> list[list[float]]:
            missing = [t for t in dict.fromkeys(texts) if t not in cache]
            if missing:
                for t, v in zip(missing, (embedder.embed_query(m) for m in missing), strict=True):
                    norm = math.sqrt(sum(x * x for x in v)) or 1.0
                    cache[t] = [x / norm for x in v]
            return [cache[t] for t in texts]

        def similar(text: str, others: Sequence[str]) -> list[float]:
            head, *rest = vectors([text, *others])
            return [sum(a * b for a, b in zip(head, v, strict=True)) for v in rest]

        return similar

    def _linked_entity(self, link: NameLink) -> EntityMetadata | None:
        """The entity to write for a link: a new one (the Chinese name standard), or the one that already holds
        either name with the other added; None when both are held already."""
        held = [m.entity for name in (link.han, link.latin)
                if (m := self.entities.lookup(name)) is not None and m.match in ("exact", "alias")]
        if len(held) == 2:
            return None
        if held:
            entity = held[0]
            other = link.latin if normalize(link.han) in {normalize(n) for n in (entity.standard_name, *entity.aliases)} \
                else link.han
            return EntityMetadata(standard_name=entity.standard_name, type=entity.type, aliases=[*entity.aliases, other],
                                  hierarchy=entity.hierarchy, related_entities=entity.related_entities)
        return EntityMetadata(standard_name=link.han, type=link.type, aliases=[link.latin])
