"""Paper-level salient methods, datasets, metrics and tasks of a list of passages (pure of the Document,
so the same extractor runs on PDFs and on SciREX text)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import accumulate
from typing import TYPE_CHECKING

from extractors.semantic import lexicons, salience_model
from extractors.semantic.abbreviations import Abbreviation, Sentence, analyse
from extractors.semantic.modifiers import complete_modifiers
from extractors.semantic.non_entities import NonEntities, capitals_labels, cited_people, common_words
from extractors.semantic.passages import Passage
from extractors.semantic.patterns import DATASET, METHOD, METRIC, caption_metric, cell_cues, column_cues, find_cues
from extractors.semantic.salience import Entity, Located, rank_entities, salient
from extractors.semantic.tagger import tagger_cues

if TYPE_CHECKING:
    from spacy.language import Language


@dataclass
class Analysis:
    passages: list[Passage]
    sentences: list[Sentence]
    abbreviations: list[Abbreviation]
    cues: list[Located]
    ranked: list[Entity]  # every candidate, best first
    entities: list[Entity]  # the paper's entities (none before the salience model has judged the candidates)


_VALUE = re.compile(r"\s*[-+−~]?\d+(?:[.,]\d+)*\s*(?:%|±.*)?\s*")


def header_rows(lines: list[str]) -> int:
    """How many rows of a table ('cell | cell' lines) are its header: those before the first row with a cell
    that is a value ('41.2', '3.1 ± 0.2', '85%'; not '99% quantile'), at least one and at most three."""
    first_number = next((r for r, line in enumerate(lines)
                         if any(_VALUE.fullmatch(cell) for cell in line.split(" | "))), len(lines))
    return min(max(first_number, 1), 3)


def locate_cues(passages: list[Passage], sentences: list[Sentence]) -> list[Located]:
    out = []
    for i, p in enumerate(passages):
        if p.kind == "cells":
            lines = p.text.split("\n")
            # a table headed by a metric that scores methods (not only by statistics: 'p-value', 'SD') has methods
            # in its rows
            result_table = any(c.type == METRIC and lexicons.evaluation_metrics().lookup(c.name)
                               for line in lines[:3] for c in cell_cues(line, False))
            starts = [0, *accumulate(len(line) + 1 for line in lines[:-1])]
            header = header_rows(lines)
            for r, line in enumerate(lines):
                out += [Located(c, i, starts[r] + c.start, starts[r] + c.end)
                        for c in cell_cues(line, result_table, header=r < header)]
            out += [Located(c, i, starts[r] + c.start, starts[r] + c.end) for r, c in column_cues(lines)]
        elif p.kind in ("table", "figure") and (cue := caption_metric(p.text.split("\n", 1)[0])):
            out.append(Located(cue, i, cue.start, cue.end))
    for s in sentences:
        if passages[s.passage].kind == "cells":
            continue
        kind = passages[s.passage].kind
        out += [Located(c, s.passage, s.start + c.start, s.start + c.end)
                for c in find_cues(s.text, title=kind == "title", heading=kind == "heading")]
    return out


def analyse_passages(passages: list[Passage], extra_cues: list[Located] = (),
                     non_entities: NonEntities = NonEntities(), tagger: Language | None = None) -> Analysis:
    """The candidates judged by the trained salience model (salience_model.py), and the paper's entities among
    them (salience.salient); the arguments are candidates()'s."""
    found = candidates(passages, extra_cues, non_entities, tagger)
    found.ranked = salience_model.load().judge(found.ranked, passages, found.abbreviations)
    found.entities = salient(found.ranked)
    return found


def candidates(passages: list[Passage], extra_cues: list[Located] = (),
               non_entities: NonEntities = NonEntities(), tagger: Language | None = None) -> Analysis:
    """Every candidate entity with its evidence score, best first, none yet judged salient: what the
    salience model is trained and run on. `non_entities`: what the paper's byline and bibliography name (people,
    venues, organisations); the people its text cites by name are added here, so text without a parsed
    bibliography is filtered too.
    `tagger`: the trained mention tagger (tagger.py), whose mentions join the patterns' cues; None: patterns only."""
    sentences, pairs = analyse(passages)
    cues = locate_cues(passages, sentences) + list(extra_cues)
    if tagger is not None:
        cues += tagger_cues(passages, tagger)
    texts = [p.text for p in passages if p.kind != "cells"]
    excluded = non_entities.with_people(cited_people(texts))
    ranked = [e for e in rank_entities(passages, cues, pairs) if not excluded.excludes(e.label, e.name)]
    common = common_words([e.name for e in ranked if e.label in (METHOD, DATASET)],
                          [p.text for p in passages if p.kind == "text"])
    capitals = capitals_labels([e.name for e in ranked], [p.text for p in passages if p.kind == "text"])
    ranked = complete_modifiers([e for e in ranked if e.name not in capitals and
                                 (e.name not in common or e.label not in (METHOD, DATASET))], passages)
    return Analysis(passages, sentences, pairs, cues, ranked, [])
