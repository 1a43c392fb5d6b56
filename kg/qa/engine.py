"""ask(): a question to an answer with evidence. Intents the typed graph can answer are answered from Cypher;
everything else (and an intent whose Cypher finds nothing) by hybrid retrieval and an extractive answer."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable

from kg.db.graph import Graph
from kg.errors import AmbiguousPaperError, InvalidQueryError, NotFoundError
from kg.qa import graph as q
from kg.qa.answer import (ANSWER_CHARS, Unit, compose, confidence, definition_first, evidence_units, locate_in_chunk,
                          score_units)
from kg.qa.graph import GraphReader, chunk_row
from kg.qa.intents import Intent, analyse, paper_names
from kg.qa.names import (NameForm, broader, defines_otherwise, is_initialism, kind_label, name_forms, names_entity,
                         narrower, only_as_example, spelled_alike, spells_otherwise, states_use, task_object,
                         written_as_initialism)
from kg.qa.reader import read_question
from kg.qa.retrieval import Embedder, keep_lexical_winner, retrieve, spread_pages
from kg.qa.text import question_proper, squash, terms, tokens
from kg.read.fulltext import lucene_phrase
from kg.read.queries import PaperMatch, edge_dict, node_dict
from ontology.loader import Schema

CANDIDATES = 20  # chunks whose sentences compete for the answer
NAMES_TRIED = 8  # names of a paper a question may give that are looked up: each costs up to two reads
Rewriter = Callable[[str, str, list[dict]], str]  # (question, extractive answer, evidence) -> rewritten answer


@dataclass
class Answer:
    answer: str | None  # None: nothing supports an answer; `reason` says why and there is no evidence
    intent: str
    confidence: float
    evidence: list[dict] = field(default_factory=list)
    graph: dict[str, list] = field(default_factory=lambda: {"nodes": [], "edges": []})
    cypher: list[str] = field(default_factory=list)
    reason: str | None = None
    paper_id: str | None = None  # the paper the answer comes from alone, if any
    span: str | None = None  # what the reader read out of the answer's first unit (kg.qa.reader), if anything
    papers: list[dict] | None = None  # a cross-paper answer: each paper with its relations and evidence

    def as_dict(self) -> dict[str, Any]:
        return {"answer": self.answer, "span": self.span, "reason": self.reason, "intent": self.intent,
                "confidence": self.confidence, "paper_id": self.paper_id, "evidence": self.evidence,
                "graph": self.graph, "cypher": self.cypher, "papers": self.papers}


def ask(graph: Graph, schema: Schema, question: str, paper: str | None = None, top_k: int = 5, *,
        embed: Embedder | None = None, rewrite: Rewriter | None = None) -> Answer:
    """The answer from the paper `paper` names (kg.read.queries.resolve_paper: a name that fits no paper or several is
    an error, never an answer from all papers), or else from the paper the question itself names, when a name
    in it fits exactly one paper well (_named_paper), or else from all papers."""
    reader = GraphReader(graph, schema)
    scope, asked = (reader.paper(paper), question) if paper is not None else _named_paper(reader, question)
    paper_id = scope.id if scope else None
    intent = analyse(asked)
    handler = _HANDLERS.get(intent.name)
    result = handler(reader, intent, paper_id, top_k) if handler else None
    if result is None:  # retrieval checks the paper in its own first query
        result = _retrieval_answer(reader, asked, intent, paper_id, top_k, embed)
    result.cypher, result.paper_id = reader.cypher, paper_id
    if rewrite is not None and result.answer:
        result.answer = rewrite(question, result.answer, result.evidence)
    return result


def _named_paper(reader: GraphReader, question: str) -> tuple[PaperMatch | None, str]:
    """The paper the question names and the question read without its name, or (None, the question). Only a
    name that fits one paper, in a way its form calls for (kg.qa.intents.paper_names), scopes the answer: a
    name fitting several papers or none leaves the question to all papers, as does a word of a title."""
    for named in paper_names(question)[:NAMES_TRIED]:
        try:
            found = reader.paper(named.name, loose=False)
        except (NotFoundError, AmbiguousPaperError, InvalidQueryError):
            continue
        if found.matched_by in named.accepts:
            return found, named.question
    return None, question


# ------------------------------------------------------------------ evidence

def evidence_item(chunk: dict, titles: dict[str, dict], score: float, unit: Unit | None = None) -> dict:
    page, box = locate_in_chunk(chunk, unit.start) if unit else (chunk.get("page_start"),
                                                                 (chunk.get("bboxes") or [None])[0])
    paper = titles.get(chunk.get("paper_sha256") or "", {})
    return {"paper_id": paper.get("paper_id"), "title": paper.get("title"), "section": chunk.get("section"),
            "chunk_id": chunk["id"], "text": unit.text if unit else squash(chunk["text"]), "page": page,
            "bbox": box, "score": round(score, 4)}


def _evidence_from_units(reader: GraphReader, taken: list[Unit], ranked: list[Unit], chunks: list[dict],
                         top_k: int, lexical: dict | None = None) -> list[dict]:
    """Evidence in order: the answer's sentences, the next best sentences of other chunks that say something
    new (`evidence_units`), then other chunks; the fulltext winner `lexical` among the first three
    (kg.qa.retrieval.keep_lexical_winner), as its best sentence."""
    titles = reader.titles({c.get("paper_sha256") for c in chunks if c.get("paper_sha256")})
    items = [evidence_item(u.chunk, titles, u.score, u) for u in evidence_units(taken, ranked, top_k)]
    seen = {item["chunk_id"] for item in items}
    for chunk in chunks:
        if chunk["id"] not in seen:
            seen.add(chunk["id"])
            items.append(evidence_item(chunk, titles, chunk.get("score", 0.0)))
    if lexical is not None:
        unit = next((u for u in ranked if u.chunk["id"] == lexical["id"]), None)
        winner = evidence_item(unit.chunk if unit else lexical, titles, unit.score if unit else 0.0, unit)
        items = keep_lexical_winner(items, winner)
    return spread_pages(items)[:top_k]


def _evidence_for(reader: GraphReader, rels: list, top_k: int) -> list[dict]:
    """Evidence of graph edges: the chunks their provenance names (source_chunk_ids), in edge order."""
    ids: list[str] = []
    for rel in rels:
        for cid in rel.get("source_chunk_ids") or []:
            if cid not in ids:
                ids.append(cid)
    if not ids:
        return []
    by_id = {c["id"]: c for c in reader.chunks(q.CHUNKS_BY_ID, ids=ids)}
    chunks = [by_id[i] for i in ids if i in by_id]
    titles = reader.titles({c.get("paper_sha256") for c in chunks if c.get("paper_sha256")})
    return [evidence_item(c, titles, 1.0) for c in chunks[:top_k]]


# ------------------------------------------------------------------ retrieval answer

def _retrieval_answer(reader: GraphReader, question: str, intent: Intent, paper_id: str | None, top_k: int,
                      embed: Embedder | None) -> Answer:
    asked = read_question(question)
    found = retrieve(reader, question, paper_id, CANDIDATES, embed, asked.elements)
    units = score_units(question, found.chunks, asked)
    needed = min(2, len(set(terms(question_proper(question)))))
    if intent.name == "definition" or asked.kind in ("definition", "acronym", "naming"):  # also forms the intents
        # leave to search ('What is a Tiny (T) summary in Multi-LexSum?', 'What is the name of ...?')
        units = definition_first(units, intent.names[0] if intent.name == "definition" else None, needed)
    text, taken = compose(units, needed_terms=needed)
    name = "search" if intent.name != "definition" else "definition"
    if not text:  # what was found does not answer the question, so it is no evidence either
        where = "the paper" if paper_id else "any paper"
        reason = (f"no passage of {where} matches the question's words" if not found.chunks else
                  f"no sentence of {where} holds enough of the question's words to answer it")
        return Answer(answer=None, reason=reason, intent=name, confidence=0.0)
    evidence = _evidence_from_units(reader, taken, units, found.chunks, top_k, found.lexical)
    nodes = found.entities + [{"id": c["id"], "labels": ["Chunk"], "properties": {"page_start": c.get("page_start")}}
                              for c in found.chunks[:top_k]]
    return Answer(answer=text[: ANSWER_CHARS + 120], intent=name, confidence=confidence(units), evidence=evidence,
                  graph={"nodes": nodes, "edges": found.edges}, span=taken[0].span)


# ------------------------------------------------------------------ intent answers (None: let retrieval answer)

def _graph(records, *keys: str) -> dict[str, list]:
    """The nodes and edges under `keys` of the records, each once; a record without a key adds nothing for it (a
    cross-paper answer mixes papers found by their edges and papers found by their text)."""
    nodes, edges = {}, {}
    for r in records:
        for key in keys:
            if key not in r.keys():
                continue
            value = r[key]
            for item in value if isinstance(value, list) else [value]:
                if item is None:
                    continue
                if hasattr(item, "type"):
                    edges.setdefault(item.element_id, edge_dict(item))
                else:
                    nodes.setdefault(item.element_id, node_dict(item))
    return {"nodes": list(nodes.values()), "edges": list(edges.values())}


def _entities_of_paper(reader: GraphReader, intent: Intent, paper_id: str | None, top_k: int) -> Answer | None:
    types = [t for t in intent.relations if reader.schema.allows("Paper", t, intent.label)]
    records = reader.run(q.ENTITIES_OF_PAPER, paper_id=paper_id, types=types, label=intent.label, limit=100)
    if not records:
        return None
    names = list(dict.fromkeys(r["e"]["name"] for r in records))
    verb = {"PROPOSES": "proposes", "USES": "uses", "EVALUATES_ON": "evaluates on", "MEASURES": "measures",
            "ADDRESSES": "addresses"}
    what = " / ".join(verb.get(t, t.lower()) for t in types)
    subject = "The paper" if paper_id else "The papers"
    conf = sum(r["r"].get("confidence", 0.5) for r in records) / len(records)
    return Answer(answer=f"{subject} {what}: {', '.join(names)}.", intent=intent.name, confidence=round(conf, 3),
                  evidence=_evidence_for(reader, [r["r"] for r in records], top_k), graph=_graph(records, "p", "r", "e"))


def _papers_with(reader: GraphReader, intent: Intent, paper_id: str | None, top_k: int) -> Answer | None:
    """A cross-paper question: every paper the typed graph links to the named entity by the question's relation,
    each with the chunks its edges came from when those passages name the entity (an edge read off a passage that
    does not is a misreading: 'map' taken for MAP), and every paper whose own text (outside related work and
    references, kg.qa.graph.PAPERS_MENTIONING) names it in MIN_MENTIONS passages or more, passages naming it only
    as one example of a list not counted (for a task, also in its title or abstract): the semantic extractor keeps
    a paper's salient entities only, so a dataset a paper trains on in one paragraph and evaluates on in another
    can lack its edge. A paper naming it in one passage only is listed when that passage says the paper uses it
    (kg.qa.names.states_use): such a mention is an example, a remark or a citation as often as a use; "which
    papers mention X" lists every paper naming it. A task edge read only from the introduction or related work
    needs the task stated in the title or abstract. The entity goes by each of its names (kg.qa.names: without the
    noun of its kind, its initialism, its spelling variants). A paper scope does not narrow the list: the question
    asks across papers."""
    name = intent.names[0]
    if intent.relations == ("CITES",):
        records = reader.run(q.PAPERS_CITING, name=name, limit=PAPERS_LISTED)
        papers = [_listed(reader, r["p"], [r["r"]], [r["e"]]) for r in records]
        return _papers_answer(intent, papers, records, "p", "r", "e") if papers else None
    types = _USE_LIKE if intent.relations == ("USES",) else list(intent.relations)
    forms = name_forms(name)
    long = forms[1].text if len(forms) > 1 and not forms[1].short else name  # what an initialism stands for
    kind = kind_label(name)
    typed: dict[str, dict] = {}
    records: list = []
    searched: list[NameForm] = []
    for form in forms:
        # of the kind the name's noun says when any is: the graph may type the name otherwise ('GLUE tasks' as a
        # dataset); an initialism names too many things to be taken of another kind ('EM' is also exact match)
        found = reader.resolve(form.text)
        kinds = [e for e in found if kind in e["labels"]]
        initials = form.short or is_initialism(form.text)
        entities = [e for e in (kinds or ([] if initials and kind else found)) if not broader(_names(e), form.text)
                    and any(spelled_alike(n, form.text) or narrower(n, form.text) for n in _names(e) if n)
                    and not (form.short and (spells_otherwise(_names(e), form.text, long)
                                             or not any(written_as_initialism(n, form.text) for n in _names(e) if n)))]
        found = reader.run(q.PAPERS_WITH, eids=[e["element_id"] for e in entities], types=types,
                           skip=_NOT_OWN_WORK, per_paper=EVIDENCE_PER_PAPER, limit=PAPERS_LISTED) if entities else []
        for r in found:
            paper = _listed(reader, r["p"], r["rels"], r["entities"])
            names = [n for x in r["entities"] for n in [x.get("name"), *(x.get("aliases") or [])]]
            if paper["evidence"] and not any(names_entity(e["text"], names) for e in paper["evidence"]):
                continue  # the passages the edge was read from do not name the entity: a misread ('map' as MAP)
            if paper["paper_id"] not in typed and not _other_meaning(paper, form, long):
                typed[paper["paper_id"]] = paper
                records.append(r)
        # the text names the entity by the name asked and by every other name the graph knows it by, when the
        # entity is the one asked for (its name or an alias is the name, not merely close to it: 'information
        # extraction' is close to 'open information extraction' and another task); an initialism left by taking the
        # kind noun off ('EM' of 'EM algorithm') is sought in the text only through an entity of that kind
        bare_initials = initials and kind and not form.short and not kinds
        searched += [*([] if bare_initials else [form]),
                     *(NameForm(n, short=is_initialism(n)) for e in entities if e["match"] >= 100
                       for n in _names(e) if n and len(n.strip()) > 1)]  # 'r' for recall names anything
    mentioned, framing, found_by_text = _papers_naming(reader, searched, long)
    records += found_by_text
    # a paper names many problems (its motivation, neighbouring tasks) and addresses the one it states up front
    addresses = intent.relations == ("ADDRESSES",)
    # a paper that names a thing in one passage mentions it, and uses it no more often than not
    mentions = intent.relations == ("MENTIONS",)
    # a paper reports a measure by its values when the measure's name is an everyday word ('accuracy', 'recall')
    by_value = intent.relations == ("MEASURES",) and _everyday_word(name)
    stated = framing | {r["p"]["id"] for r in records if "rels" in r.keys()
                        and any(_names_in_front(r["p"], form.text) for form in searched)}
    papers = [*(p for pid, p in typed.items() if not addresses or pid in stated or _read_in_body(p)),
              *(p for pid, p in mentioned.items() if pid not in typed
                and (mentions or (_reports_value(p, searched) if by_value else
                                  _own_passages(p, searched) >= MIN_MENTIONS or _says_it_uses(p, searched)))
                and (pid in framing or not addresses))]
    if not papers and addresses and task_object(long):  # the task's object, stated up front
        naming, stating, found_by_text = _papers_naming(reader, [NameForm(task_object(long))], long)
        papers = [p for pid, p in naming.items() if pid in stating and len(p["evidence"]) >= MIN_MENTIONS]
        records += [r for r in found_by_text if r["p"]["id"] in {p["paper_id"] for p in papers}]
    papers = [{**p, "evidence": p["evidence"][:EVIDENCE_PER_PAPER]} for p in papers]
    if not papers:
        return None
    rels = [rel for r in records if "rels" in r.keys() for rel in r["rels"]]
    confidence = sum(rel.get("confidence", 0.5) for rel in rels) / len(rels) if typed else 0.3
    return _papers_answer(intent, papers, records, confidence=confidence)


PAPERS_LISTED = 50  # papers a cross-paper answer lists at most
EVIDENCE_PER_PAPER = 2  # evidence items per listed paper
# Passages of its own text that must name an entity for a paper without a typed edge to be listed with the papers
# that have one: a single mention is as often a passing remark (an analogy, a footnote) as a use.
MIN_MENTIONS = EVIDENCE_PER_PAPER
# What "which papers use X" accepts: a paper uses a dataset by evaluating on it, a metric by measuring it, and
# what it proposes.
_USE_LIKE = ["USES", "EVALUATES_ON", "MEASURES", "ADDRESSES", "PROPOSES"]
# Sections where a paper names the problems around its own.
_AROUND_OWN_WORK = r"\b(introduction|related work|previous work|prior work|background)\b"
# Sections whose mentions of a name say nothing about what the paper itself does.
_NOT_OWN_WORK = r"(?s).*\b(related work|previous work|prior work|background|references|bibliography|future work)\b.*"


def _names(entity) -> list[str | None]:
    """An entity's name and aliases, as the reader's resolve returns it."""
    return [entity["properties"].get("name"), *(entity["properties"].get("aliases") or [])]


def _listed(reader: GraphReader, paper, rels: list, entities: list) -> dict:
    reader.known_paper(paper["sha256"], paper["id"], paper.get("title"))
    return {"paper_id": paper["id"], "title": paper.get("title"),
            "relations": sorted({rel.type for rel in rels}), "entities": sorted({e.get("name") or "" for e in entities}),
            "evidence": _evidence_for(reader, rels, EVIDENCE_PER_PAPER)}


def _papers_naming(reader: GraphReader, forms: list[NameForm], long: str) -> tuple[dict[str, dict], set[str], list]:
    """The papers whose own text names any of `forms` (each paper once, with the distinct passages of all forms
    as its evidence), those among them that name one in their title or abstract, and the records read."""
    mentioned: dict[str, dict] = {}
    framing: set[str] = set()
    records = []
    unique: dict[str, NameForm] = {}
    for form in forms:
        unique.setdefault(form.text.lower(), form)
    for form in unique.values():
        for paper, record in _papers_mentioning(reader, form.text):
            if form.short:  # the full-text index ignores case: 'MAP' finds 'map'
                paper = {**paper, "evidence": [e for e in paper["evidence"]
                                               if written_as_initialism(e["text"], form.text)]}
            if not paper["evidence"] or _other_meaning(paper, form, long):
                continue
            if _names_in_front(record["p"], form.text):
                framing.add(paper["paper_id"])
            seen = mentioned.setdefault(paper["paper_id"], {**paper, "evidence": []})
            seen["evidence"] += [e for e in paper["evidence"]
                                 if e["chunk_id"] not in {x["chunk_id"] for x in seen["evidence"]}]
            records.append(record)
    return mentioned, framing, records


def _read_in_body(paper: dict) -> bool:
    """Whether a passage a paper's typed edge was read from lies outside its introduction and related work: there a
    paper names the problems around its own (neighbouring tasks, what others' methods do), so an ADDRESSES edge
    read only there lists the paper when its title or abstract states the task."""
    return any(not re.search(_AROUND_OWN_WORK, (item.get("section") or "").lower()) for item in paper["evidence"])


def _own_passages(paper: dict, forms: list[NameForm]) -> int:
    """How many passages of a paper's evidence name the entity other than as one example of a list ('models such
    as ELMo, BERT and RoBERTa': kg.qa.names.only_as_example), which says what a thing is like, not that the
    paper uses it."""
    return sum(not any(only_as_example(item["text"], form.text, form.short) for form in forms)
               for item in paper["evidence"])


def _says_it_uses(paper: dict, forms: list[NameForm]) -> bool:
    """Whether a passage of a paper's evidence says the paper does something with the entity by one of its names
    (kg.qa.names.states_use)."""
    return any(states_use(item["text"], form.text, form.short) for item in paper["evidence"] for form in forms)


def _everyday_word(name: str) -> bool:
    """A name of one plain word in lower case ('accuracy', 'recall', 'error'), which prose uses in its everyday
    sense as often as for the measure; not an acronym ('BLEU'), a word with digits ('F1') or a phrase."""
    return bool(re.fullmatch(r"[a-z]+", name.strip().lower())) and not is_initialism(name.strip())


def _reports_value(paper: dict, forms: list[NameForm]) -> bool:
    """Whether a passage of a paper's evidence gives a value of the measure: a decimal or a percentage printed
    within a few words of one of its names ('a recall of 0.82', 'Recall: 85.5', '91% accuracy'; not 'recall in
    Section 4.2', 'Figure 3.2 shows recall', a year or a citation)."""
    return any(not _REFERENCE_BEFORE.search(item["text"][:m.start("value") if m.group("value") else m.start("before")])
               for item in paper["evidence"] for form in forms for m in _value_near(form.text).finditer(item["text"]))


# a decimal or a percentage, not a subscript or a section number's first part
_VALUE = r"(?P<value>(?<![\w∥|^_])(?:\d*\.\d+|\d+(?:\.\d+)?\s?%)(?![\w∥|^_]|\.\d))"
_REFERENCE_BEFORE = re.compile(r"(?i)\b(?:sections?|sec|figures?|figs?|tables?|tab|eqs?|equations?|appendix|chapter)"
                               r"\.?\s*\(?$")


@lru_cache(maxsize=256)
def _value_near(name: str) -> re.Pattern:
    word = re.escape(name)
    before = _VALUE.replace("?P<value>", "?P<before>")  # the value printed before the name
    return re.compile(rf"(?i)\b{word}\b\W{{0,3}}(?:[^\W\d]+\W+){{0,3}}?{_VALUE}"
                      rf"|{before}\W+(?:[^\W\d]+\W+){{0,2}}?{word}\b")


def _names_in_front(paper, name: str) -> bool:
    """Whether a paper's title or abstract holds `name` as whole words."""
    return _spells(" ".join([paper.get("title") or "", paper.get("abstract") or ""]), name)


def _spells(text: str, name: str) -> bool:
    """Whether `text` holds `name` as whole words, case and punctuation aside."""
    return f" {' '.join(tokens(name))} " in f" {' '.join(tokens(text))} "


def _other_meaning(paper: dict, form: NameForm, long: str) -> bool:
    """A paper found by an initialism whose evidence defines it as something else ('LDA' as linear discriminant
    analysis when latent Dirichlet allocation was asked for)."""
    return form.short and defines_otherwise([item["text"] for item in paper["evidence"]], form.text, long)


def _papers_mentioning(reader: GraphReader, name: str) -> list[tuple[dict, Any]]:
    """(listed paper, record) of each paper whose own text names `name` as a phrase, with its best passages."""
    phrase = lucene_phrase(name)
    if not phrase:
        return []
    records = reader.run(q.PAPERS_MENTIONING, index=reader.index("fulltext", "Chunk", "text"), text=phrase,
                         skip=_NOT_OWN_WORK, k=PAPERS_LISTED * 4, per_paper=EVIDENCE_PER_PAPER, limit=PAPERS_LISTED)
    out = []
    for r in records:
        paper = r["p"]
        reader.known_paper(paper["sha256"], paper["id"], paper.get("title"))
        titles = {paper["sha256"]: {"paper_id": paper["id"], "title": paper.get("title")}}
        out.append(({"paper_id": paper["id"], "title": paper.get("title"), "relations": ["MENTIONS"],
                     "entities": [name],
                     "evidence": [evidence_item(chunk_row(hit), titles, float(hit["score"] or 0.0))
                                  for hit in r["hits"]]}, r))
    return out


def _papers_answer(intent: Intent, papers: list[dict], records, *keys: str, confidence: float | None = None) -> Answer:
    """The listed papers as the answer: each title once, the first evidence of every paper as the evidence. The
    graph holds what `keys` name in the records (by default a paper, its edges and their entities)."""
    if confidence is None:
        rels = [rel for r in records for rel in (r[keys[1]] if isinstance(r[keys[1]], list) else [r[keys[1]]])]
        confidence = sum(rel.get("confidence", 0.5) for rel in rels) / max(1, len(rels))
    how = "" if confidence >= 0.5 else " (from their text: no typed edge names it)"
    return Answer(answer=f"{len(papers)} paper(s){how}: " + "; ".join(p["title"] or p["paper_id"] for p in papers),
                  intent=intent.name, confidence=round(confidence, 3),
                  evidence=[p["evidence"][0] for p in papers if p["evidence"]],
                  graph=_graph(records, *(keys or ("p", "rels", "entities"))), papers=papers)


def _definition(reader: GraphReader, intent: Intent, paper_id: str | None, top_k: int) -> Answer | None:
    """The stored definition of the entity the question names. Within a paper, only one that paper's own text
    states: an entity is shared by the papers that name it and keeps one definition, perhaps another paper's;
    when this paper defines it otherwise, retrieval reads its own defining sentence."""
    entities = reader.resolve(intent.names[0])
    if not entities:
        return None
    sha = reader.paper(paper_id).sha256 if paper_id is not None else None
    records = reader.run(q.DEFINITIONS, eids=[e["element_id"] for e in entities], sha=sha)
    for r in records:
        definition = r["e"].get("definition")
        if definition and (sha is None or any(squash(definition) in squash(text or "") for text in r["texts"])):
            return Answer(answer=f"{r['e']['name']}: {definition}", intent=intent.name,
                          confidence=round(max([x.get("confidence", 0.5) for x in r["rels"]] or [0.5]), 3),
                          evidence=_evidence_for(reader, r["rels"], top_k), graph=_graph([r], "e", "rels"))
    return None


def _element(reader: GraphReader, intent: Intent, paper_id: str | None) -> list:
    if intent.label == "Section":
        return reader.run(q.SECTION_BY_NUMBER, paper_id=paper_id, number=intent.number)
    return reader.run(q.ELEMENT_BY_LABEL, paper_id=paper_id, label=intent.label, number=intent.number,
                      types=reader.edge_types(source="Paper", target=intent.label),
                      about=reader.edge_types(source=intent.label))


def _element_evidence(reader: GraphReader, r, intent: Intent) -> dict:
    x = r["x"]
    page = x.get("page") or x.get("page_start")
    titles = reader.titles({x.get("paper_sha256")} - {None})
    paper = titles.get(x.get("paper_sha256"), {})
    text = x.get("caption") or x.get("text") or x.get("title") or ""
    return {"paper_id": paper.get("paper_id"), "title": paper.get("title"), "section": None, "chunk_id": x["id"],
            "text": f"{intent.label} {intent.number}: {text}", "page": page,
            "bbox": x.get("bbox") or (x.get("bboxes") or [None])[0], "score": 1.0}


def _where_element(reader: GraphReader, intent: Intent, paper_id: str | None, top_k: int) -> Answer | None:
    records = _element(reader, intent, paper_id)
    if not records:
        return None
    parts, evidence = [], []
    for r in records[:top_k]:
        x = r["x"]
        page = x.get("page") or x.get("page_start")
        where = f"{intent.label} {intent.number} is on page {page}"
        if not paper_id:
            where += f" of \"{r['p'].get('title')}\""
        caption = x.get("caption") or x.get("title")
        parts.append(f"{where}: {caption}" if caption else where)
        evidence.append(_element_evidence(reader, r, intent))
    return Answer(answer=". ".join(parts), intent=intent.name, confidence=1.0 if len(records) == 1 else 0.6,
                  evidence=evidence, graph=_graph(records, "p", "x"))


def _not_named_in(caption: str, names: list[str | None]) -> list[str]:
    """The entity names a caption does not already spell out, sorted: 'It is about: Performance ratio' adds
    nothing after 'Performance ratio for the simulation ...'."""
    return sorted({n for n in names if n and not _spells(caption, n)})


def _element_content(reader: GraphReader, intent: Intent, paper_id: str | None, top_k: int) -> Answer | None:
    records = _element(reader, intent, paper_id)
    if not records:
        return None
    r = records[0]
    x = r["x"]
    caption = x.get("caption") or x.get("text") or x.get("title") or ""
    answer = f"{intent.label} {intent.number}: {squash(caption)}"
    about = _not_named_in(caption, [e.get("name") for e in r["about"] if e is not None])
    if about:
        answer += f" It is about: {', '.join(about)}."
    evidence = [_element_evidence(reader, r, intent)]
    titles = reader.titles({c.get("paper_sha256") for c in r["mentioned_in"]} - {None})
    for c in r["mentioned_in"]:
        evidence.append(evidence_item({**dict(c), "section": None}, titles, 0.5))
    return Answer(answer=answer, intent=intent.name, confidence=0.9 if len(records) == 1 else 0.6,
                  evidence=evidence[:top_k], graph=_graph([r], "p", "x", "about", "about_edges", "mention_edges"))


def _results(reader: GraphReader, intent: Intent, paper_id: str | None, top_k: int) -> Answer | None:
    methods = reader.resolve(intent.names[0], ["Method"])
    datasets = reader.resolve(intent.names[1], ["Dataset"])
    if not methods or not datasets:
        return None
    records = reader.run(q.RESULTS, methods=[m["element_id"] for m in methods],
                         datasets=[d["element_id"] for d in datasets], paper_id=paper_id)
    return _results_answer(reader, intent, records, top_k)


def _compare(reader: GraphReader, intent: Intent, paper_id: str | None, top_k: int) -> Answer | None:
    first, second = (reader.resolve(name, ["Method"]) for name in intent.names)
    if not first or not second:
        return None
    records = reader.run(q.RESULTS, methods=[m["element_id"] for m in first + second], datasets=None,
                         paper_id=paper_id)
    by_setting: dict[tuple, set] = {}
    for r in records:
        by_setting.setdefault((r["d"]["id"], r["metric"]["id"] if r["metric"] else None), set()).add(r["m"]["id"])
    wanted = {m["id"] for m in first}, {m["id"] for m in second}
    shared = {k for k, ms in by_setting.items() if ms & wanted[0] and ms & wanted[1]}
    records = [r for r in records if (r["d"]["id"], r["metric"]["id"] if r["metric"] else None) in shared]
    return _results_answer(reader, intent, records, top_k)


def _results_answer(reader: GraphReader, intent: Intent, records, top_k: int) -> Answer | None:
    if not records:
        return None
    lines = []
    for r in records:
        metric = f" {r['metric']['name']}" if r["metric"] else ""
        where = f" ({next(iter(r['where'].labels))} {r['where'].get('label')})" if r["where"] is not None and \
            r["where"].get("label") else ""
        lines.append(f"{r['m']['name']} on {r['d']['name']}:{metric} {r['res']['value_text']}{where}")
    evidence = _evidence_for(reader, [r["res"] for r in records], top_k) or [_element_evidence(reader, {"x": r["where"]}, Intent(
        intent.name, label=next(iter(r["where"].labels)), number=r["where"].get("label")))
        for r in records if r["where"] is not None][:top_k]
    return Answer(answer="; ".join(lines) + ".", intent=intent.name,
                  confidence=round(sum(r["res"].get("confidence", 0.5) for r in records) / len(records), 3),
                  evidence=evidence, graph=_graph(records, "res", "m", "d", "metric", "where", "rels"))


_HANDLERS = {"entities_of_paper": _entities_of_paper, "papers_with": _papers_with, "definition": _definition,
             "where_element": _where_element, "element_content": _element_content, "results": _results,
             "compare": _compare}
