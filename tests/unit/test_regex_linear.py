"""The extractors' regexes run on text from untrusted PDFs and questions: each must take time linear in its
input. Every case feeds a long adversarial line (the repeating shape that made the old pattern backtrack) and
must finish well inside a generous bound; the old patterns took minutes on these inputs. Beside each, the
pattern still finds what it found before."""

from __future__ import annotations

import multiprocessing

import pytest

from extractors import floats

LONG = 200_000
BOUND = 5.0  # seconds: a linear pattern needs milliseconds here, a quadratic one minutes


def _run(fn, text: str) -> None:
    fn(text)


def finishes(fn, text: str) -> bool:
    """Whether fn(text) returns within BOUND; run in a forked process so that a runaway pattern is killed,
    not left holding the interpreter."""
    worker = multiprocessing.get_context("fork").Process(target=_run, args=(fn, text), daemon=True)
    worker.start()
    worker.join(BOUND)
    if worker.is_alive():
        worker.kill()
        worker.join()
        return False
    return worker.exitcode == 0


def repeat(unit: str, tail: str = "!") -> str:
    return unit * (LONG // len(unit)) + tail


ADVERSARIAL = {
    "leader: dots": (floats.LEADER_RE.search, repeat(".")),
    "leader: spaced dots": (floats.LEADER_RE.search, repeat(". ")),
    "leader: dots then spaces": (floats.LEADER_RE.search, "...." + repeat(" ", "x")),
}


@pytest.mark.parametrize("case", ADVERSARIAL, ids=str)
def test_pattern_is_linear_on_adversarial_input(case):
    fn, text = ADVERSARIAL[case]
    assert finishes(fn, text), f"{case}: over {BOUND} s on {len(text):,} characters"


@pytest.mark.parametrize("text, leader", [
    ("Architecture ....... 45", True), ("Results . . . . 12", True), ("Results . . . . .", True),
    ("Overview ....\n", True), ("Methods .... 3 ", True),
    ("Architecture ... 45", False), ("Results .... 12 more", False), ("Overview .... page", False),
    ("e.g. .... a. b. c. d", False), ("", False),
])
def test_leader_pattern_keeps_its_matches(text, leader):
    assert bool(floats.LEADER_RE.search(text)) is leader
