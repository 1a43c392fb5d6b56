"""Synthetic papers for the scale benchmarks (issue 31): N paper graphs made from the parsed papers of a real corpus,
so that loads of 10,000 papers and more can be measured without 10,000 PDFs.

Each synthetic paper is one corpus paper (its template, drawn at random) under a new sha256, with new ids for its
own elements (paper, sections, chunks, figures, references ...), its own DOI and a perturbed title and text. What
makes a corpus of many papers more than copies is what they share, and that is drawn from distributions rather
than copied:

- entities (methods, datasets, metrics, tasks, concepts): each of the template's entities becomes the name of a rank
  drawn from a Zipf distribution over `vocabulary` names per label, so a few names are used by most papers and most
  by few, as in real literature. Ranks below the number of real names the corpus has for that label take those
  names; the rest are pronounceable made-up words, far enough apart in spelling that the writer's entity resolution
  (kg.ingest.entities) keeps them apart. A smaller vocabulary or a steeper `zipf` means more overlap between papers.
- authors: the same over `authors` made-up names with a flatter skew (`author_zipf`): a few write many papers,
  most write one or two.
- citations: each reference of the template cites an earlier synthetic paper (by its DOI, which the writer turns
  into CITES) with probability `cite_share`, the cited paper drawn by preferential attachment (in proportion to one
  plus the citations it already has), which gives the heavy-tailed citation counts of real corpora.

Chunk text is rotated at a random word boundary, so every chunk is a text of its own while the words (and so the
fulltext index's vocabulary) stay those of the corpus; character spans then no longer point into the rotated text,
which a load benchmark does not read. Chunk vectors are the template's (`vectors=False` leaves them out).

Everything follows from `seed`: the same templates, configuration and seed give the same papers, record for
record. The records are the writer's input (validated, stamped records of kg.ingest.pipeline.Prepared), so they go
through the real write paths: kg.ingest.bulk.GraphImage for a bulk load, kg.ingest.tuned_writer.TunedWriter for the
transactional one.
"""

from __future__ import annotations

import hashlib
import itertools
import random
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from extractors.model import paper_id
from kg.ingest.entities import entity_labels
from kg.ingest.runs import Run
from ontology.records import EdgeRecord, NodeRecord

_CONSONANTS = "bdfgklmnprstvz"
_VOWELS = "aeiou"
_SYLLABLES = [c + v for c in _CONSONANTS for v in _VOWELS]  # 70


@dataclass(frozen=True)
class Template:
    """A parsed paper: its run and its validated, stamped records (kg.ingest.pipeline.Prepared's)."""
    run: Run
    nodes: list[NodeRecord]
    edges: list[EdgeRecord]


@dataclass(frozen=True)
class SynthConfig:
    papers: int
    seed: int = 0
    vocabulary: int = 5_000  # entity names per label the papers draw from
    zipf: float = 1.1  # the name of rank r is drawn with probability proportional to 1 / (r + 1) ** zipf
    authors: int = 50_000  # author names the papers draw from
    author_zipf: float = 0.5  # flatter than entities': most authors write few of the papers
    cite_share: float = 0.3  # chance that a reference cites an earlier synthetic paper
    vectors: bool = True


@dataclass
class SynthPaper:
    run: Run
    nodes: list[NodeRecord]
    edges: list[EdgeRecord]


@dataclass
class SynthStats:
    """What the drawn corpus shares: for the benchmark's report."""
    papers: int = 0
    entity_mentions: int = 0  # template entities drawn, over all papers
    entity_reuses: int = 0  # of those, names an earlier paper had drawn already
    entities: int = 0  # distinct entity names drawn
    authors: int = 0  # distinct authors
    citations: int = 0  # references pointed at an earlier synthetic paper
    most_cited: int = 0
    seen: set = field(default_factory=set, repr=False)

    def as_json(self) -> dict:
        return {"papers": self.papers, "entities": self.entities, "entity_mentions": self.entity_mentions,
                "entity_reuse_share": round(self.entity_reuses / self.entity_mentions, 4) if self.entity_mentions
                else None, "authors": self.authors, "citations": self.citations, "most_cited": self.most_cited}


def word(rank: int, salt: int = 0) -> str:
    """A pronounceable made-up word, one per rank (three syllables up to 343,000 ranks, then more); `salt` gives a
    label its own words. Neighbouring ranks differ in their first syllable, so no two words are near spellings."""
    digits, n = [], rank
    while n or len(digits) < 3:
        n, d = divmod(n, len(_SYLLABLES))
        digits.append(d)
    return "".join(_SYLLABLES[(d + 11 * i + salt) % len(_SYLLABLES)] for i, d in enumerate(digits)).capitalize()


class _Zipf:
    """Ranks 0..n-1 drawn with probability proportional to 1 / (rank + 1) ** s."""

    def __init__(self, n: int, s: float):
        self.ranks = range(n)
        self.cumulative = list(itertools.accumulate(1.0 / (r + 1) ** s for r in self.ranks))

    def draw(self, rng: random.Random) -> int:
        return rng.choices(self.ranks, cum_weights=self.cumulative)[0]


class Synthesizer:
    def __init__(self, templates: list[Template], config: SynthConfig):
        if not templates:
            raise ValueError("no template papers to make synthetic papers from")
        if min(config.papers, config.vocabulary, config.authors) < 1 or not 0 <= config.cite_share <= 1:
            raise ValueError(f"a synthetic corpus needs papers, vocabulary and authors >= 1 and a cite_share "
                             f"within [0, 1]: {config}")
        self.templates, self.config = templates, config
        self.rng = random.Random(config.seed)
        self.labels = set(entity_labels())
        # the real names of each label, in a fixed order: the head of the vocabulary
        self.real = {label: sorted({n.props.get("name") or "" for t in templates for n in t.nodes
                                    if n.label == label} - {""}) for label in self.labels}
        self.entity_ranks = _Zipf(config.vocabulary, config.zipf)
        self.author_ranks = _Zipf(config.authors, config.author_zipf)
        self.cited: list[str] = []  # each paper's DOI once, plus once per citation it received
        self.citations: dict[str, int] = {}
        self.stats = SynthStats()

    def papers(self) -> Iterator[SynthPaper]:
        for i in range(self.config.papers):
            yield self.paper(i)

    def entity_name(self, label: str, rank: int) -> str:
        real = self.real.get(label, [])
        return real[rank] if rank < len(real) else word(rank, salt=sorted(self.labels).index(label))

    def paper(self, i: int) -> SynthPaper:
        rng, config = self.rng, self.config
        template = self.templates[rng.randrange(len(self.templates))]
        old_sha = template.run.sha256
        sha = hashlib.sha256(f"paperkg-synth:{config.seed}:{i}".encode()).hexdigest()
        run = replace(template.run, sha256=sha)
        doi = f"10.5555/paperkg-synth.{config.seed}.{i}"
        renamed: dict[tuple[str, str], str] = {}
        names: dict[tuple[str, str], dict] = {}  # shared nodes' new name properties
        used: set[tuple[str, int]] = set()
        for node in template.nodes:
            if node.label in self.labels or node.label == "Author":
                draw = self.entity_ranks if node.label in self.labels else self.author_ranks
                rank = draw.draw(rng)
                for _ in range(8):  # one name once per paper
                    if (node.label, rank) not in used:
                        break
                    rank = draw.draw(rng)
                used.add((node.label, rank))
                key = (node.label, rank)
                if node.label == "Author":
                    name = f"{word(rank, salt=5)} {word(rank // 7, salt=9)}"
                    self.stats.authors += key not in self.stats.seen
                else:
                    name = self.entity_name(node.label, rank)
                    self.stats.entity_mentions += 1
                    self.stats.entity_reuses += key in self.stats.seen
                    self.stats.entities += key not in self.stats.seen
                self.stats.seen.add(key)
                renamed[(node.label, node.id)] = f"{node.label.lower()}_synth{rank}"
                names[(node.label, node.id)] = {"name": name, **({"aliases": []} if "aliases" in node.props else {})}
            elif node.label == "Paper":
                renamed[(node.label, node.id)] = paper_id(sha)
            elif node.props.get("paper_sha256") == old_sha:
                renamed[(node.label, node.id)] = f"{node.id}-s{i}"
        chunk_ids = {old: new for (label, old), new in renamed.items() if label == "Chunk"}

        run_id = run.id  # a property formatting a time: once per paper, not per element

        def props(values: dict) -> dict:
            out = dict(values)
            if out.get("paper_sha256") == old_sha:
                out["paper_sha256"] = sha
            if "run_id" in out:
                out["run_id"] = run_id
            if out.get("source_chunk_ids"):
                out["source_chunk_ids"] = [chunk_ids.get(c, c) for c in out["source_chunk_ids"]]
            return out

        nodes = []
        cited_here: set[str] = set()
        for node in template.nodes:
            values = props(node.props)
            key = (node.label, node.id)
            if key in names:
                values.update(names[key])
            elif node.label == "Paper":
                values.update(sha256=sha, doi=doi, file_name=f"synth-{config.seed}-{i}.pdf",
                              title=f"{values.get('title') or 'Untitled'} {word(i, salt=3)}")
            elif node.label == "Chunk":
                values["text"] = _rotated(values.get("text") or "", rng)
                if not config.vectors:
                    values.pop("embedding", None)
            elif node.label == "Reference" and self.cited and rng.random() < config.cite_share:
                cited = rng.choice(self.cited)
                if cited not in cited_here:
                    cited_here.add(cited)
                    values["doi"] = cited
            nodes.append(NodeRecord(node.label, renamed.get(key, node.id), values))
        for cited in sorted(cited_here):  # a set's order changes with the hash seed of the process
            self.cited.append(cited)
            self.citations[cited] = self.citations.get(cited, 0) + 1
            self.stats.most_cited = max(self.stats.most_cited, self.citations[cited])
        self.stats.citations += len(cited_here)
        self.cited.append(doi)
        self.stats.papers += 1
        edges = [EdgeRecord(e.type, e.source_label, renamed.get((e.source_label, e.source_id), e.source_id),
                            e.target_label, renamed.get((e.target_label, e.target_id), e.target_id), props(e.props))
                 for e in template.edges]
        return SynthPaper(run, nodes, edges)


def _rotated(text: str, rng: random.Random) -> str:
    """The text started at a random word boundary and wrapped around."""
    if not text:
        return text
    at = text.find(" ", rng.randrange(len(text)))
    return text if at < 0 else f"{text[at + 1:]} {text[:at]}"
