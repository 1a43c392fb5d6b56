"""The one way the code opens a Neo4j driver, with failures turned into errors a user can act on. Statements and
sessions on the graph go through the gateway a driver is wrapped in (kg/db/graph.py: `Graph`), which says for each
whether it reads or writes."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from neo4j import Driver, GraphDatabase, NotificationDisabledClassification
from neo4j.exceptions import AuthError, ServiceUnavailable

from kg.db.graph import Graph
from kg.errors import ConfigurationError, DatabaseUnavailable, ServerError
from kg.settings import Settings

_COMPONENTS = "CALL dbms.components() YIELD name, versions, edition RETURN versions[0] AS version, edition"


@dataclass(frozen=True)
class ServerInfo:
    version: str
    edition: str


def connect(settings: Settings, *, verify: bool = True, **options) -> Driver:
    """`options` are extra driver settings (the API shortens max_transaction_retry_time to answer 503 quickly)."""
    if settings.neo4j_password is None:
        raise ConfigurationError(
            f"no Neo4j password is configured, and none is stored in {settings.neo4j_password_file}",
            hint="`kg db start` generates and stores one for the local server; for another server set "
            "PAPERKG_NEO4J_PASSWORD",
        )
    driver = GraphDatabase.driver(
        settings.uri,
        auth=(settings.neo4j_user, settings.neo4j_password.get_secret_value()),
        # "label/property does not exist" is normal on an empty or partial graph: not worth a warning per query.
        **{"connection_timeout": 10,
           "notifications_disabled_classifications": [NotificationDisabledClassification.UNRECOGNIZED], **options},
    )
    if verify:
        try:
            driver.verify_connectivity()
        except Exception as exc:
            driver.close()
            raise friendly_error(exc, settings) from exc
    return driver


@contextmanager
def open_graph(settings: Settings, **options) -> Iterator[Graph]:
    """The configured database's gateway for one command or run (connect's checks included), the driver closed
    when it ends: the one place a command pairs a driver with its database."""
    with connect(settings, **options) as driver:
        yield Graph(driver, settings.neo4j_database)


def connect_api(settings: Settings) -> Driver:
    """The driver of a server process (the API's, a question process's): reads retry for 2 s at most, so with
    Neo4j down a client gets 503 quickly instead of after 30 s; not verified, so the server starts without it."""
    return connect(settings, verify=False, max_transaction_retry_time=2.0)


def friendly_error(exc: Exception, settings: Settings) -> Exception:
    """The PaperKGError a user can act on for a driver failure, or the failure itself."""
    if isinstance(exc, AuthError):
        return ConfigurationError(
            f"Neo4j at {settings.uri} rejected the credentials of user {settings.neo4j_user!r}",
            hint="set PAPERKG_NEO4J_PASSWORD to the password this database was created with "
            "(for the local server: `kg db reset` starts over with the configured one)",
        )
    if isinstance(exc, (ServiceUnavailable, OSError)):
        return DatabaseUnavailable(
            f"cannot reach Neo4j at {settings.uri}",
            hint="start the local server with `kg db start`, or set PAPERKG_NEO4J_URI",
            details=str(exc),
        )
    return exc


def server_info(driver: Driver) -> ServerInfo:
    record = driver.execute_query(_COMPONENTS, database_="system", routing_="r").records[0]
    return ServerInfo(version=record["version"], edition=record["edition"])


# The writer names a relationship type per row (`CREATE (s)-[r:$(row.type)]->(t)`), which Cypher has from 5.26.
OLDEST_SUPPORTED = (5, 26)


def require_supported(version: str) -> None:
    """Refuse a server the writer's statements would fail on, before any paper is parsed (calendar versions such
    as 2025.01.0 are newer than 5.x)."""
    numbers = tuple(int(part) for part in version.split("-")[0].split(".")[:2] if part.isdigit())
    if numbers < OLDEST_SUPPORTED:
        raise ServerError(f"Neo4j {version} is older than 5.26, the oldest version paperkg writes to",
                          hint="use Neo4j 5.26 LTS or later: `kg db start` runs one, docker-compose.yml another")
