"""Errors of the graph, its server, its queries and its users (the base class is ontology.errors.PaperKGError)."""

from __future__ import annotations

from dataclasses import dataclass

from extractors.errors import ExtractionError
from ontology.errors import PaperKGError

# The code of a failure no error class names (a bug, a library's exception): the API's 500 body and a failed
# upload job give it, so that one code means one thing wherever a client meets it.
UNEXPECTED = "INTERNAL"


@dataclass(frozen=True)
class Failure:
    """A failure as data, where an exception cannot go: out of a parser process, into an ingest report or a
    job. `code` is what programs branch on, the code an API error body gives the same failure; `reason` is for
    people."""

    code: str
    reason: str

    @classmethod
    def of(cls, exc: BaseException, prefix: str = "") -> Failure:
        """A PaperKGError keeps its code, message and hint; any other exception is UNEXPECTED, named by its type."""
        if isinstance(exc, PaperKGError):
            return cls(exc.code, prefix + exc.message + (f" ({exc.hint})" if exc.hint else ""))
        return cls(UNEXPECTED, f"{prefix}{type(exc).__name__}: {exc}")


class ConfigurationError(PaperKGError):
    code = "CONFIGURATION"


class JavaError(PaperKGError):
    code = "JAVA"


class ArtifactError(PaperKGError):
    code = "ARTIFACTS"


class ServerError(PaperKGError):
    code = "SERVER"


class DatabaseUnavailable(PaperKGError):
    code = "DATABASE_UNAVAILABLE"


class InvalidFileNameError(ExtractionError):
    """An upload whose file name is no plain file name (empty, '..', a path, control characters)."""

    code = "INVALID_FILE_NAME"


class ParserCrashError(ExtractionError):
    """The parser's worker process died on this PDF (a crash inside a native library, or killed)."""

    code = "PARSER_CRASHED"


class SchemaVersionError(PaperKGError):
    """The database was set up for an ontology version (or embedding size) this code cannot migrate to."""

    code = "SCHEMA_VERSION"


class NotFoundError(PaperKGError):
    """Something asked for by id (a paper, a node) is not in the graph."""

    code = "NOT_FOUND"


class AmbiguousPaperError(PaperKGError):
    """A paper name (title words, a short title, a DOI two files share) that fits several papers; the details
    list them, so the caller can name one by its id."""

    code = "AMBIGUOUS_PAPER"


class ExportError(PaperKGError):
    """The graph cannot be exported as asked (unknown format, undeclared property in the data)."""

    code = "EXPORT"


class QueryRefusedError(PaperKGError):
    """A query the read-only Cypher endpoint will not run: it writes, changes the schema or administers."""

    code = "QUERY_REFUSED"


class InvalidQueryError(PaperKGError):
    """A query or question that cannot be run as given (Cypher syntax error, bad parameter)."""

    code = "INVALID_QUERY"


class ResultTooLargeError(InvalidQueryError):
    """A read whose result cannot be sent within the response's bounds (bytes, nesting), however truncated."""

    code = "RESULT_TOO_LARGE"


class QueryTimeoutError(PaperKGError):
    """A read query that did not finish within its time budget."""

    code = "QUERY_TIMEOUT"


class ConflictError(PaperKGError):
    """A curation change against a stale version of an element, or one that no longer applies (already undone,
    edge already there); the details carry the element's current state."""

    code = "CONFLICT"


class InvalidEditError(PaperKGError):
    """A curation change the ontology refuses (unknown property, bad value, forbidden endpoints) or one that
    touches a structural provenance field; the details carry the ontology's reason."""

    code = "INVALID_EDIT"


class AuthenticationError(PaperKGError):
    """No API key, or one that matches no configured key."""

    code = "UNAUTHENTICATED"


class PermissionDeniedError(PaperKGError):
    """A valid API key whose role is not enough for the call (a reader curating, a curator deleting)."""

    code = "FORBIDDEN"


class GraphImportError(PaperKGError):
    """A graph file that `kg import` refuses: not a paperkg-graph file, or content the ontology forbids."""

    code = "IMPORT"


class LimitExceededError(PaperKGError):
    """A request beyond one of the server's bounds (an export too large or too slow, an oversized picture); the
    hint names the setting and the smaller request that works."""

    code = "LIMIT_EXCEEDED"


class QueryMemoryError(LimitExceededError):
    """A read query that Neo4j stopped for want of memory: at the limit of one transaction, of all transactions
    together, or of the server's whole heap. The query is the caller's to change, as with QueryTimeoutError."""

    code = "QUERY_MEMORY_LIMIT"


class PayloadTooLargeError(LimitExceededError):
    """A request body larger than the server accepts (an upload, a JSON body)."""

    code = "PAYLOAD_TOO_LARGE"


class BusyError(PaperKGError):
    """Work the server has no room for now (the ingestion queue or the question queue is full, or a question
    waited past its time); the client may retry later."""

    code = "BUSY"
    retry_after_s = 5


class PreconditionRequiredError(PaperKGError):
    """A curation change sent without If-Match: without the version the curator saw, a change made meanwhile by
    someone else would be overwritten unseen."""

    code = "PRECONDITION_REQUIRED"
