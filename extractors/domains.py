"""Research domains of a paper and of its sections, from a small editable YAML of seed phrases per domain
(extractors/data/domains.yaml by default).

Two kinds of evidence, both kept as provenance so a reader sees why a paper is in a domain:
- meaning: the cosine between the passage's embedding (the normalised sum of its chunks' vectors, as the chunk
  index stores them) and each seed phrase's, averaged over the domain's closest phrases, so that a paper that
  never uses a seed phrase verbatim is still placed; the domains' similarities are turned into shares by a
  softmax, because the static embedder gives every pair of English texts a fairly high cosine and only the
  differences between domains carry information;
- words: which seed phrases occur in the text (whole words, any case, an optional plural), each counted by the
  log of its occurrences, so a field's breadth of vocabulary weighs more than one word repeated, and times its
  number of words, because a term of several words ("complex network") belongs to one field where a single word
  ("algorithm") is shared by many.

- venues: which of the domain's journals and conferences its bibliography cites (a domain's optional `venues` in
  the seeds), each counted by the log of its occurrences. A field publishes in its own venues and its papers cite
  them, so a bibliography tells a paper's field where its prose shares words with another's ("memory" in a
  psychology paper, "treatment" in a machine learning one).

A domain's score is the weighted mean of its shares, from 0 to 1, venues weighing VENUE_WEIGHT and the others
1: without keyword evidence (no seed phrase occurs) the words' share is 0, a bibliography citing none of the
seeds' venues leaves venues out, and without embeddings (ingestion with embeddings off) meaning is left out.

The embedder lives in kg/, above this layer: callers pass its `embed` function, or None.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np
import yaml

from extractors.model import Document
from ontology.errors import PaperKGError

EXTRACTOR = "paperkg-domains"
VERSION = "3"  # bump when the scoring changes; the seeds' own version is their hash (Seeds.digest)
DEFAULT_SEEDS = "data/domains.yaml"  # in the extractors package
MIN_SCORE = 0.2  # a domain scoring less is not tagged (the top domain of a paper always is)
MAX_DOMAINS = 3  # domains tagged per paper or section at most
MIN_WORDS = 40  # a section with fewer words of its own is not tagged: too little text to tell
MAX_MATCHED = 10  # matched phrases kept as provenance, most frequent first
MAX_EVIDENCE_CHUNKS = 10  # chunks kept as provenance (source_chunk_ids), those with most matches first
# The venues' share counts half as much as the prose's words and meaning: a paper cites its neighbours' venues too
# (a language paper cites machine learning's), so they settle what the prose leaves close rather than outvote it.
VENUE_WEIGHT = 0.5
TOP_PHRASES = 5  # a domain's meaning: the mean cosine to its closest phrases
TEMPERATURE = 0.05  # of the softmax over the domains' mean cosines
UNTAGGED_CORE_KINDS = frozenset({"reference", "navigation"})  # lists, not prose about the paper's subject
_ID = re.compile(r"[a-z][a-z0-9_]{0,39}")
_MAX_PHRASES = 500
_WORDS = re.compile(r"\w+")

Embed = Callable[[Sequence[str]], Sequence[Sequence[float]]]


class SeedsError(PaperKGError):
    """A domain seeds file that cannot be used (the message says where and what)."""

    code = "DOMAIN_SEEDS"


@dataclass(frozen=True)
class Domain:
    id: str
    name: str
    phrases: tuple[str, ...]
    venues: tuple[str, ...] = ()  # journals and conferences of the field, as bibliographies name them

    @property
    def node_id(self) -> str:
        return f"domain_{self.id}"


@dataclass(frozen=True)
class Seeds:
    domains: tuple[Domain, ...]
    digest: str  # sha256 of the file's bytes, first 16 hex digits: which seeds a tag came from

    @classmethod
    def parse(cls, text: str, where: str = "domain seeds") -> Seeds:
        """Check and read a seeds file's text; every problem is a SeedsError naming the domain at fault."""
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as exc:
            raise SeedsError(f"{where}: not YAML ({exc})") from None
        if not isinstance(data, dict) or not data:
            raise SeedsError(f"{where}: expected a mapping of domain ids to {{name, phrases}}")
        domains = []
        for key, entry in data.items():
            if not isinstance(key, str) or not _ID.fullmatch(key):
                raise SeedsError(f"{where}: domain id {key!r} is not lower-case letters, digits and underscores")
            if not isinstance(entry, dict) or not isinstance(entry.get("name"), str) or not entry["name"].strip():
                raise SeedsError(f"{where}: domain {key!r} needs a name")
            phrases = _texts(entry.get("phrases"))
            if not phrases:
                raise SeedsError(f"{where}: domain {key!r} needs a list of 1 to {_MAX_PHRASES} non-empty phrases")
            venues = _texts(entry.get("venues", []))
            if venues is None:
                raise SeedsError(f"{where}: domain {key!r}: venues must be a list of up to {_MAX_PHRASES} "
                                 "non-empty names")
            domains.append(Domain(key, entry["name"].strip(), phrases, venues))
        return cls(tuple(domains), hashlib.sha256(text.encode()).hexdigest()[:16])

    @classmethod
    def load(cls, path: Path | None = None) -> Seeds:
        """The seeds at `path`, or the shipped default."""
        return cls.parse(seeds_text(path), str(path or "default seeds"))


def _texts(value: object) -> tuple[str, ...] | None:
    """A seeds file's list of phrases or names, each with its spaces collapsed and once; None when it is no list of
    up to _MAX_PHRASES non-empty strings."""
    if (not isinstance(value, list) or len(value) > _MAX_PHRASES
            or not all(isinstance(v, str) and v.strip() for v in value)):
        return None
    return tuple(dict.fromkeys(" ".join(v.split()) for v in value))


def seeds_text(path: Path | None = None) -> str:
    """The text of the seeds file at `path`, or of the shipped default."""
    if path is None:
        return resources.files("extractors").joinpath(DEFAULT_SEEDS).read_text(encoding="utf-8")
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SeedsError(f"cannot read the domain seeds {path}: {exc}") from None


@dataclass(frozen=True)
class Passage:
    """A chunk of text to score, with its place in the paper."""

    chunk_id: str
    text: str
    page: int
    vector: Sequence[float] | None = None
    section_id: str | None = None
    core_kind: str = "body"  # of its section


@dataclass(frozen=True)
class DomainScore:
    domain: Domain
    score: float  # 0..1
    similarity: float | None  # mean cosine to the domain's closest phrases; None without embeddings
    keyword_hits: int  # occurrences of the domain's phrases
    matched: tuple[str, ...]  # the phrases that occur, most frequent first
    chunk_ids: tuple[str, ...]  # the chunks they occur in, most matches first, then chunks naming each venue
    pages: tuple[int, ...]
    venue_hits: int = 0  # citations of the domain's venues in the bibliography
    venues: tuple[str, ...] = ()  # the venues cited, most often first


@dataclass(frozen=True)
class Tag:
    """One domain of a paper (section_id None) or of one of its sections."""

    section_id: str | None
    score: DomainScore


def passages_of(doc: Document, vectors: Mapping[str, Sequence[float]] | None = None) -> list[Passage]:
    """A parsed paper's text chunks as passages, with their vectors when embeddings are on."""
    core = {s.id: s.core_kind for s in doc.sections}
    return [Passage(c.id, c.text, c.page_start, (vectors or {}).get(c.id), c.section_id,
                    core.get(c.section_id, "body") if c.section_id else "body")
            for c in doc.chunks if c.kind == "text"]


class Tagger:
    """Scores passages against the seeds; build once per process (it embeds every seed phrase)."""

    def __init__(self, seeds: Seeds, embed: Embed | None = None):
        self.seeds, self.embed = seeds, embed
        self._patterns = [re.compile(r"\b(?:" + "|".join(_phrase_pattern(p) for p in sorted(d.phrases, key=len,
                                                                                                reverse=True))
                                     + r")\b", re.IGNORECASE) for d in seeds.domains]
        self._canonical = [{_fold(p): p for p in d.phrases} for d in seeds.domains]
        self._venues = [Venues(d.venues) for d in seeds.domains]
        self._vectors = None
        if embed is not None:
            self._vectors = [_unit(np.asarray(embed(list(d.phrases)), dtype=np.float32)) for d in seeds.domains]

    def score(self, passages: Sequence[Passage], bibliography: Sequence[Passage] = ()) -> list[DomainScore]:
        """Every domain's score for the passages taken as one text and the venues their `bibliography` (the
        paper's reference chunks) cites, best first (ties by domain order)."""
        domains = range(len(self.seeds.domains))
        hits = [self._hits(i, passages) for i in domains]
        cited = [[(p.chunk_id, Counter(self._venues[i].cited(p.text))) for p in bibliography] for i in domains]
        venue_counts = [sum((found for _, found in chunks), Counter()) for chunks in cited]
        weight = [sum(len(phrase.split()) * math.log1p(n) for phrase, n in counts.items()) for counts, _ in hits]
        similarity = self._similarity(passages)
        shares, weights = [_shares(weight)], [1.0]
        if similarity is not None:
            shares.append(_softmax(similarity))
            weights.append(1.0)
        venue_weight = [sum(math.log1p(n) for n in counts.values()) for counts in venue_counts]
        if any(venue_weight):
            shares.append(_shares(venue_weight))
            weights.append(VENUE_WEIGHT)
        value = np.average(shares, axis=0, weights=weights)
        out = []
        for i, domain in enumerate(self.seeds.domains):
            (counts, chunks), venues = hits[i], venue_counts[i]
            named = [v for v, _ in venues.most_common(MAX_MATCHED)]
            ranked_chunks = [c for c, _ in chunks.most_common(MAX_EVIDENCE_CHUNKS)]
            ranked_chunks += [c for c in _covering(cited[i], named) if c not in ranked_chunks]
            evidence = set(ranked_chunks)
            pages = sorted({p.page for p in [*passages, *bibliography] if p.chunk_id in evidence})
            out.append(DomainScore(domain, round(min(1.0, float(value[i])), 4),
                                   None if similarity is None else round(float(similarity[i]), 4),
                                   sum(counts.values()), tuple(p for p, _ in counts.most_common(MAX_MATCHED)),
                                   tuple(ranked_chunks), tuple(pages), sum(venues.values()), tuple(named)))
        order = {d.id: i for i, d in enumerate(self.seeds.domains)}
        return sorted(out, key=lambda s: (-s.score, order[s.domain.id]))

    def tag_paper(self, passages: Sequence[Passage]) -> list[Tag]:
        """The paper's domains (its prose outside bibliography and navigation, and the venues its bibliography
        cites) and each section's, from its own text. Up to MAX_DOMAINS each, those scoring MIN_SCORE or more; a
        paper always gets its best domain when it has any text, a section only when it has MIN_WORDS words."""
        prose = [p for p in passages if p.core_kind not in UNTAGGED_CORE_KINDS]
        bibliography = [p for p in passages if p.core_kind == "reference"]
        tags = [Tag(None, s) for s in _kept(self.score(prose, bibliography), keep_best=True)] if prose else []
        by_section: dict[str, list[Passage]] = {}
        for p in prose:
            if p.section_id is not None:
                by_section.setdefault(p.section_id, []).append(p)
        for section_id, own in by_section.items():
            if sum(len(_WORDS.findall(p.text)) for p in own) >= MIN_WORDS:
                tags += [Tag(section_id, s) for s in _kept(self.score(own), keep_best=False)]
        return tags

    def _hits(self, index: int, passages: Iterable[Passage]) -> tuple[Counter[str], Counter[str]]:
        """(occurrences per phrase, matches per chunk) of one domain."""
        phrases: Counter[str] = Counter()
        chunks: Counter[str] = Counter()
        canonical = self._canonical[index]
        for p in passages:
            found = [f for f in (_canonical(m.group(0), canonical) for m in self._patterns[index].finditer(p.text))
                     if f is not None]
            phrases.update(found)
            if found:
                chunks[p.chunk_id] += len(found)
        return phrases, chunks

    def _similarity(self, passages: Sequence[Passage]) -> np.ndarray | None:
        """Each domain's mean cosine between the passages' summed vector and its TOP_PHRASES closest phrases; the
        passages' text is embedded here when none has a vector (a paper ingested with embeddings off)."""
        if self._vectors is None:
            return None
        vectors = [p.vector for p in passages if p.vector is not None]
        if not vectors:
            if not passages:
                return None
            vectors = list(self.embed([" ".join(p.text for p in passages)]))
        text = np.asarray(vectors, dtype=np.float32).sum(axis=0)
        norm = float(np.linalg.norm(text))
        if norm == 0.0:
            return None
        text /= norm
        return np.array([_closest(v, text) for v in self._vectors])


class Venues:
    """A domain's venues as bibliographies print them: a name of one word ('ACL', 'Neuron', 'JHEP', 'hep-th') in
    its own case, since in another case it is an everyday word ('cell') or part of one, and a word ('Cell',
    'Neuron') only before a volume or year, as a citation prints a journal ('Cell 117:1', 'Neuron, 45(3)'), not as
    a title in title case does ('Cell Segmentation'); a longer name in any case, its words parted by spaces or the
    full stops of an abbreviation ('J. Biol. Chem.', 'Phys.Rev.', 'Phys Rev Lett'). A mention is read as the longest
    name it can be ('Phys. Rev. Lett.', not also 'Phys. Rev.'; 'Mol. Cell', not also 'Cell')."""

    def __init__(self, venues: Sequence[str]):
        self._names = {_venue_key(v): v for v in venues}
        self._pattern = re.compile(_alternation(venues)) if venues else None

    def cited(self, text: str) -> list[str]:
        """The venues `text` names, once per mention, in reading order."""
        if self._pattern is None:
            return []
        return [name for m in self._pattern.finditer(text)
                if (name := self._names.get(_venue_key(m.group(0)))) is not None]


def _venue_key(text: str) -> str:
    """A venue's name or a mention of it: its words apart from the spaces and stops between them, in lower case."""
    return " ".join(re.findall(r"[^\s.]+", text)).lower()


def _alternation(venues: Sequence[str]) -> str:
    between = r"(?:\.\s*|\s+)"  # 'J. Biol.', 'J Biol', 'J.Biol'
    forms = []
    for venue in sorted(venues, key=len, reverse=True):  # the longest name a mention can be comes first
        words = venue.split()
        form = between.join(re.escape(w) for w in words)
        if len(words) > 1:
            form = f"(?i:{form})"
        elif re.fullmatch(r"[A-Z][a-z]+", venue):  # a word ('Cell', 'Neuron') names the journal before its volume
            form += r"(?=[.,;:]?\s*\(?\d)"
        forms.append(form)
    return r"(?<![\w&])(?:" + "|".join(forms) + r")(?![\w&])"


def _covering(chunks: Sequence[tuple[str, Counter[str]]], names: Sequence[str]) -> list[str]:
    """Chunks that together name each of `names`, so that each leads back to a place it is printed: for each name in
    turn, unless a chunk taken already names it, the chunk naming it most often (the first of equals)."""
    taken: list[str] = []
    for name in names:
        if any(found[name] for chunk, found in chunks if chunk in taken):
            continue
        best = max(chunks, key=lambda item: item[1][name], default=None)
        if best is not None and best[1][name]:
            taken.append(best[0])
    return taken


def _shares(weights: Sequence[float]) -> np.ndarray:
    """Each domain's part of the evidence; all 0 without any."""
    total = sum(weights)
    return np.array([w / total if total else 0.0 for w in weights])


def _closest(phrases: np.ndarray, vector: np.ndarray) -> float:
    """Mean cosine of the TOP_PHRASES phrases closest to a unit vector."""
    return float(np.sort(phrases @ vector)[-TOP_PHRASES:].mean())


def _kept(scores: list[DomainScore], *, keep_best: bool) -> list[DomainScore]:
    kept = [s for s in scores[:MAX_DOMAINS] if s.score >= MIN_SCORE]
    return kept or (scores[:1] if keep_best and scores and scores[0].score > 0 else [])


def _phrase_pattern(phrase: str) -> str:
    """A phrase's words with any run of spaces or a hyphen between them, and an optional plural ending."""
    words = [re.escape(w) for w in re.split(r"[\s-]+", phrase) if w]
    return r"[\s-]+".join(words) + r"(?:e?s)?"


def _fold(text: str) -> str:
    return " ".join(re.split(r"[\s-]+", text.lower()))


def _canonical(match: str, phrases: dict[str, str]) -> str | None:
    """The seed phrase a match is: as found, or without the plural ending the pattern allowed."""
    folded = _fold(match)
    for form in (folded, folded[:-1], folded[:-2]):
        if form in phrases:
            return phrases[form]
    return None


def _unit(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms == 0, 1.0, norms)


def _softmax(values: np.ndarray) -> np.ndarray:
    scaled = (values - values.max()) / TEMPERATURE
    exp = np.exp(scaled)
    return exp / exp.sum()
