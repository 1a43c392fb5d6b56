"""A lexicon name written in capitals only (an initialism) is found as written, not in other case: table cells
such as 'Las Vegas' or 'Ter' are not the metrics LAS or TER, while 'Bleu' and 'Rouge-L' are still BLEU and ROUGE-L."""

from __future__ import annotations

import pytest

from extractors.semantic.lexicons import _lexicon

LEXICON = _lexicon({"labeled attachment score": ["LAS"], "BLEU": [], "ROUGE-L": [],
                    "mean average precision": ["MAP", "mAP"], "accuracy": ["acc."]})


@pytest.mark.parametrize("surface, found", [
    ("LAS", "labeled attachment score"), ("Las", None), ("las", None),
    ("BLEU", "BLEU"), ("Bleu", "BLEU"), ("bleu", None), ("Rouge-L", "ROUGE-L"),
    ("map", "mean average precision"),  # the lexicon writes it 'mAP' too: not capitals only
    ("Accuracy", "accuracy"), ("ACC.", "accuracy"),
])
def test_an_initialism_is_found_as_written(surface, found):
    assert LEXICON.lookup_as_written(surface) == found


def test_plain_lookup_ignores_case():
    assert LEXICON.lookup("Las") == "labeled attachment score"
