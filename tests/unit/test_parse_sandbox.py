"""The parser's caps and sandbox: every malformed PDF gets its own clear error, and a parse over its time or
memory, or whose process dies, is an error of that file, not of the process that asked for it."""

from __future__ import annotations

import os
import signal
import time

import pytest
from typer.testing import CliRunner

from bench.malformed_pdfs import MALFORMED, write_corpus
from cli.main import app
from extractors.errors import ExtractionError, ParseLimitError
from extractors.pipeline import parse_pdf
from kg.errors import ParserCrashError
from kg.workers.sandbox import WORKER_DIED, Overrun, Sandbox, SandboxLimits, run_alone
from kg.settings import Settings

pytestmark = pytest.mark.unit


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    return write_corpus(tmp_path_factory.mktemp("malformed"))


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_each_malformed_pdf_gets_its_own_error(corpus, name):
    path = next(p for p in corpus if p.name == name)
    with pytest.raises(ExtractionError) as raised:
        parse_pdf(path, Settings().parse_limits)
    assert raised.value.code == MALFORMED[name][1], raised.value.message
    assert raised.value.message.startswith(name) and raised.value.hint


def test_caps_name_their_setting_and_refuse_only_above_it(corpus):
    path = next(p for p in corpus if p.name == "two-thousand-pages.pdf")
    with pytest.raises(ParseLimitError) as raised:
        parse_pdf(path, Settings(parse_max_pages=1999).parse_limits)
    assert "2,000 pages" in raised.value.message and "PAPERKG_PARSE_MAX_PAGES" in raised.value.hint
    assert parse_pdf(path, Settings(parse_max_pages=2000).parse_limits).page_count == 2000


def _allocate(megabytes: int) -> int:
    return len(bytearray(megabytes * 1024 * 1024))


def _sleep(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def _die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def test_a_parse_over_its_memory_is_refused_and_under_it_runs():
    limits = SandboxLimits(timeout_s=60, memory_mb=300)
    assert run_alone(limits, "small.pdf", _allocate, 100) == 100 * 1024 * 1024
    with pytest.raises(ParseLimitError) as raised:
        run_alone(limits, "big.pdf", _allocate, 2000)
    assert "300 MB" in raised.value.message and "PAPERKG_PARSE_MEMORY_MB" in raised.value.hint


def test_a_parse_over_its_time_is_stopped():
    began = time.monotonic()
    with pytest.raises(ParseLimitError) as raised:
        run_alone(SandboxLimits(timeout_s=1, memory_mb=300), "slow.pdf", _sleep, 600)
    assert time.monotonic() - began < 60  # generous: the worker was killed, not waited for
    assert "slow.pdf took longer than the 1 s" in raised.value.message


@pytest.mark.parametrize("over_s", [0.03, 0.06, 0.09])
def test_a_parse_that_ends_just_over_its_time_is_refused_too(over_s):
    """pebble looks at a task's clock every tenth of a second: a task ending between two looks must not pass."""
    with pytest.raises(ParseLimitError):
        run_alone(SandboxLimits(timeout_s=0.01, memory_mb=300), "quick.pdf", _sleep, over_s)
    assert run_alone(SandboxLimits(timeout_s=5, memory_mb=300), "quick.pdf", _sleep, over_s) == over_s


def test_a_parser_process_that_dies_is_an_error_of_its_file():
    with pytest.raises(ParserCrashError) as raised:
        run_alone(SandboxLimits(timeout_s=60, memory_mb=300), "crash.pdf", _die)
    assert raised.value.message == WORKER_DIED


def _niceness() -> int:
    return os.nice(0)


def test_a_parser_process_yields_the_cpu_to_its_parent():
    """Uploads and re-ingests are background work: by default their parser runs at a lower priority than the
    API or `kg ingest` that started it, by the niceness PAPERKG_PARSE_NICE adds."""
    parent = os.nice(0)
    assert parent < 19, "the test process already runs at the lowest priority"
    assert run_alone(SandboxLimits.of(Settings()), "any.pdf", _niceness) > parent
    assert run_alone(SandboxLimits.of(Settings(parse_nice=3)), "any.pdf", _niceness) == min(19, parent + 3)
    assert run_alone(SandboxLimits.of(Settings(parse_nice=0)), "any.pdf", _niceness) == parent


def test_kg_parse_reports_a_malformed_pdf_as_an_error_of_its_own(corpus):
    """(cli.main.main prints a PaperKGError as a message and a hint; CliRunner hands it over as raised.)"""
    path = next(p for p in corpus if p.name == "long-line.pdf")
    result = CliRunner().invoke(app, ["parse", str(path)])
    assert isinstance(result.exception, ParseLimitError) and "a line of 199,999 characters" in str(result.exception)


_RESERVED: list = []


def _reserve_address_space(megabytes: int) -> None:
    """What loading a library such as thinc's BLIS does: reserve address space it may never touch."""
    import mmap

    _RESERVED.append(mmap.mmap(-1, megabytes * 1024 * 1024, flags=mmap.MAP_PRIVATE, prot=mmap.PROT_READ))


def test_the_memory_limit_counts_from_the_loaded_worker_not_its_libraries():
    sandbox = Sandbox(1, SandboxLimits(timeout_s=60, memory_mb=300), _reserve_address_space, (2000,))
    try:
        assert sandbox.result(sandbox.submit(_allocate, 100), _allocate, (100,), "a.pdf") == 100 * 1024 * 1024
        with pytest.raises(ParseLimitError, match="300 MB"):
            sandbox.result(sandbox.submit(_allocate, 2000), _allocate, (2000,), "b.pdf")
    finally:
        sandbox.stop()


@pytest.mark.timeout(120)  # without the check the wait never ends
def test_a_task_left_pending_by_a_pool_that_broke_counts_as_a_worker_death():
    """When its workers die, pebble marks the pool broken, fails the tasks it holds and ends its threads; a task
    handed over in that same instant is held by nobody. Here the pool is put in that state by hand (its status,
    which is all pebble's threads look at) while a task runs: the wait must end as a death, not hang."""
    from pebble.pool.base_pool import PoolStatus

    sandbox = Sandbox(1, SandboxLimits(timeout_s=120, memory_mb=300))
    try:
        future = sandbox.submit(_sleep, 60)
        deadline = time.monotonic() + 60
        while not future.running():
            assert time.monotonic() < deadline, "the task never started"
            time.sleep(0.05)
        sandbox.pool._context.status = PoolStatus.ERROR
        started = time.monotonic()
        with pytest.raises(Overrun) as raised:
            sandbox.wait(future)
        assert raised.value.limit == "died" and time.monotonic() - started < 30
        assert sandbox.submit(_sleep, 0).result(timeout=60) == 0  # and the next task gets a pool that works
    finally:
        sandbox.stop()
