"""Names, match keys, cross-paper ids, and the conservative identity decision."""

from __future__ import annotations

import pytest

from extractors.semantic.canonical import Identity, entity_id, identity, match_key, normalize


def test_normalize_and_match_key():
    assert normalize("  Micro-F1  score ") == "micro f1 score"
    assert match_key("ResNet-50") == match_key("resnet 50") == "resnet50"
    assert match_key("SciBERT") == match_key("SCIBERT")
    assert match_key("word embeddings") == match_key("word embedding")


def test_entity_ids_are_cross_paper_and_per_label():
    assert entity_id("Dataset", "SQuAD") == entity_id("Dataset", "squad")
    assert entity_id("Dataset", "SQuAD") != entity_id("Method", "SQuAD")
    assert entity_id("Dataset", "SQuAD").startswith("dataset_") and len(entity_id("Dataset", "SQuAD")) == 28


@pytest.mark.parametrize("a, b", [("BERT", "RoBERTa"), ("ResNet-50", "ResNet-101"), ("CIFAR-10", "CIFAR-100"),
                                  ("GPT-2", "GPT-3"), ("LSTM", "BiLSTM"), ("WMT14", "WMT16")])
def test_nothing_is_merged_across_genuinely_different_names(a, b):
    assert identity(a, b) is not Identity.SAME


@pytest.mark.parametrize("a, b", [("SciBERT", "SCIBERT"), ("Doc2vec", "Doc2Vec"), ("t-SNE", "t SNE"),
                                  ("PubTables-1M", "PubTables 1M")])
def test_spelling_variants_are_one(a, b):
    assert identity(a, b) is Identity.SAME


def test_alias_table_merges_and_near_spellings_are_candidates():
    aliases = {"mnli": "MultiNLI", "multinli": "MultiNLI"}
    assert identity("MNLI", "MultiNLI", aliases) is Identity.SAME
    assert identity("Contriever", "Contreiver") is Identity.CANDIDATE
    assert identity("Transformer", "Transformers") is Identity.SAME
