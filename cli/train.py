"""`kg train tagger`: rebuild the mention tagger from SciERC (`kg bench tagger` scores it, cli/bench_tagger.py).

Training reads SciERC train, picks the best checkpoint and the score threshold on SciERC dev and never sees SciERC
test. The seed is fixed in the committed config (extractors/data/tagger.cfg), so the same data, versions and
machine give the same model; on another machine the BLAS under numpy may round the encoder's features differently
in their last bits, which can move a checkpoint's score slightly.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path

import typer

from cli.output import console

app = typer.Typer(help="Train the learned parts of the extractors.", no_args_is_help=True)

_SCIERC = Path(__file__).resolve().parents[2] / "shared" / "datasets" / "scierc"
_CONFIG = Path(__file__).resolve().parents[1] / "extractors" / "data" / "tagger.cfg"


def scierc_option() -> Path:
    return typer.Option(_SCIERC, "--scierc", exists=True, file_okay=False,
                        help="SciERC folder with train.json, dev.json, test.json (dygiepp JSON Lines)")


@app.command("tagger")
def train_tagger(
    scierc: Path = scierc_option(),
    out: Path | None = typer.Option(None, "--out", help="where the trained pipeline goes (default: the shipped one)"),
    config: Path = typer.Option(_CONFIG, "--config", exists=True, dir_okay=False, help="spaCy training config"),
) -> None:
    """Train the mention tagger (a span categorizer over frozen MiniLM features, CPU, fixed seed) on SciERC train,
    pick the best checkpoint and its score threshold on SciERC dev, and put it where semantic extraction loads
    it. About 15 minutes on two cores."""
    from spacy.cli.train import train
    from spacy.util import load_config

    from extractors.semantic import minilm_words, tagger  # minilm_words: registers the config's architecture
    from extractors.semantic.scierc import read_records, to_docbin
    from extractors.semantic.tagger_score import best_threshold

    minilm_words.encoder()
    target = out or tagger.MODEL_DIR
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for split in ("train", "dev"):
            to_docbin(read_records(scierc / f"{split}.json")).to_disk(work / f"{split}.spacy")
        start = time.perf_counter()
        train(config, work / "output", overrides={"paths.train": str(work / "train.spacy"),
                                                  "paths.dev": str(work / "dev.spacy")})
        seconds = time.perf_counter() - start
        nlp = tagger.load.__wrapped__(work / "output" / "model-best")
        threshold, f1 = best_threshold(list(read_records(scierc / "dev.json")), nlp)
        if target.exists():
            shutil.rmtree(target)
        nlp.to_disk(target)
        saved = load_config(target / "config.cfg")  # spaCy writes the config the pipeline was built with:
        saved["components"]["spancat"]["threshold"] = threshold  # say the threshold that applies,
        saved["paths"].update(train=None, dev=None)  # and no temporary folder of this run
        saved.to_disk(target / "config.cfg")
    console.print(f"trained in {seconds:.0f} s; score threshold {threshold} (SciERC dev F1 {f1:.3f}); "
                  f"the tagger is in {target}")


_SCIREX = Path(__file__).resolve().parents[2] / "shared" / "datasets" / "scirex_train_docs" / "docs"
_HEADS = Path(__file__).resolve().parents[1] / "extractors" / "data" / "lexicons" / "learned_heads.yaml"


@app.command("heads")
def train_heads(
    scierc: Path = scierc_option(),
    scirex: Path = typer.Option(_SCIREX, "--scirex", exists=True, file_okay=False,
                                help="directory of SciREX document JSON files (only the training split is read)"),
    out: Path = typer.Option(_HEADS, "--out", dir_okay=False, help="where the word list goes (default: the shipped one)"),
) -> None:
    """Learn the head nouns of metric names, and the method names that end in a task noun, from SciERC train and
    SciREX's training documents (never their held-out fifth, never the gold papers) into the lexicon the patterns
    read."""
    import yaml

    from extractors.semantic import lexicons
    from extractors.semantic.benchmark import SCIREX_TRAIN, load_scirex, scirex_split
    from extractors.semantic.learned_heads import (METHOD_PHRASE_DOCUMENTS, MIN_DOCUMENTS, SHARE, learn_heads,
                                                   learn_method_phrases, scierc_mentions, scirex_mentions)
    from extractors.semantic.scierc import read_records

    documents = [d for d in load_scirex(scirex) if scirex_split(d["doc_id"]) == SCIREX_TRAIN]
    mentions = [*scierc_mentions(read_records(scierc / "train.json")), *scirex_mentions(documents)]
    learned = {"metric_heads": learn_heads(mentions),
               "method_phrases": learn_method_phrases(mentions, lexicons.terms().task_heads)}
    header = (f"# Written by `kg train heads` from SciERC train and {len(documents)} SciREX training documents:\n"
              f"# metric_heads: lower-case words heading metric mentions in >= {MIN_DOCUMENTS} documents and in\n"
              f"# >= {SHARE:.0%} of the documents where they head any mention; method_phrases: phrases ending in a\n"
              f"# task noun (terms.yaml) typed Method in >= {METHOD_PHRASE_DOCUMENTS} documents and >= {SHARE:.0%} of those\n"
              "# mentioning them. Do not edit by hand; rerun the command.\n")
    out.write_text(header + yaml.safe_dump(learned, width=110))
    console.print(f"{len(learned['metric_heads'])} metric heads and {len(learned['method_phrases'])} method phrases "
                  f"written to {out}")


_SALIENCE = Path(__file__).resolve().parents[1] / "extractors" / "data" / "salience.json"


@app.command("salience")
def train_salience(
    scirex: Path = typer.Option(_SCIREX, "--scirex", exists=True, file_okay=False,
                                help="directory of SciREX document JSON files (only the training split is read)"),
    out: Path = typer.Option(_SALIENCE, "--out", dir_okay=False,
                             help="where the model goes (default: the shipped one, which ingest reads)"),
) -> None:
    """Learn which candidate entities a paper is about from SciREX's training documents (their salient entities
    against the other candidates the extractor finds), never their held-out fifth or the gold papers. Prints each
    type's cross-validated F1, chosen threshold and calibration error. Deterministic; about a minute."""
    from rich.progress import track

    from extractors.semantic.benchmark import SCIREX_TRAIN, load_scirex, scirex_gold, scirex_passages, scirex_split
    from extractors.semantic.entities import candidates
    from extractors.semantic.salience_training import TrainingDocument, train
    from ontology.errors import PaperKGError

    documents = []
    for d in track([d for d in load_scirex(scirex) if scirex_split(d["doc_id"]) == SCIREX_TRAIN],
                   description="finding candidates", console=console):
        passages = scirex_passages(d)
        found = candidates(passages)
        documents.append(TrainingDocument(found.ranked, passages, found.abbreviations, scirex_gold(d)))
    try:
        model = train(documents)
    except ValueError as exc:  # too few documents, or a type with no salient (or only salient) candidates
        raise PaperKGError(f"cannot train the salience model on {scirex}: {exc}",
                           hint="--scirex takes SciREX's document JSON files (scirex_train_docs/docs)") from exc
    out.write_text(model.to_json() + "\n")
    for label, row in model.meta["types"].items():
        f = row["out_of_fold"]
        console.print(f"{label}: {row['examples']} candidates ({row['positive']} salient), threshold "
                      f"{row['threshold']}, cross-validated F1 {f['f1']:.3f} (P {f['precision']:.3f}, R "
                      f"{f['recall']:.3f}), calibration error {row['calibration_error']:.3f}")
    console.print(f"written to {out}")
