"""Errors a user can act on: a message saying what went wrong and a hint saying what to do."""

from __future__ import annotations


class PaperKGError(Exception):
    """Base for every error that the CLI and API report without a stack trace."""

    code = "PAPERKG_ERROR"

    def __init__(self, message: str, hint: str | None = None, details: str | None = None):
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.details = details


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
