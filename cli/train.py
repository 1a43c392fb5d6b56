"""`kg train tagger`: rebuild the mention tagger from SciERC (`kg bench tagger` scores it, cli/bench_tagger.py).

Training reads SciERC train, picks the best checkpoint on SciERC dev and never sees SciERC test. The seed is fixed
in the committed config (extractors/data/tagger.cfg), so the same data and versions give the same model.
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
    """Train the mention tagger (tok2vec + NER, CPU, fixed seed) on SciERC train, best checkpoint by SciERC dev,
    and put it where semantic extraction loads it."""
    from spacy.cli.train import train

    from extractors.semantic import tagger
    from extractors.semantic.scierc import read_records, to_docbin

    target = out or tagger.MODEL_DIR
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for split in ("train", "dev"):
            to_docbin(read_records(scierc / f"{split}.json")).to_disk(work / f"{split}.spacy")
        start = time.perf_counter()
        train(config, work / "output", overrides={"paths.train": str(work / "train.spacy"),
                                                  "paths.dev": str(work / "dev.spacy")})
        seconds = time.perf_counter() - start
        if target.exists():
            shutil.rmtree(target)
        shutil.copytree(work / "output" / "model-best", target)
    console.print(f"trained in {seconds:.0f} s; the tagger is in {target}")
