"""Benchmarks and the pieces they share with the tests (issue 25: benchmarks live outside the runtime packages),
reachable as `kg bench ...`."""
