"""API fuzzing: schemathesis reads the live server's /openapi.json and sends every operation requests generated from
its schema, valid and, where the schema leaves room for them, invalid ones; each request once without a key and
once with an admin key (which passes every role check, so requests reach the handlers behind them). Every answer
is counted, never stopped at: 5xx answers, and answers off the operation's documented status codes, content
types or body schemas. The fuzz test (one operation per test) and `kg bench robustness` (all) both run it.
schemathesis is imported only here, in the functions: it is the `bench` extra's."""

from __future__ import annotations

from collections.abc import Iterable

MAX_FAILURES_LISTED = 50


def fuzz(url: str, admin_headers: dict[str, str], examples: int) -> dict:
    """Every operation of the live API at `url`: the counts of `fuzz_operation`, summed, with the failures."""
    import schemathesis

    schema = schemathesis.openapi.from_url(f"{url}/openapi.json")
    total = {"operations": 0, "examples_per_operation": examples, "cases": 0, "server_errors": 0,
             "schema_violations": 0, "failures": []}
    for result in schema.get_all_operations():
        found = fuzz_operation(result.ok(), url, admin_headers, examples)
        total["operations"] += 1
        for key in ("cases", "server_errors", "schema_violations"):
            total[key] += found[key]
        total["failures"] = (total["failures"] + found["failures"])[:MAX_FAILURES_LISTED]
    return total


def fuzz_operation(operation, url: str, admin_headers: dict[str, str], examples: int) -> dict:
    """`examples` generated requests (per generation mode) to one schemathesis operation, each sent without a key
    and with `admin_headers`; the cases sent, 5xx answers, answers off the schema, and the failures."""
    import schemathesis
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st
    from schemathesis import GenerationMode
    from schemathesis.core.failures import FailureGroup

    checks = [schemathesis.checks.status_code_conformance, schemathesis.checks.content_type_conformance,
              schemathesis.checks.response_schema_conformance]
    label = f"{operation.method.upper()} {operation.path}"
    found = {"cases": 0, "server_errors": 0, "schema_violations": 0, "failures": []}
    strategies = [operation.as_strategy(GenerationMode.POSITIVE)]
    if any(True for _ in operation.iter_parameters()) or operation.body:
        strategies.append(operation.as_strategy(GenerationMode.NEGATIVE))

    @given(case=st.one_of(strategies))
    @settings(max_examples=examples, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    def run(case) -> None:
        for key, headers in (("none", {}), ("admin", admin_headers)):
            response = case.call(base_url=url, headers=headers, timeout=120)
            found["cases"] += 1
            problems: Iterable[str] = ()
            if response.status_code >= 500:
                found["server_errors"] += 1
                problems = ["server error"]
            else:
                try:
                    case.validate_response(response, checks=checks)
                except (AssertionError, FailureGroup) as exc:  # one failed check, or several
                    found["schema_violations"] += 1
                    failed = exc.exceptions if isinstance(exc, FailureGroup) else [exc]
                    problems = [getattr(f, "title", None) or str(f)[:200] for f in failed]
            if problems and len(found["failures"]) < MAX_FAILURES_LISTED:
                found["failures"].append({"operation": label, "key": key, "status": response.status_code,
                                          "problem": "; ".join(problems), "request": _request(case)})

    run()
    return found


def _request(case) -> str:
    """What was sent, short: enough to send it again by hand."""
    from schemathesis.core import NOT_SET

    parts = [f"{case.method} {case.formatted_path}"]
    if case.query:
        parts.append(f"query={case.query}")
    if case.body is not NOT_SET and not isinstance(case.body, (bytes, bytearray)):
        parts.append(f"body={case.body!r}")
    return " ".join(parts)[:300]
