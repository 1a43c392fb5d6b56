"""Do the torch-free static embeddings equal the torch-distilled ones? (bench/results/notes-2026-12.md, *Embeddings without torch*)

Distils the token table twice, once with the numpy encoder (extractors/encoder.py, what paperkg runs) and once with
torch through transformers (what paperkg ran before; needs the `contextual` extra), or reads the torch table
from --reference (a cache file from an install of that time), then embeds a random sample of the chunks of the
corpus's papers with both tables and prints the per-chunk cosine similarities.

    python scripts/embedding_equivalence.py --corpus ../shared/corpus [--sample 2000] [--reference FILE.npy]
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

import numpy as np

from extractors import encoder
from extractors.pipeline import parse_pdf
from kg import embeddings


def torch_table(model_path: Path) -> np.ndarray:
    """The recipe-2 table as torch computed it: mean-pooled [CLS] token [SEP] outputs, weighted, float16."""
    import torch
    from transformers import AutoModel, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(model_path))
    model = AutoModel.from_pretrained(str(model_path)).eval()
    torch.set_num_threads(1)
    ids = torch.arange(len(tokenizer.vocab))
    rows = []
    with torch.inference_mode():
        for start in range(0, len(ids), 1024):
            batch = ids[start:start + 1024]
            inputs = torch.stack([torch.full_like(batch, tokenizer.cls_token_id), batch,
                                  torch.full_like(batch, tokenizer.sep_token_id)], dim=1)
            rows.append(model(input_ids=inputs, attention_mask=torch.ones_like(inputs)).last_hidden_state.mean(dim=1))
    table = torch.cat(rows).numpy().astype(np.float64) * embeddings.token_weights(tokenizer.vocab)[:, None]
    return table.astype(np.float16)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--sample", type=int, default=2000)
    parser.add_argument("--reference", type=Path, help="a torch-distilled table (.npy) instead of distilling one")
    parser.add_argument("--seed", type=int, default=24)
    args = parser.parse_args()

    model_path = encoder.model_path()
    numpy_path = embeddings.load_embedder(384, kind="static")  # the cached numpy-distilled table
    reference = np.load(args.reference) if args.reference else torch_table(model_path)
    torch_path = embeddings.Embedder(numpy_path.tokenizer, reference.astype(np.float32), "torch")
    chunks = [c.text for pdf in sorted(args.corpus.glob("*.pdf")) for c in parse_pdf(str(pdf)).chunks]
    sample = random.Random(args.seed).sample(chunks, min(args.sample, len(chunks)))
    a, b = np.array(numpy_path.embed(sample)), np.array(torch_path.embed(sample))
    cosines = (a * b).sum(axis=1)
    table = (numpy_path.table * reference).sum(axis=1) / (
        np.linalg.norm(numpy_path.table, axis=1) * np.linalg.norm(reference.astype(np.float32), axis=1))
    print(json.dumps({"chunks_in_corpus": len(chunks), "sampled": len(sample), "cosine_min": float(cosines.min()),
                      "cosine_mean": float(cosines.mean()), "below_0.999": int((cosines < 0.999).sum()),
                      "table_rows_cosine_min": float(table.min()),
                      "table_entries_differing": float((numpy_path.table != reference.astype(np.float32)).mean())},
                     indent=1))


if __name__ == "__main__":
    main()
