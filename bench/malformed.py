"""Malformed inputs through the live API: each generated malformed PDF uploaded with a curator key and followed
to its job's end, then the upload names that are no file name; after each, whether /health still answers; at
the end, what of them is left in the graph, the PDF store and the upload spool (nothing may be)."""

from __future__ import annotations

import time

import httpx

from bench.api_server import LiveAPI
from bench.malformed_pdfs import BAD_UPLOAD_NAMES, MALFORMED
from kg.settings import Settings


def malformed_inputs(api: LiveAPI, settings: Settings, kinds: list[str] | None = None,
                     job_timeout_s: float = 600) -> dict:
    """The report of the phase; `kinds` picks file names of bench.malformed_pdfs.MALFORMED (default all)."""
    names = kinds or list(MALFORMED)
    unknown = sorted(set(names) - set(MALFORMED))
    if unknown:
        raise ValueError(f"no malformed PDF kind {', '.join(unknown)} (known: {', '.join(MALFORMED)})")
    papers_before = _papers(api)
    files_before = _files(settings)
    headers = api.headers("curator")
    files = []
    with httpx.Client(base_url=api.url, timeout=job_timeout_s) as client:
        for name in names:
            build, expected = MALFORMED[name]
            data = build()
            start = time.perf_counter()
            response = client.post("/papers", files={"file": (name, data, "application/pdf")}, headers=headers)
            row = {"file": name, "bytes": len(data), "expected_code": expected, "http_status": response.status_code,
                   **_outcome(client, response, job_timeout_s)}
            row["seconds"] = round(time.perf_counter() - start, 2)
            row["health"] = api.health()
            files.append(row)
        bad_names = []
        for name in BAD_UPLOAD_NAMES:
            # written by hand: an HTTP library would percent-encode a NUL byte in the name; a script need not
            body = (b'--b0undary\r\nContent-Disposition: form-data; name="file"; filename="' + name.encode()
                    + b'"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\n%%EOF\r\n--b0undary--\r\n')
            response = client.post("/papers", content=body, headers={
                **headers, "Content-Type": "multipart/form-data; boundary=b0undary"})
            bad_names.append({"name": repr(name), "http_status": response.status_code,
                              "error_code": _code(response), "health": api.health()})
    papers_left = sorted(set(_papers(api)) - set(papers_before))
    files_left = sorted(str(p) for p in _files(settings) - files_before)
    spool_left = sorted(str(p) for p in api.spool.glob("paperkg-uploads-*/**/*") if p.is_file())
    return {"files": files, "bad_names": bad_names, "papers_left": papers_left, "stored_pdfs_left": files_left,
            "spool_files_left": spool_left,
            "server_errors": sum(1 for r in files + bad_names if r["http_status"] >= 500),
            "health_failures": sum(1 for r in files + bad_names if r["health"] != 200)}


def _outcome(client: httpx.Client, response: httpx.Response, timeout_s: float) -> dict:
    """A refusal's error code, or the upload job followed to its end."""
    if response.status_code != 202:
        return {"job_status": None, "error_code": _code(response), "error": _message(response)}
    job = response.json()
    deadline = time.monotonic() + timeout_s
    while job["status"] in ("queued", "running") and time.monotonic() < deadline:
        time.sleep(0.3)
        job = client.get(f"/jobs/{job['id']}").json()
    return {"job_status": job["status"], "error_code": job.get("error_code"), "error": (job.get("error") or "")[:300]}


def _code(response: httpx.Response) -> str | None:
    try:
        return response.json()["error"]["code"]
    except (ValueError, KeyError, TypeError):
        return None


def _message(response: httpx.Response) -> str:
    try:
        return response.json()["error"]["message"][:300]
    except (ValueError, KeyError, TypeError):
        return response.text[:300]


def _papers(api: LiveAPI) -> list[str]:
    """The ids of every paper in the graph, page by page."""
    ids, offset = [], 0
    while True:
        page = httpx.get(f"{api.url}/papers", params={"offset": offset, "limit": 100}, timeout=60).json()["items"]
        ids += [p["id"] for p in page]
        if len(page) < 100:
            return ids
        offset += 100


def _files(settings: Settings) -> set:
    root = settings.data_dir / "pdfs"
    return {p for p in root.rglob("*") if p.is_file()} if root.exists() else set()
