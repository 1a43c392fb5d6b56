"""The pipeline's components (kg.ingest.components): order checked when built, optional ones failing alone,
required ones failing the paper, every one timed. Plain functions on a hand-made state: no PDF, no Neo4j."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from extractors.limits import ParseLimits
from kg.ingest.components import Component, PaperState, in_order, run_components
from kg.ingest.runs import Run
from ontology.records import NodeRecord


def _state() -> PaperState:
    run = Run(sha256="a" * 64, invocation="ingest_test", started_at=datetime(2026, 1, 1, tzinfo=timezone.utc),
              extractors=["x@1", "sem@2"], actor="tester")
    return PaperState("paper.pdf", ParseLimits(), run)


def _adds(name: str):
    def step(state: PaperState) -> None:
        state.nodes.append(NodeRecord("Concept", name, {}))
    return step


def _raises(state: PaperState) -> None:
    raise RuntimeError("broken")


def test_a_component_reading_what_nothing_before_it_adds_is_refused_when_the_pipeline_is_built():
    parse = Component("parse", "x@1", ("pdf",), ("document",), True, _adds("p"))
    validate = Component("validate", None, ("records",), ("validated records",), True, _adds("v"))
    with pytest.raises(ValueError, match="'validate' reads records"):
        in_order([parse, validate])
    mapping = Component("map", None, ("document",), ("records",), True, _adds("m"))
    assert in_order([parse, mapping, validate]) == [parse, mapping, validate]


def test_an_optional_component_fails_alone_and_the_rest_still_run():
    state = _state()
    done = run_components([Component("a", "x@1", (), (), True, _adds("a")),
                           Component("semantic", "sem@2", (), (), False, _raises),
                           Component("b", None, (), (), True, _adds("b"))], state)
    assert [n.id for n in state.nodes] == ["a", "b"]
    assert [str(f) for f in done.failures] == ["semantic: RuntimeError: broken"]
    assert set(done.seconds) == {"a", "semantic", "b"}
    run = state.run.without(done.failures)
    assert run.extractors == ["x@1"] and run.failed == ["semantic: RuntimeError: broken"]
    assert run.id == state.run.id  # the same run: its elements keep their run_id
    assert run.node("succeeded").props["failed_components"] == ["semantic: RuntimeError: broken"]
    assert state.run.without([]) is state.run


def test_a_required_component_fails_the_paper():
    with pytest.raises(RuntimeError, match="broken"):
        run_components([Component("parse", "x@1", (), (), True, _raises)], _state())
