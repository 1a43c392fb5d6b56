"""The graph gateway: the one object every reader and writer of kg takes to reach the graph.

A `Graph` is a driver and the name of the database on it. It is made once where a process starts (the CLI for a
command, the API at start-up, which hands it to every router as `api.deps.GraphDep`) and passed down, so that no
function has to carry a driver and a database name side by side and none can pair a driver with the wrong name.

Every statement says whether it reads or writes: `read()` and `read_session()` go to a reader of a cluster,
`write()` and `write_session()` to the leader. With a routing URI (`neo4j://`, `neo4j+s://`) the driver then sends
reads to the cluster's secondaries and followers and writes to the leader, so the same code serves a single server,
a cluster or Aura (docs/deployment.md); with `bolt://` every statement goes to the one server named. The Cypher
itself stays with the module that owns its concern; the gateway only runs it.

The ontology's `Schema` stays a parameter of its own: it is what a function reads the graph by, not a way to reach
it, a process has one (`get_schema()`) whatever database it talks to, and a process that only runs users' Cypher
under a memory limit (kg.read.cypher_workers) never reads the ontology.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from neo4j import READ_ACCESS, WRITE_ACCESS, Driver, Record, RoutingControl, Session


@dataclass(frozen=True)
class Graph:
    driver: Driver
    database: str | None = None  # None: the server's default database

    def read(self, cypher: str, /, **params: Any) -> list[Record]:
        """The records of one read-only statement, in a transaction of its own routed to a reader (retried on
        a transient failure, as the driver's execute_query does)."""
        return self.driver.execute_query(cypher, params, database_=self.database,
                                         routing_=RoutingControl.READ).records

    def write(self, cypher: str, /, **params: Any) -> list[Record]:
        """The records of one statement sent to the leader: a write, or a read whose answer decides a write
        (a reader may lag behind the leader)."""
        return self.driver.execute_query(cypher, params, database_=self.database,
                                         routing_=RoutingControl.WRITE).records

    def read_session(self, **options: Any) -> Session:
        """A session whose transactions read, routed to a reader of a cluster (for several statements, explicit
        transactions or streamed results)."""
        return self._session(READ_ACCESS, options)

    def write_session(self, **options: Any) -> Session:
        """A session whose transactions write, routed to the leader of the database."""
        return self._session(WRITE_ACCESS, options)

    def _session(self, mode: str, options: dict[str, Any]) -> Session:
        """Sessions share the bookmarks of the driver's execute_query calls, so that a read after a write of the
        same process sees that write even on a reader that lags behind the leader (causal consistency); on one
        server bookmarks cost nothing."""
        return self.driver.session(database=self.database, default_access_mode=mode,
                                   bookmark_manager=self.driver.execute_query_bookmark_manager, **options)
