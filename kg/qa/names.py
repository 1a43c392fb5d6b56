"""The names a cross-paper question's entity goes by in papers, by conventions of scientific English, so that
"which papers use the Europarl corpus" finds the dataset a paper calls "Europarl", and "which papers use support
vector machines" the papers that write "SVMs".

- A name followed by the noun of its kind in lower case ("the Europarl corpus", "the WMT benchmark", "the BM25
  model"): papers often write the name alone, and the graph stores it so. A capitalised noun is part of the name
  ("the Penn Treebank").
- A task named by its object and its process ("web spam detection") is stated by its object alone in some papers
  ("Combating Web Spam"): `task_object`, used only when no paper is found otherwise.
- A name of three words or more has a short form made of its words' initials ("support vector machines": "SVMs",
  "SVM"; "hidden Markov models": "HMM", the noun of its kind being part of it when the rest is too short). A
  short form is ambiguous ("LDA" is also linear discriminant analysis), so a paper found by it only counts when
  it does not define the short form as something else (`defines_otherwise`), and where it is written in
  capitals (`written_as_initialism`: "MAP" is mean average precision, "map" a word).
- Spelling variants: a Greek letter's name is also written as the letter ("Kendall's tau": "Kendall's τ"); a
  possessive also without its "'s" ("Kendall tau") and with a typographic apostrophe; a number after a name also
  joined to it ("ACE 2005": "ACE2005"); a method named by its process (-ing) also by its agent noun ("Gibbs
  sampling": "Gibbs sampler"); a modelling task by its models ("topic modeling": "topic models"); American and
  British spellings of word endings.

Pure functions on strings: nothing here knows a paper or a field.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kg.qa.text import abbreviations, sentences, tokens

# Nouns naming the kind of a thing after its name (the entity nouns of kg.qa.intents, singular and plural), by the
# label they say the thing has: 'the EM algorithm' is a method, whatever else 'EM' names (exact match).
_KIND_NOUNS = {"Dataset": r"corpus|corpora|data\s?sets?|benchmarks?|collections?|treebanks?",
               "Method": r"models?|methods?|algorithms?|approach(?:es)?|systems?",
               "Task": r"tasks?|problems?",
               "Metric": r"metrics?|measures?|scores?"}
_KIND_NOUN = re.compile(rf"\s+(?:{'|'.join(_KIND_NOUNS.values())})$")
_KIND_LABEL = [(re.compile(rf"\s(?:{nouns})$", re.I), label) for label, nouns in _KIND_NOUNS.items()]
_DATA_NOUN = re.compile(r"\s+data$")
_LINKING = frozenset("of the and for in on to with a an".split())
MIN_INITIALS = 3  # two letters ('PT', 'ML') name too many things to stand for one name


@dataclass(frozen=True)
class NameForm:
    text: str
    short: bool = False  # an initialism of the name asked: a paper found by it must not define it otherwise


def kind_label(name: str) -> str | None:
    """The entity label the noun of a name's kind says ('EM algorithm': Method, 'Penn Treebank': Dataset), else
    None."""
    return next((label for pattern, label in _KIND_LABEL if pattern.search(" ".join(name.split()))), None)


def name_forms(name: str) -> list[NameForm]:
    """The name as asked, without the noun of its kind when a name remains, and its initialism (plural and
    singular when the name is a plural), each once, in that order."""
    name = " ".join(name.split())
    forms = [NameForm(name)]
    bare = _KIND_NOUN.sub("", name)
    if bare == name and _DATA_NOUN.search(name) and re.search(r"[A-Z0-9]", _DATA_NOUN.sub("", name)):
        bare = _DATA_NOUN.sub("", name)  # 'the SemEval data': a named resource's data, not 'training data'
    if bare != name and bare.strip():
        forms.append(NameForm(bare))
    forms += [NameForm(v) for v in spellings(bare)]
    whole = bare if initialism(bare) else name
    short = initialism(whole)
    if short:
        plural = whole.lower().endswith("s") and not whole.lower().endswith("ss")
        forms += [NameForm(f"{short}s", short=True)] if plural else []
        forms.append(NameForm(short, short=True))
    seen: set[str] = set()
    return [f for f in forms if not (f.text.lower() in seen or seen.add(f.text.lower()))]


_GREEK = {"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "theta": "θ", "kappa": "κ",
          "lambda": "λ", "mu": "μ", "rho": "ρ", "sigma": "σ", "tau": "τ", "phi": "φ", "chi": "χ", "omega": "ω"}
_POSSESSIVE = re.compile(r"(\w)['\u2019]s\b")
_NUMBER_AFTER = re.compile(r"\b([A-Za-z]+) (\d+)\b")


# American and British spellings of the endings of scientific words, each way.
_SPELLINGS = {"modeling": "modelling", "modelling": "modeling", "labeling": "labelling", "labelling": "labeling",
              "ization": "isation", "isation": "ization"}
_OTHER_SPELLING = re.compile(r"(?:modell?ing|labell?ing|i[sz]ation)$", re.I)


def spellings(name: str) -> list[str]:
    """Other ways papers write `name` (without the name itself): a Greek letter's name as the letter, a
    possessive without its 's and with the other apostrophe, a number joined to the word before it, a last word
    in -ing (a process) as its agent noun in -er, 'X modeling' as 'X models' (what the task makes), American
    and British spellings ('modeling', 'modelling'). Several at once are not combined: each variant changes one
    convention."""
    out = []
    words = name.split()
    if any(w.lower() in _GREEK for w in words):
        out.append(" ".join(_GREEK.get(w.lower(), w) for w in words))
    if _POSSESSIVE.search(name):
        out.append(_POSSESSIVE.sub(r"\1", name))
        out.append(_POSSESSIVE.sub(lambda m: m.group(1) + ("\u2019s" if "'" in m.group(0) else "'s"), name))
    if _NUMBER_AFTER.search(name):
        out.append(_NUMBER_AFTER.sub(r"\1\2", name))
    if len(words) >= 2 and words[-1].lower().endswith("ing") and len(words[-1]) > 5:
        out.append(" ".join([*words[:-1], words[-1][:-3] + "er"]))
    if len(words) >= 2 and re.fullmatch(r"model(?:l)?ing", words[-1], re.I):  # the task of making X models
        out.append(" ".join([*words[:-1], "models"]))
    other = " ".join(map(_respelled, words))
    if other != name:
        out.append(other)
    return [v for v in dict.fromkeys(out) if v != name]


def is_initialism(name: str) -> bool:
    """Whether a name is written as an initialism: one word of letters with two capitals or more ('MAP', 'mAP',
    'SVMs', 'TextRunner' too, whose capitals a paper keeps), so that it is sought in capitals."""
    return bool(re.fullmatch(r"[A-Za-z]+", name)) and sum(c.isupper() for c in name) >= 2


def names_entity(text: str, names: list[str | None]) -> bool:
    """Whether `text` names an entity by one of `names` (its name and aliases): an initialism in capitals
    (`written_as_initialism`), another name as whole words, case, punctuation and a plural ending aside; a name of
    one letter counts only for an entity without a longer one, as it names any symbol in a text of symbols."""
    words = " ".join(w.removesuffix("s") for w in tokens(text))
    longer = [n for n in names if n and len(n.strip()) > 1]  # a one-letter alias ('r') is any symbol ...
    for name in longer or [n for n in names if n]:  # ... unless the entity has no other name ('R')
        if is_initialism(name):
            if written_as_initialism(text, name):
                return True
        elif f" {' '.join(w.removesuffix('s') for w in tokens(name))} " in f" {words} ":
            return True
    return False


# What a sentence says a paper does with a thing it names: it trains, evaluates, uses, runs, obtains, reports.
_USE_VERB = re.compile(r"\b(?:we|our|us)\b|\b(?:train|evaluat|tested|use[sd]?\b|using|appl(?:y|ies|ied|ying)\b|"
                       r"employ|adopt|obtain|achiev|comput|measur|report|run|ran\b|buil|tun)", re.I)
# What makes a sentence name a thing as one example of many, others' work or a plan.
_ASIDE = re.compile(r"\b(?:such as|for example|for instance|like|has been|have been|were proposed|was proposed|plan|"
                    r"will|future)\b|\be\.g\.|\bet al\.", re.I)


# What opens a list of examples: 'models such as ELMo, BERT and RoBERTa'.
_EXAMPLES = re.compile(r"\b(?:such as|for example|for instance|including|like)\b,?|\be\.g\.,?", re.I)
_LIST_END = re.compile(r"[.;:)\]]|\b(?:whose|which|that|where|who)\b", re.I)
MAX_ITEM_WORDS = 5  # longer than a name: the list has ended


def _mentions_name(text: str, name: str, short: bool) -> bool:
    """Whether `text` names `name`: an initialism in capitals (`short`), another name as whole words."""
    if short:
        return written_as_initialism(text, name)
    return f" {' '.join(tokens(name))} " in f" {' '.join(tokens(text))} "


def _naming(text: str, name: str, short: bool) -> list[str]:
    """The sentences of `text` that name `name` (an initialism in capitals)."""
    return [text[start:end] for start, end in sentences(text) if _mentions_name(text[start:end], name, short)]


def _in_example_list(sentence: str, name: str, short: bool) -> bool:
    """Whether `sentence` names `name` as an item of a list of examples ('such as ELMo, BERT, RoBERTa, and
    others'): the items after the opening words are names (a few words each, separated by commas, 'and', 'or'),
    and one of them is the name."""
    for opening in _EXAMPLES.finditer(sentence):
        listed = _LIST_END.split(sentence[opening.end():], maxsplit=1)[0]
        for item in re.split(r",|\band\b|\bor\b", listed):
            item = item.strip(" \"'\u201c\u201d")
            if len(item.split()) > MAX_ITEM_WORDS:
                break
            if _mentions_name(item, name, short):
                return True
    return False


def only_as_example(text: str, name: str, short: bool = False) -> bool:
    """Whether every sentence of `text` that names `name` names it as one example of a list: such a passage says
    what the thing is like, not that the paper uses it. False when no sentence names it."""
    found = _naming(text, name, short)
    return bool(found) and all(_in_example_list(s, name, short) for s in found)


def states_use(text: str, name: str, short: bool = False) -> bool:
    """Whether a sentence of `text` that names `name` says the paper does something with it: a first-person or
    use verb ('we trained on', 'trained on sections 02-21 of the Penn Treebank', 'we obtain an AUC of 0.71'), and
    nothing marking an aside (an example of many, others' work, a plan). A paper that names a thing in one
    passage only is listed as using it when that passage says so."""
    for sentence in _naming(text, name, short):
        rest = re.sub(re.escape(name), " ", sentence, flags=re.I)  # 'parsing' of 'semantic parsing' is no verb
        if _USE_VERB.search(rest) and not _ASIDE.search(sentence):
            return True
    return False


def written_as_initialism(text: str, short: str) -> bool:
    """Whether `text` writes the initialism `short` (or its plural) as one: with at least two of its capitals
    ('MAP', 'mAP', 'HMMs'), not as a word that happens to share its letters ('map', 'Map')."""
    stem_ = re.escape(short.removesuffix("s"))
    return any(sum(c.isupper() for c in m.group(0)) >= 2
               for m in re.finditer(rf"(?<![\w-]){stem_}s?(?![\w])", text, re.I))


# Nouns of the process a task performs on its object ('web spam detection': detecting web spam).
_PROCESS = re.compile(r"\s+(?:detection|recognition|classification|extraction|identification|prediction|"
                      r"label(?:l)?ing|tagging|parsing|segmentation|linking|resolution|generation|translation|"
                      r"summari[sz]ation|retrieval|answering|disambiguation|filtering|ranking|estimation|analysis)$",
                      re.I)


def task_object(name: str) -> str | None:
    """What a task named by its object and its process works on ('web spam detection' -> 'web spam'): a paper
    that addresses the task often names only the object where it states its problem ('Combating Web Spam').
    None unless the name ends in a process noun and two words or more remain (one word, 'entity' of 'entity
    linking', names too much)."""
    found = _PROCESS.sub("", " ".join(name.split()))
    return found if found != " ".join(name.split()) and len(found.split()) >= 2 else None


def initialism(name: str) -> str | None:
    """The capitals of a name's words' initials ('support vector machines' -> 'SVM'), linking words left out;
    None for a name of fewer than MIN_INITIALS such words, or one already written with capitals inside a word
    (an acronym or a product name has no initialism of its own)."""
    words = [w for w in re.findall(r"[A-Za-z][\w']*", name.replace("-", " ")) if w.lower() not in _LINKING]
    if len(words) < MIN_INITIALS or any(any(c.isupper() for c in w[1:]) for w in words):
        return None
    return "".join(w[0].upper() for w in words)


def broader(names: list[str | None], asked: str) -> bool:
    """Whether one of an entity's names (its name and aliases) leaves out words of the name asked and none is the
    name asked: 'information extraction' is close to 'open information extraction' by spelling and a wider thing.
    (A name without the noun of its kind is a form of its own, `name_forms`, so 'Europarl' is found for 'Europarl
    corpus' as itself.)"""
    words = set(tokens(asked))
    found = [set(tokens(n)) for n in names if n]
    return words not in found and any(n < words for n in found)


def spelled_alike(name: str, asked: str) -> bool:
    """Whether a name is the name asked in another spelling: word by word the same but for a plural ending or an
    American or British spelling ('conditional random fields', 'topic modelling'), or the same letters spaced
    otherwise ('BERTLARGE', 'BERT-large'). A name with another word ('data extraction' for 'metadata extraction'),
    another number ('CIFAR-100', 'WMT16') or another letter ('ResNeXt') names another thing."""
    ours, theirs = ([t for t in tokens(n) if t != "s"] for n in (name, asked))  # a possessive's 's aside
    if len(ours) == len(theirs):
        return all(_same_word(a, b) for a, b in zip(ours, theirs))
    return "".join(ours) == "".join(theirs)


def _same_word(one: str, other: str) -> bool:
    return one.removesuffix("s") == other.removesuffix("s") or _respelled(one) == other


def _respelled(word: str) -> str:
    """The word with its ending in the other of American and British spelling ('modeling', 'modelling')."""
    return _OTHER_SPELLING.sub(lambda m: _SPELLINGS[m.group(0).lower()], word)


def narrower(name: str, asked: str) -> bool:
    """Whether a name holds the name asked, word for word and in order, with more words around it: 'adapting open
    information extraction' is a kind of 'open information extraction' work, 'biomedical named entity
    recognition' of 'named entity recognition' (plural endings aside)."""
    ours, theirs = ([w.removesuffix("s") for w in tokens(n)] for n in (name, asked))
    return len(ours) > len(theirs) > 0 and any(ours[i:i + len(theirs)] == theirs
                                                for i in range(len(ours) - len(theirs) + 1))


def defines_otherwise(texts: list[str], short: str, long: str) -> bool:
    """Whether passages define the short form `short` (or its plural) as something whose initials are not those
    of `long`: 'linear discriminant analysis (LDA)' for 'latent Dirichlet allocation'."""
    wanted = short.removesuffix("s").lower()
    for text in texts:
        for found_short, found_long in abbreviations(text):
            if found_short.removesuffix("s").lower() == wanted and not _same_name(found_long, long):
                return True
    return False


def spells_otherwise(names: list[str | None], short: str, long: str) -> bool:
    """Whether one of an entity's names (its name and aliases) is another long form of the short form `short`:
    the graph's 'linear discriminant analysis', known as 'LDA', is not the 'LDA' of 'latent Dirichlet allocation'
    (ingestion stores a paper's defined short form as an alias of what it stands for)."""
    wanted = short.removesuffix("s").lower()
    return any(n and (initialism(n) or "").lower() == wanted and not _same_name(n, long) for n in names)


def _same_name(one: str, other: str) -> bool:
    """Whether two long forms are the same words, linking words and plural endings aside."""
    def words(name: str) -> list[str]:
        return [w.removesuffix("s") for w in tokens(name) if w not in _LINKING]
    return words(one) == words(other)
