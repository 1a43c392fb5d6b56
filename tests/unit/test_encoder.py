"""The numpy BERT encoder and the torch-free distillation, on a tiny random BERT checked against a plain
per-position reference written from the BERT paper's equations; the contextual embedder where it is installed."""

from __future__ import annotations

import json
import math
import sys

import numpy as np
import pytest
from safetensors.numpy import save_file
from tokenizers import Tokenizer
from tokenizers.models import WordPiece

from kg import embeddings
from extractors.encoder import BertEncoder, erf

VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "a", "b", "graph", "neural", "the", "of", "##s", "network"]
HIDDEN, HEADS, LAYERS, INNER = 8, 2, 2, 16


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory):
    """A BERT with random weights, stored as the model package stores all-MiniLM-L6-v2."""
    path = tmp_path_factory.mktemp("tiny-bert")
    rng = np.random.default_rng(7)

    def rand(*shape):
        return rng.normal(0, 0.5, shape).astype(np.float32)

    w = {"embeddings.word_embeddings.weight": rand(len(VOCAB), HIDDEN),
         "embeddings.position_embeddings.weight": rand(8, HIDDEN),
         "embeddings.token_type_embeddings.weight": rand(2, HIDDEN),
         "embeddings.LayerNorm.weight": 1 + rand(HIDDEN), "embeddings.LayerNorm.bias": rand(HIDDEN)}
    for i in range(LAYERS):
        p = f"encoder.layer.{i}"
        for name, (rows, cols) in {"attention.self.query": (HIDDEN, HIDDEN), "attention.self.key": (HIDDEN, HIDDEN),
                                   "attention.self.value": (HIDDEN, HIDDEN), "attention.output.dense": (HIDDEN, HIDDEN),
                                   "intermediate.dense": (INNER, HIDDEN), "output.dense": (HIDDEN, INNER)}.items():
            w[f"{p}.{name}.weight"], w[f"{p}.{name}.bias"] = rand(rows, cols), rand(rows)
        for norm in ("attention.output.LayerNorm", "output.LayerNorm"):
            w[f"{p}.{norm}.weight"], w[f"{p}.{norm}.bias"] = 1 + rand(HIDDEN), rand(HIDDEN)
    save_file(w, str(path / "model.safetensors"))
    (path / "config.json").write_text(json.dumps({
        "model_type": "bert", "hidden_act": "gelu", "hidden_size": HIDDEN, "num_attention_heads": HEADS,
        "num_hidden_layers": LAYERS, "intermediate_size": INNER, "layer_norm_eps": 1e-12, "vocab_size": len(VOCAB)}))
    Tokenizer(WordPiece({t: i for i, t in enumerate(VOCAB)}, unk_token="[UNK]")).save(str(path / "tokenizer.json"))
    return path, {k: v.astype(np.float64) for k, v in w.items()}


def _reference(w: dict, ids: list[int]) -> np.ndarray:
    """One sequence through BERT, a position and a head at a time, with math.erf's GELU."""
    def norm(x, p):
        return (x - x.mean()) / math.sqrt(x.var() + 1e-12) * w[f"{p}.weight"] + w[f"{p}.bias"]

    def dense(x, p):
        return w[f"{p}.weight"] @ x + w[f"{p}.bias"]

    xs = [norm(w["embeddings.word_embeddings.weight"][t] + w["embeddings.position_embeddings.weight"][pos]
               + w["embeddings.token_type_embeddings.weight"][0], "embeddings.LayerNorm") for pos, t in enumerate(ids)]
    size = HIDDEN // HEADS
    for i in range(LAYERS):
        p = f"encoder.layer.{i}"
        q = [dense(x, f"{p}.attention.self.query") for x in xs]
        k = [dense(x, f"{p}.attention.self.key") for x in xs]
        v = [dense(x, f"{p}.attention.self.value") for x in xs]
        out = []
        for a in range(len(xs)):
            context = np.zeros(HIDDEN)
            for h in range(HEADS):
                part = slice(h * size, (h + 1) * size)
                scores = [math.exp(q[a][part] @ k[b][part] / math.sqrt(size)) for b in range(len(xs))]
                context[part] = sum(s * v[b][part] for b, s in enumerate(scores)) / sum(scores)
            x = norm(xs[a] + dense(context, f"{p}.attention.output.dense"), f"{p}.attention.output.LayerNorm")
            inner = np.array([u * 0.5 * (1 + math.erf(u / math.sqrt(2))) for u in dense(x, f"{p}.intermediate.dense")])
            out.append(norm(x + dense(inner, f"{p}.output.dense"), f"{p}.output.LayerNorm"))
        xs = out
    return np.array(xs)


def test_erf_matches_the_standard_library():
    x = np.linspace(-5, 5, 2001)
    assert np.abs(erf(x) - np.array([math.erf(v) for v in x])).max() < 2e-7


def test_the_encoder_computes_bert(tiny_model):
    path, weights = tiny_model
    ids = np.array([[2, 6, 3], [2, 11, 3], [2, 4, 5]])
    got = BertEncoder.load(path).last_hidden_state(ids)
    assert np.allclose(got, [_reference(weights, list(row)) for row in ids], atol=1e-5)


def test_padded_inputs_under_a_mask_give_each_sequence_its_own_states(tiny_model):
    """Sequences of different lengths share a batch (the mention tagger's windows): the padding changes nothing."""
    path, weights = tiny_model
    short, long = [2, 6, 3], [2, 7, 11, 8, 3]
    ids = np.array([short + [0, 0], long])
    mask = np.array([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]])
    states = BertEncoder.load(path).hidden_states(ids, mask)
    assert len(states) == LAYERS + 1
    assert np.allclose(states[-1][0, :3], _reference(weights, short), atol=1e-5)
    assert np.allclose(states[-1][1], _reference(weights, long), atol=1e-5)


def test_the_table_is_distilled_without_torch(tiny_model, monkeypatch):
    """Each row: the mean output for [CLS] token [SEP], weighted by the token's frequency rank."""
    path, weights = tiny_model
    monkeypatch.setitem(sys.modules, "torch", None)  # `import torch` fails, as in the default install
    table = embeddings.distil(path)
    weight = embeddings.token_weights({t: i for i, t in enumerate(VOCAB)})
    expected = [_reference(weights, [2, t, 3]).mean(axis=0) * weight[t] for t in range(len(VOCAB))]
    assert table.dtype == np.float16 and np.allclose(table, expected, rtol=2e-3, atol=2e-3)


def test_the_contextual_embedder_is_the_transformer_or_off_with_the_command_that_adds_it(tmp_path):
    if embeddings.installed_version("contextual") is None:
        assert embeddings.load_embedder(384, tmp_path, "contextual") is None
        assert "paperkg[contextual]" in embeddings.off_reason("contextual")
        return
    embedder = embeddings.load_embedder(384, tmp_path, "contextual")
    assert embedder.dim == 384 and "contextual" in embedder.version
    net, nets, soup = np.array(embedder.embed(["a graph neural network", "graph neural networks", "tomato soup"]))
    assert np.allclose([np.linalg.norm(net), np.linalg.norm(soup)], 1, atol=1e-5)
    assert net @ nets > 0.8 > net @ soup
