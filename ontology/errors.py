"""Errors a user can act on: a message saying what went wrong and a hint saying what to do.

The base class lives in the lowest layer so that every layer's errors share it (extractors/errors.py,
kg/errors.py); the CLI and the API report any of them the same way."""

from __future__ import annotations


class PaperKGError(Exception):
    """Base for every error that the CLI and API report without a stack trace."""

    code = "PAPERKG_ERROR"

    def __init__(self, message: str, hint: str | None = None, details: str | None = None):
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.details = details


class OntologyError(PaperKGError):
    """ontology/paperkg.ttl or shapes.ttl is malformed or contradicts itself."""

    code = "ONTOLOGY"
