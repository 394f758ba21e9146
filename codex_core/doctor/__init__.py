"""`codex doctor`: health checks of the installation, config, auth, CODEX_HOME, sandbox, MCP
servers and the model provider, in Codex 0.169's report shape.

Each check is a `Check` under one of 0.169's ids (`config.load`, `auth.credentials`,
`network.provider_reachability`, ...) with a status `ok`, `warning` or `fail`, a summary,
details and a remediation. The report is `fail` when any check fails (the command then exits
1, as 0.169 does), `warning` when any warns, else `ok`. Details never hold a secret: keys are
reported present or missing, URLs lose credentials, queries and the route probed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import urlsplit, urlunsplit

Status = Literal["ok", "warning", "fail"]
DetailValue = str | list[str]

SCHEMA_VERSION = 1


@dataclass
class Check:
    """One diagnosis, as `codex doctor --json` lists it under `checks[id]`."""

    id: str
    category: str
    status: Status
    summary: str
    details: dict[str, DetailValue] = field(default_factory=dict)
    remediation: str | None = None
    duration_ms: int = 0

    def to_json(self) -> dict[str, Any]:
        """The check's JSON object (0.169's field names)."""
        return {
            "id": self.id,
            "category": self.category,
            "status": self.status,
            "summary": self.summary,
            "details": dict(sorted(self.details.items())),
            "remediation": self.remediation,
            "durationMs": self.duration_ms,
        }


@dataclass
class Report:
    """Every check that ran, in the order they ran."""

    version: str
    checks: list[Check]
    generated_at: float = field(default_factory=time.time)

    @property
    def overall(self) -> Status:
        """`fail` if any check failed, `warning` if any warned, else `ok`."""
        statuses = {check.status for check in self.checks}
        if "fail" in statuses:
            return "fail"
        return "warning" if "warning" in statuses else "ok"

    @property
    def exit_code(self) -> int:
        """1 when something failed (as 0.169), else 0."""
        return 1 if self.overall == "fail" else 0

    def to_json(self) -> dict[str, Any]:
        """`{schemaVersion, generatedAt, overallStatus, codexVersion, checks}`."""
        return {
            "schemaVersion": SCHEMA_VERSION,
            "generatedAt": f"{int(self.generated_at)}s since unix epoch",
            "overallStatus": self.overall,
            "codexVersion": self.version,
            "checks": {check.id: check.to_json() for check in sorted(self.checks, key=_id)},
        }


def _id(check: Check) -> str:
    return check.id


def timed(run: Callable[[], Check]) -> Check:
    """Run one check and record how long it took; a crash is a failed check, not a crash."""
    started = time.monotonic()
    try:
        check = run()
    except Exception as err:  # a check must never take the report down
        name = getattr(run, "__name__", "check")
        check = Check(
            id=name,
            category="internal",
            status="fail",
            summary=f"the check crashed: {err.__class__.__name__}: {err}",
        )
    check.duration_ms = int((time.monotonic() - started) * 1000)
    return check


def redact_url(url: str, *, route: bool = True) -> str:
    """`url` without user info or query; with `route`, its last path part as `<redacted>`."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "<redacted>"
    host = parts.hostname or ""
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    path = parts.path
    if route and path.strip("/"):
        head, _, _last = path.rstrip("/").rpartition("/")
        path = f"{head}/<redacted>"
    return urlunsplit((parts.scheme, host, path, "", ""))


__all__ = ["Check", "DetailValue", "Report", "Status", "redact_url", "timed"]
