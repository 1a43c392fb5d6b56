"""`kg curate ...`: the curation operations of the REST API from the shell, for scripted bulk review.

Commands authenticate with an API key (--key or PAPERKG_API_KEY) that the API itself checks: the keys are the
server's configuration, which the user's shell need not hold. The key's name is the actor in the history. Output
is one JSON object per element, so scripts can read it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import typer

from kg.db import store
from kg.auth.apikeys import ROLES, Identity, configured_keys, entry, identify, new_key
from kg.curation import history
from kg.curation.duplicates import candidates, detect
from kg.curation.merge import merge as merge_nodes
from kg.curation.operations import STATUSES, Curation, EdgeRef, Outcome
from kg.curation.queue import review_queue
from kg.curation.relabel import relabel as relabel_node
from kg.curation.undo import split as split_merge, undo_change
from kg.errors import AuthenticationError, ConfigurationError, PermissionDeniedError
from kg.settings import Settings, get_settings
from ontology.errors import PaperKGError
from ontology.loader import get_schema

app = typer.Typer(help="Curate the graph: verify, edit, flag, reject, link, merge, undo (needs an API key).",
                  no_args_is_help=True)

KEY = typer.Option(..., "--key", envvar="PAPERKG_API_KEY", help="your API key (or set PAPERKG_API_KEY)",
                   show_default=False)
REASON = typer.Option(None, "--reason", "-r", help="why (recorded in the history)")


def _identity(settings: Settings, key: str) -> Identity:
    """Whose key this is, as the API answers `GET /curation/whoami`. Only where no API answers at all, the keys
    configured in this environment decide (scripted curation without a server); a key the API refuses is refused."""
    url = (settings.api_url or settings.api_served_url).rstrip("/")
    try:
        response = httpx.get(f"{url}/curation/whoami", headers={"X-API-Key": key}, timeout=10.0)
    except httpx.TransportError as exc:
        local = configured_keys(settings)
        if not local:
            raise ConfigurationError(f"no API answers at {url} to check the key ({exc})",
                                     hint="start it (`kg serve`) or name it in PAPERKG_API_URL") from exc
        identity = identify(local, key)
        if identity is None:
            raise AuthenticationError(f"the API key is not valid (no API at {url}; checked against "
                                      "PAPERKG_API_KEYS here)", hint="make one with `kg curate keygen`") from exc
        return identity
    if response.status_code == 401:
        raise AuthenticationError(f"the API at {url} does not accept this key", hint="ask an admin for a key "
                                  "(`kg curate keygen`) and to add its line to the server's PAPERKG_API_KEYS")
    try:
        answer = response.json()
        if response.status_code != 200:
            raise ConfigurationError(f"the API at {url} could not check the key: {answer['error']['message']}")
        if answer["role"] not in ROLES:
            raise ValueError(answer["role"])
        return Identity(str(answer["name"]), answer["role"])
    except (ValueError, KeyError, TypeError) as exc:
        raise ConfigurationError(f"{url} does not answer as the paperkg API (HTTP {response.status_code})",
                                 hint="name the API in PAPERKG_API_URL") from exc


@contextmanager
def _session(key: str, role: str = "curator") -> Iterator[Curation]:
    """A Curation acting as the key's owner on the configured graph, closed at the end; refuses a key without
    `role`."""
    settings = get_settings()
    identity = _identity(settings, key)
    if not identity.allows(role):
        raise PermissionDeniedError(f"{identity.name} has the {identity.role} role; this command needs {role}")
    with store.open_graph(settings) as graph:
        yield Curation(graph, get_schema(), identity.name)


def _print(item: str, outcome: Outcome | None = None, **extra) -> None:
    out = {"item": item, **extra}
    if outcome is not None:
        element = outcome.element or {}
        out.update(status=element.get("properties", {}).get("verification_status"), version=element.get("version"),
                   event=outcome.event.id if outcome.event else None)
    typer.echo(json.dumps(out, default=str))


def _ids(ids: list[str], file: Path | None) -> list[str]:
    """Ids from the arguments and from a file (one per line, '#' comments)."""
    found = list(ids)
    if file is not None:
        found += [line.strip() for line in file.read_text().splitlines() if line.strip() and not line.startswith("#")]
    if not found:
        raise typer.BadParameter("give ids as arguments or with --file")
    return found


def _bulk(action: str, ids: list[str], file: Path | None, key: str, reason: str | None,
          min_confidence: float | None = None) -> None:
    """Apply one status action to many elements; each is reported; exit 1 if any failed."""
    failed = 0
    with _session(key) as cur:
        for item in _ids(ids, file):
            try:
                ref = cur.ref(item)
                if min_confidence is not None:
                    confidence = cur.get(ref)["properties"].get("confidence")
                    if confidence is None or confidence < min_confidence:
                        _print(item, skipped=f"confidence {confidence} below {min_confidence}")
                        continue
                _print(item, getattr(cur, action)(ref, reason=reason))
            except PaperKGError as exc:
                failed += 1
                _print(item, error=exc.code, message=exc.message)
    if failed:
        raise typer.Exit(1)


@app.command()
def keygen(role: str = typer.Option(..., "--role", help=f"one of {', '.join(ROLES)}"),
           name: str = typer.Option(..., "--name", help="whose key: the actor recorded in the history")) -> None:
    """Make a new API key: prints the key (once; it is not stored) and the line for PAPERKG_API_KEYS(_FILE)."""
    if role not in ROLES:
        raise typer.BadParameter(f"role must be one of {', '.join(ROLES)}")
    key = new_key()
    line = entry(name, role, key)
    typer.echo(f"key (give it to {name}; it is shown only now): {key}")
    typer.echo(f"configuration line (PAPERKG_API_KEYS, or a line of PAPERKG_API_KEYS_FILE): {line}")


@app.command()
def verify(ids: list[str] = typer.Argument(None, help="node ids or edge keys source|TYPE|target"),
           file: Path | None = typer.Option(None, "--file", "-f", exists=True, help="more ids, one per line"),
           min_confidence: float | None = typer.Option(None, "--min-confidence",
                                                       help="only verify elements at least this confident"),
           reason: str | None = REASON, key: str = KEY) -> None:
    """Verify elements, e.g. every id in a file above a confidence."""
    _bulk("verify", ids or [], file, key, reason, min_confidence)


@app.command()
def reject(ids: list[str] = typer.Argument(None), file: Path | None = typer.Option(None, "--file", "-f", exists=True),
           reason: str | None = REASON, key: str = KEY) -> None:
    """Reject elements (soft delete: hidden from QA and exports, never re-created by re-ingestion)."""
    _bulk("reject", ids or [], file, key, reason)


@app.command()
def flag(ids: list[str] = typer.Argument(None), file: Path | None = typer.Option(None, "--file", "-f", exists=True),
         reason: str = typer.Option(..., "--reason", "-r", help="what is wrong"), key: str = KEY) -> None:
    """Flag elements for review, with a reason."""
    _bulk("flag", ids or [], file, key, reason)


@app.command()
def unflag(ids: list[str] = typer.Argument(None), file: Path | None = typer.Option(None, "--file", "-f", exists=True),
           reason: str | None = REASON, key: str = KEY) -> None:
    """Unflag elements: back to the status they had before the flag."""
    _bulk("unflag", ids or [], file, key, reason)


@app.command()
def edit(item: str = typer.Argument(..., help="node id or edge key"),
         values: list[str] = typer.Option(..., "--set", help='name=JSON value, e.g. --set \'aliases=["SRT"]\''),
         if_match: str | None = typer.Option(None, "--if-match", help="the version you read"),
         reason: str | None = REASON, key: str = KEY) -> None:
    """Set content properties (checked by the ontology)."""
    changes = {}
    for value in values:
        name, _, text = value.partition("=")
        try:
            changes[name] = json.loads(text)
        except json.JSONDecodeError:
            changes[name] = text  # a bare word is a string
    with _session(key) as cur:
        _print(item, cur.edit(cur.ref(item), changes, reason=reason, if_match=if_match))


@app.command()
def relabel(node: str = typer.Argument(..., help="the entity's node id, e.g. method_bleu"),
            label: str = typer.Argument(..., help="the entity label it should have, e.g. Metric"),
            if_match: str | None = typer.Option(None, "--if-match", help="the version you read (refused if it "
                                                                         "changed since)"),
            reason: str | None = REASON, key: str = KEY) -> None:
    """Give an entity another entity label (a Method that is really a Metric). The node is created under the
    new label (or merged into the node of that label and name), its edges move to it, and the old node stays
    rejected, so a re-ingest does not bring it back. Refused, naming them, when the ontology does not allow some
    of its edges at the new label. `kg curate undo EVENT` restores the graph.

    Example: kg curate relabel method_bleu Metric -r "BLEU is a metric"
    """
    with _session(key) as cur:
        _print(node, relabel_node(cur, node, label, reason=reason, if_match=if_match))


@app.command()
def retype(edge: str = typer.Argument(..., help="edge key source|TYPE|target"),
           rel_type: str = typer.Argument(..., metavar="TYPE", help="the relationship type it should have"),
           if_match: str | None = typer.Option(None, "--if-match", help="the version you read (refused if it "
                                                                        "changed since)"),
           reason: str | None = REASON, key: str = KEY) -> None:
    """Give an edge another relationship type that the ontology allows between its ends (a USES that is an
    EVALUATES_ON). A new edge of that type takes the old one's properties (edited); the old edge stays rejected,
    so a re-ingest does not propose it again. `kg curate undo EVENT` reverses it.

    Example: kg curate retype "exp_1|USES|dataset_squad" EVALUATES_ON -r "evaluated on, not used"
    """
    with _session(key) as cur:
        ref = cur.ref(edge)
        if not isinstance(ref, EdgeRef):
            raise typer.BadParameter(f"{edge!r} is a node; give an edge key source|TYPE|target", param_hint="EDGE")
        _print(f"{ref.source}|{rel_type}|{ref.target}", cur.retype_edge(ref, rel_type, reason=reason,
                                                                        if_match=if_match), was=edge)


@app.command("add-edge")
def add_edge(source: str, rel_type: str = typer.Argument(..., metavar="TYPE"), target: str = typer.Argument(...),
             reason: str | None = REASON, key: str = KEY) -> None:
    """Add an edge of the ontology between two nodes; you are its provenance."""
    with _session(key) as cur:
        _print(f"{source}|{rel_type}|{target}", cur.add_edge(source, rel_type, target, reason=reason))


@app.command("remove-edge")
def remove_edge(item: str = typer.Argument(..., help="edge key source|TYPE|target"), reason: str | None = REASON,
                key: str = KEY) -> None:
    """Delete an edge (admin key); undo brings it back."""
    with _session(key, "admin") as cur:
        ref = cur.ref(item)
        if not isinstance(ref, EdgeRef):
            raise typer.BadParameter("give an edge key source|TYPE|target")
        _print(item, cur.remove_edge(ref, reason=reason))


@app.command()
def merge(survivor: str, duplicate: str, reason: str | None = REASON, key: str = KEY) -> None:
    """Merge DUPLICATE into SURVIVOR (two entities of one label)."""
    with _session(key) as cur:
        _print(survivor, merge_nodes(cur, survivor, duplicate, reason=reason))


@app.command()
def split(event: str, reason: str | None = REASON, key: str = KEY) -> None:
    """Split a merge back (the merge's event id)."""
    with _session(key) as cur:
        _print(event, split_merge(cur, event, reason=reason))


@app.command()
def undo(event: str, reason: str | None = REASON, key: str = KEY) -> None:
    """Undo a recorded change (its event id)."""
    with _session(key) as cur:
        _print(event, undo_change(cur, event, reason=reason))


@app.command("history")
def show_history(item: str | None = typer.Argument(None, help="node id or edge key; all changes without"),
                 limit: int = typer.Option(50, "--limit", "-n"), key: str = KEY) -> None:
    """Recorded changes, newest first, one JSON object per line."""
    with _session(key) as cur:
        for event in history.read(cur.graph, element=item, limit=limit):
            typer.echo(json.dumps(event.as_json(), default=str))


@app.command()
def queue(limit: int = typer.Option(50, "--limit", "-n"), key: str = KEY) -> None:
    """What needs review, most urgent first, one JSON object per line."""
    with _session(key) as cur:
        for item in review_queue(cur.graph, cur.schema, threshold=get_settings().curation_low_confidence, limit=limit):
            typer.echo(json.dumps(item))


@app.command("find-duplicates")
def find_duplicates(key: str = KEY) -> None:
    """Propose SAME_AS candidates over the whole graph (abbreviations, spellings, name embeddings), replacing the
    earlier automatic ones; curated and rejected candidates stay as they are. Prints what it did as JSON."""
    from kg.embeddings import load_embedder

    settings = get_settings()
    with _session(key) as cur:
        embedder = load_embedder(settings.embedding_dim, settings.cache_dir, settings.embedder)
        report, _ = detect(cur.graph, cur.schema, embed=embedder.embed if embedder else None)
    typer.echo(json.dumps(report.as_json()))


@app.command()
def duplicates(limit: int = typer.Option(50, "--limit", "-n", min=1, max=500),
               offset: int = typer.Option(0, "--offset", min=0),
               status: list[str] = typer.Option(["auto"], "--status", help="auto (pending), verified, rejected, ..."),
               key: str = KEY) -> None:
    """SAME_AS candidates, best first, one JSON object per line: score, reasons and both entities with their
    papers and evidence counts. Merge one with `kg curate merge SURVIVOR DUPLICATE`, reject it with
    `kg curate reject KEY`."""
    unknown = set(status) - set(STATUSES)
    if unknown:
        raise typer.BadParameter(f"statuses are {', '.join(STATUSES)}; not {', '.join(sorted(unknown))}")
    with _session(key) as cur:
        page = candidates(cur.graph, cur.schema, statuses=status, offset=offset, limit=limit)
    for item in page["items"]:
        typer.echo(json.dumps(item, default=str))
