"""API fuzzing: schemathesis reads the live server's /openapi.json and sends every operation requests generated from
its schema, valid and, where the schema leaves room for them, invalid ones; each request once without a key and
once with an admin key (which passes every role check, so requests reach the handlers behind them). Every answer
is counted, never stopped at: 5xx answers, and answers off the operation's documented status codes, content
types or body schemas."""

from __future__ import annotations

from collections import Counter

from bench.api_server import LiveAPI

_MAX_FAILURES_LISTED = 50


def fuzz(api: LiveAPI, examples: int) -> dict:
    """The report of the phase: `examples` generated requests per operation and generation mode."""
    import schemathesis  # the `bench` extra: only this phase needs it
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st
    from schemathesis import GenerationMode
    from schemathesis.core.failures import FailureGroup

    checks = [schemathesis.checks.status_code_conformance, schemathesis.checks.content_type_conformance,
              schemathesis.checks.response_schema_conformance]
    schema = schemathesis.openapi.from_url(f"{api.url}/openapi.json")
    operations = [result.ok() for result in schema.get_all_operations()]
    cases: Counter = Counter()
    failures: list[dict] = []
    server_errors = violations = 0

    for operation in operations:
        label = f"{operation.method.upper()} {operation.path}"
        strategies = [operation.as_strategy(GenerationMode.POSITIVE)]
        if any(True for _ in operation.iter_parameters()) or operation.body:
            strategies.append(operation.as_strategy(GenerationMode.NEGATIVE))

        @given(case=st.one_of(strategies))
        @settings(max_examples=examples, deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck))
        def run(case) -> None:
            nonlocal server_errors, violations
            for role in (None, "admin"):
                response = case.call(base_url=api.url, headers=api.headers(role), timeout=120)
                cases[label] += 1
                problem = None
                if response.status_code >= 500:
                    server_errors += 1
                    problem = "server error"
                else:
                    try:
                        case.validate_response(response, checks=checks)
                    except (AssertionError, FailureGroup) as exc:  # one failed check, or several
                        violations += 1
                        found = exc.exceptions if isinstance(exc, FailureGroup) else [exc]
                        problem = "; ".join(getattr(f, "title", None) or str(f)[:200] for f in found)
                if problem and len(failures) < _MAX_FAILURES_LISTED:
                    failures.append({"operation": label, "key": role or "none", "status": response.status_code,
                                     "problem": problem})

        run()
    return {"operations": len(operations), "examples_per_operation": examples, "cases": sum(cases.values()),
            "server_errors": server_errors, "schema_violations": violations, "failures": failures}
