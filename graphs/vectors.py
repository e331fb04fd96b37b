"""What makes two vectors comparable: an embedder's fingerprint (recorded by the index it writes), the
refusal to mix two embedders' vectors, and the map of an embedder's cosine onto one score scale. Below both the
embedders and the stores, which read it."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class EmbedderFingerprint:
    """What decides whether two vectors are comparable: the model's name and dimension (and, for the record, the
    version of the code that computed them)."""

    name: str
    dimension: int
    version: str = ""

    def same_model(self, other: EmbedderFingerprint) -> bool:
        """Whether vectors of ``other`` may sit in an index written by this one (the version is not compared: a
        new release of the same weights gives the same vectors up to rounding)."""
        return self.name == other.name and self.dimension == other.dimension

    def describe(self) -> str:
        version = f" {self.version}" if self.version else ""
        return f"{self.name}{version} ({self.dimension} dimensions)"

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "dimension": self.dimension, "version": self.version}


@dataclass(frozen=True)
class ScoreScale:
    """An affine map of an embedder's cosine onto the USE cosine scale the service's thresholds were set on.

    Every score threshold and weight downstream of dense search (``AER_MIN_DENSE_SCORE``, the fusion weights of
    the graph route, the expansion judge, the answer layer's cross-language coverage) was measured on USE
    cosines: unrelated passages near 0.1, answering ones near 0.5. e5 packs the same judgements into a narrow
    band near 0.8, so its raw cosines would make every threshold meaningless. The index reports a dense score
    as ``map(cosine)``: a monotone map, so dense rankings are unchanged; only the scale matches USE's.
    ``low``/``high``: the embedder's typical cosine of (question, unrelated passage) and (question, answering
    passage); ``to_low``/``to_high``: the same two for USE.
    """

    low: float = 0.0
    high: float = 1.0
    to_low: float = 0.0
    to_high: float = 1.0

    def map(self, cosine: float) -> float:
        return self.to_low + (cosine - self.low) * (self.to_high - self.to_low) / (self.high - self.low)


IDENTITY_SCALE = ScoreScale()
SCORE_SCALES: dict[str, ScoreScale] = {
    # Fitted by app/tools/fit_score_scale.py on the tuning questions (medians of a question's cosine to its best
    # gold chunk and to the other chunks), each language weighted equally: cmrc2018_trial (40 q) e5 0.816 / 0.907,
    # USE 0.054 / 0.389; hotpotqa_sample's first 200 passages (12 q) e5 0.750 / 0.887, USE 0.057 / 0.520.
    # e5 scores Chinese pairs higher than English ones, so one affine map is ~0.1 off either way (docs/retrieval.md).
    "multilingual-e5-small-q4": ScoreScale(low=0.7829, high=0.8974, to_low=0.0557, to_high=0.4548),
}
"""Per embedder name (USE and unknown embedders: the identity). Fitted by ``app/tools/fit_score_scale.py``."""


def score_scale(name: str | None) -> ScoreScale:
    """The dense score scale of an embedder (the identity for USE and any embedder not fitted)."""
    return SCORE_SCALES.get(name or "", IDENTITY_SCALE)


# What wrote an index that records no embedder: every index made before embedders were recorded was written by
# the USE default of that time (512 dimensions); one of another dimension was made by a remote embedder.
LEGACY_EMBEDDER = EmbedderFingerprint("use-multilingual-v3", 512, "")
PROPERTY = "aer.embedder"
"""The collection property that records the embedder (JSON of ``EmbedderFingerprint.as_dict``)."""


class EmbedderMismatch(RuntimeError):
    """The index was written by another embedder than the one configured (vectors of two models never mix)."""

    def __init__(self, where: str, stored: EmbedderFingerprint, configured: EmbedderFingerprint) -> None:
        super().__init__(
            f"{where} was embedded with {stored.describe()}, but the configured embedder is "
            f"{configured.describe()}; vectors of two models cannot be searched together. Either set "
            f"AER_EMBEDDING_PROVIDER={provider_of(stored) or f'openai AER_EMBEDDING_MODEL={stored.name}'} to keep "
            "using the index as it is, or re-embed "
            f"it: `aer reindex --embedder {provider_of(configured) or '...'}` (keeps serving the old index until the "
            "new one is complete)."
        )
        self.stored = stored
        self.configured = configured


def provider_of(fp: EmbedderFingerprint) -> str | None:
    """The ``AER_EMBEDDING_PROVIDER`` that gives this embedder (None: a remote model, named by AER_EMBEDDING_MODEL)."""
    return {LEGACY_EMBEDDER.name: "use", "multilingual-e5-small-q4": "e5"}.get(fp.name)


def parse_fingerprint(raw: Any) -> EmbedderFingerprint | None:
    """A fingerprint from its recorded form (a dict, or its JSON), None when absent or unreadable."""
    try:
        data = json.loads(raw) if isinstance(raw, str | bytes) else raw
        if isinstance(data, dict):
            return EmbedderFingerprint(str(data["name"]), int(data["dimension"]), str(data.get("version") or ""))
    except (ValueError, KeyError, TypeError):
        pass
    return None
