"""Names that are never a method, dataset, metric or task of a paper: the people, venues, publishers and
organisations the paper itself names in its byline and bibliography, the section words of papers, and phrases
that general language shows to be something else (a study the paper performs, a unit of text or a file, a unit
of measurement).

The person, venue and organisation lists are read from each paper's own front matter and references (and, for
text without a parsed bibliography, from its citations: 'Liu et al.'), so they hold for papers no rule was
written against; the word lists in terms.yaml are about language, not about particular papers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from extractors.model import Document
from extractors.section_kinds import heading_kind
from extractors.semantic import lexicons
from extractors.semantic.canonical import match_key, normalize
from extractors.semantic.patterns import DATASET, METHOD, TASK

# a surname as printed: one capital, then lower-case letters (an acronym or CamelCase name is never taken)
_SURNAME = re.compile(r"^[A-Z][a-zà-ÿ'’-]+[a-zà-ÿ]$")
# a surname as a citation prints it: 'Liu et al.', '(Lee, 2018)', '(Chen and Lee, 2018; ...)'; not 'Name (2018)',
# which is how a method is cited too ('Citeomatic (2018)'), nor a name and a bare year ('Wikipedia 2018')
_NAME = r"[A-Z][a-zà-ÿ'’-]+[a-zà-ÿ]"
_CITED_AUTHOR = re.compile(rf"\b(?P<a>{_NAME})(?:\s+(?:and|&)\s+(?P<b>{_NAME}))?\s+et\s+al\b"
                           rf"|[(;]\s*(?P<c>{_NAME})(?:\s+(?:and|&)\s+(?P<d>{_NAME}))?,\s+(?:19|20)\d\d[a-z]?\b")
# a person as a reference prints one: 'P. A. Estevez', 'Estevez, P. A.', 'Estevez PA,'
_PRINTED_PERSON = re.compile(rf"\b(?:[A-Z]\.\s*(?:-?[A-Z]\.\s*)*)(?P<a>{_NAME})\b"
                             rf"|\b(?P<b>{_NAME}),\s+(?:[A-Z]\.\s*)+|\b(?P<c>{_NAME})\s+[A-Z]{{1,3}}[,.]")
# a venue in a reference: 'In Proceedings of the ... ,', 'in: Neural Networks, 2007'
_IN_VENUE = re.compile(r"\b[Ii]n:?\s+(?P<v>[A-Z][^,.()]{2,120})")
# a run of six or more digits is an identifier (a grant 'IIS-0844566', a phone or patent number), not a name
_IDENTIFIER = re.compile(r"\d{6,}")
_ROMAN = re.compile(r"^[IVXL]+(?:-[A-Z0-9])?$")
_FUNCTION_WORDS = {"of", "in", "on", "and", "for", "the", "a", "an", "to", "with", "at", "by", "from", "&"}
_NAME_PARTICLES = {"van", "von", "der", "den", "de", "da", "del", "di", "la", "le", "dos", "du", "y", "and"}
# what precedes the name of a venue in a reference ('In Proceedings of the 56th Annual Meeting of ...')
_VENUE_LEAD = re.compile(r"^(?:in\s+)?(?:(?:the\s+)?proceedings\s+of\s+)?(?:the\s+)?(?:\d+(?:st|nd|rd|th)\s+)?"
                         r"(?:advances\s+in\s+)?", re.I)
_VENUE_PARTS = re.compile(r"[,.;:()\[\]]|\b(?:19|20)\d\d\b|\bpages?\b|\bpp\b|\bvol(?:ume)?\b")
_EMAIL_DOMAIN = re.compile(r"@(?:[\w-]+\.)*?(?P<d>[\w-]+)\.(?:com|org|net|ai|io|co|edu|ac|de|fr|uk|cn|jp)\b", re.I)
_ORG_WORD = re.compile(r"\b(?:Universit\w*|Institut\w*|Inc|Corp|Corporation|Ltd|Labs?|Laborator\w+|Research|Foundation|"
                       r"College|School|Department|Dept|Faculty|Cent(?:er|re)|Company|GmbH|Academy)\b")
_LABELS_OF_PEOPLE = (METHOD, DATASET)  # a surname, venue or organisation passes for a named method or dataset


@dataclass(frozen=True)
class NonEntities:
    """What one paper names that is not an entity: surnames and venue/organisation names as match keys."""

    people: frozenset[str] = frozenset()  # surnames as printed ('Liu')
    venues: frozenset[str] = frozenset()  # normalised venue and publisher names
    organisations: frozenset[str] = frozenset()  # match keys

    def with_people(self, names: set[str]) -> NonEntities:
        return NonEntities(self.people | names, self.venues, self.organisations)

    def excludes(self, label: str, name: str) -> bool:
        """True when `name`, found as a `label`, is one of the paper's people, venues or organisations, an
        organisation by its last word ('German Research Foundation'), an identifier, a section word, a task head
        without its object ('inference'), or a phrase general language types as something else. A name a lexicon
        knows as a dataset or metric is kept ('SemEval-2017' is a venue and a dataset)."""
        if is_section_word(name) or label == TASK and (is_study_phrase(name) or is_objectless(name)) or \
                label == METHOD and is_artefact(name) or label != TASK and is_unit(name):
            return True
        if label not in _LABELS_OF_PEOPLE or lexicons.datasets().lookup(name) or lexicons.metrics().lookup(name):
            return False
        words = [w for w in re.split(r"\s+|\s*&\s*", name.strip()) if w and w not in ("and", "et", "al", "al.")]
        if words and all(re.sub(r"['’]s$", "", w.rstrip(".,")) in self.people for w in words):
            return True
        key = match_key(name)
        named_org = len(name.split()) > 1 and _ORG_WORD.fullmatch(name.split()[-1]) is not None
        return key in self.organisations or named_org or \
            _IDENTIFIER.search(name) is not None or self._in_venue(name)

    def _in_venue(self, name: str) -> bool:
        """A venue's whole name or acronym, or a run of three or more of its words ('Neural Information
        Processing Systems' of 'Advances in Neural Information Processing Systems')."""
        text = normalize(name)
        if not text:
            return False
        if text in self.venues:
            return True
        return len(text.split()) >= 3 and any(f" {text} " in f" {v} " for v in self.venues)


def names_organisation(name: str) -> bool:
    """A name with an organisation's word anywhere in it ('Instituto Avanzado de Cosmología', 'Allen Institute
    for AI'): what a byline's abbreviated affiliation looks like."""
    return any(_ORG_WORD.fullmatch(word) for word in name.split())


def is_section_word(name: str) -> bool:
    """A name that is a section heading of papers ('Related Work', 'Experimental Setup') or a section's
    number ('III-C', 'VII')."""
    return bool(_ROMAN.match(name)) or heading_kind(name) is not None


def is_objectless(name: str) -> bool:
    """'inference', 'scheduling', 'classification' alone: a process that names a task only with its object."""
    words = normalize(name).split()
    return len(words) == 1 and words[0] in lexicons.terms().objectless_task_heads


def is_study_phrase(name: str) -> bool:
    """'error analysis', 'detailed analysis': an analysis or study whose modifiers say how it is done, which a
    paper performs on its own results, not a task it addresses ('sentiment analysis' names its object)."""
    words = normalize(name).split()
    t = lexicons.terms()
    return len(words) >= 2 and words[-1] in t.study_heads and all(w in t.study_modifiers for w in words[:-1])


def common_words(names: list[str], prose: list[str]) -> set[str]:
    """The one-word capitalised names ('Theoretical', 'Bag', 'Complex') the prose writes in lower case at least
    as often as with some capital: an ordinary word that opened a sentence or heading, not a proper name, which
    keeps a capital wherever a sentence writes it ('Pubmed', 'PubMed'; table and figure labels do not count)."""
    words = [n for n in names if " " not in n and n[:1].isupper() and n[1:].islower()]
    if not words:
        return set()
    text = "\n".join(prose)
    out = set()
    for word in words:
        found = re.findall(rf"(?<![\w./@-]){re.escape(word)}(?![\w/@-])", text, re.I)
        lower = sum(f == word.lower() for f in found)
        if lower >= len(found) - lower:
            out.add(word)
    return out


def capitals_labels(names: list[str], prose: list[str]) -> set[str]:
    """The names of two words or more set all in capitals whose every word the prose also writes in lower case
    ('COST PER FULL-RATE STREAM', 'EXPERIMENTAL SETUP'): ordinary words a heading, caption or table label sets in
    capitals, not a name; an acronym ('MS MARCO', 'TREC CAR') is written in capitals wherever it stands."""
    labels = [n for n in names if len(re.findall(r"[A-Za-z]+", n)) >= 2 and n == n.upper()
              and sum(w.isalpha() for w in n.split()) >= 2]
    if not labels:
        return set()
    text = "\n".join(prose)
    lower = set(re.findall(r"(?<![\w'’-])[a-z][a-z'’-]*[a-z](?![\w-])", text))
    return {n for n in labels if all(w.lower() in lower for w in re.findall(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]|[A-Za-z]", n)
                                     if not w.isdigit())}


def is_unit(name: str) -> bool:
    """A unit symbol ('eV', 'GHz', 'MB'), as printed after a number: what a quantity is measured in."""
    return name.strip() in lexicons.terms().unit_symbols


def is_artefact(name: str) -> bool:
    """A unit of text or a file, named in the plural or singular ('URLs', 'PDF files'), never a method."""
    words = normalize(name).split()
    return bool(words) and all(w in lexicons.terms().artefact_nouns for w in words)


def _person_like(name: str) -> bool:
    """2-5 words, each an initial, a name particle or a capitalised name (not a title fragment a reference
    parser took for an author: 'Selecting the most influential nodes')."""
    words = name.replace(",", " ").split()
    return 2 <= len(words) <= 5 and all(re.fullmatch(r"(?:[A-Z]\.?-?)+", w) or w in _NAME_PARTICLES or
                                        _SURNAME.match(w) for w in words)


def surnames(full_names: list[str]) -> set[str]:
    """The surname of each 'Alice Smith' / 'A. Smith' / 'Smith, A.' (its last word that looks like a surname)."""
    out = set()
    for name in filter(_person_like, full_names):
        head, _, tail = name.partition(",")
        words = head.split() if tail.strip() and len(head.split()) == 1 else name.replace(",", " ").split()
        for word in reversed(words):
            if _SURNAME.match(word) and word.lower() not in _NAME_PARTICLES:
                out.add(word)
                break
    return out


def cited_people(texts: list[str]) -> set[str]:
    """Surnames the text cites by ('Liu et al.', 'Etzioni (2011)', 'Chen and Lee, 2018')."""
    stops = lexicons.terms().stop_names
    return {n for text in texts for m in _CITED_AUTHOR.finditer(text) for n in m.group("a", "b", "c", "d")
            if n and n not in stops}


def printed_people(references: list[str]) -> set[str]:
    """Surnames the reference strings print with initials ('P. A. Estevez', 'Estevez, P. A.', 'Estevez PA')."""
    stops = lexicons.terms().stop_names
    return {n for raw in references for m in _PRINTED_PERSON.finditer(raw) for n in m.group("a", "b", "c")
            if n and n not in stops and n.lower() not in _NAME_PARTICLES}


def _title_case(part: str) -> bool:
    """Every word but the short function words capitalised: how venues and publishers are printed, unlike the
    sentence-case titles a reference parser sometimes leaves in a venue field."""
    words = [w for w in re.findall(r"[A-Za-z][\w'’-]*", part) if w.lower() not in _FUNCTION_WORDS]
    return bool(words) and all(w[0].isupper() for w in words)


def venue_names(venue_fields: list[str]) -> set[str]:
    """Normalised venue and publisher names from references' venue fields: each title-case part between
    punctuation, years and page numbers, without the 'In Proceedings of the 56th' that leads it."""
    out = set()
    for field in venue_fields:
        for part in _VENUE_PARTS.split(field):
            part = _VENUE_LEAD.sub("", part.strip())
            if _title_case(part) and len(re.findall(r"[A-Za-z]", part)) >= 3:
                out.add(normalize(part))
    return out


def organisation_names(affiliations: list[str], emails: list[str]) -> set[str]:
    """Match keys of the organisations of the byline: each comma-separated part of an affiliation line that
    names an organisation, its leading name ('Google' of 'Google Research'), and the domains of emails."""
    out = set()
    for line in affiliations:
        for part in (p.strip() for p in line.split(",")):
            if not _ORG_WORD.search(part):
                continue
            out.add(match_key(part))
            lead = _ORG_WORD.split(part)[0].strip()
            if lead and lead[0].isupper() and len(lead.split()) <= 2:
                out.add(match_key(lead))
    # a short domain is as often an abbreviation ('cam.ac.uk', 'mit.edu') that a method's acronym may spell
    out |= {match_key(m["d"]) for e in emails for m in [_EMAIL_DOMAIN.search(e)] if m and len(m["d"]) >= 5}
    return out - {""}


def front_lines(doc: Document) -> list[str]:
    """The lines of the text before the first section (title, byline, affiliations): where organisations are
    printed even when the metadata parser did not attach them to an author."""
    first = min((s.char_start for s in doc.sections if s.char_start is not None), default=0)
    return [line for line in doc.text[:first].split("\n") if _ORG_WORD.search(line)]


def of_document(doc: Document) -> NonEntities:
    """The people, venues and organisations one paper's byline and bibliography name."""
    people = surnames([a.name for a in doc.metadata.authors] + [n for r in doc.references for n in r.authors]) | \
        printed_people([r.raw for r in doc.references])
    venues = venue_names([r.venue for r in doc.references if r.venue] +
                         [m["v"] for r in doc.references for m in _IN_VENUE.finditer(r.raw)])
    affiliations = [a for author in doc.metadata.authors for a in author.affiliations] + front_lines(doc)
    emails = [a.email for a in doc.metadata.authors if a.email] + re.findall(r"\S+@\S+", doc.text[:3000])
    return NonEntities(frozenset(people), frozenset(venues), frozenset(organisation_names(affiliations, emails)))
