"""What every benchmark result says about its run (when, on which machine, how busy it was, which commit) and how
it is written (JSON, under a dated name in bench/results/): one way for all of them, so that results of different
benchmarks read alike and a folder of them sorts by date."""

from __future__ import annotations

import json
import os
import platform
import subprocess
from datetime import datetime, timezone
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"


def header() -> dict[str, str]:
    """The date and machine of a result, taken as it is written: the load average then tells whether neighbours
    shared the machine during the run."""
    return {"date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "machine": f"{os.cpu_count()} cores, {platform.machine()}, "
                       f"load average {os.getloadavg()[0]:.1f} at the end"}


def dated(folder: Path, kind: str, when: datetime | None = None) -> Path:
    """`folder`/<kind>-<UTC time>.json, the time `when` (a run's start) or now."""
    return folder / f"{kind}-{(when or datetime.now(timezone.utc)).astimezone(timezone.utc):%Y%m%dT%H%M%SZ}.json"


def write_json(path: Path, result: dict) -> Path:
    """`result` as JSON at `path`, its folder made if needed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result, indent=2, default=str) + "\n")
    return path


def commit() -> str | None:
    """The checked-out commit of this code (with "-dirty" when it has local changes), if it is a git work tree."""
    root = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, timeout=10)
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root,
                               capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if head.returncode:
        return None
    return head.stdout.strip() + ("-dirty" if dirty.stdout.strip() else "")


def machine() -> dict:
    """The machine in detail, for the benchmarks whose figures are times measured from outside."""
    model = None
    try:
        model = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                      if line.startswith("model name")), None)
    except OSError:
        pass
    return {"cpu_model": model or platform.processor() or None, "cores": os.cpu_count(),
            "memory_gb": _memory_gb(), "python": platform.python_version(), "system": platform.platform(),
            "load_average_start": [round(x, 2) for x in os.getloadavg()]}


def _memory_gb() -> float | None:
    try:
        kb = next(int(line.split()[1]) for line in Path("/proc/meminfo").read_text().splitlines()
                  if line.startswith("MemTotal:"))
    except (OSError, StopIteration, ValueError):
        return None
    return round(kb / 1024 / 1024, 1)
