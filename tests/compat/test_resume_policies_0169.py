"""The policies a resumed session runs under, side by side with 0.169 (recorded in
tests/fixtures/resume_policies_0169.json): `exec resume` takes them from the command line and
config, the app-server's `thread/resume` and `thread/fork` from the rollout's last `turn_context` (a
workspace-write sandbox only in a trusted folder; network access as configured). Ours also
reads the `turn_context` we wrote before adopting 0.169's form (`sandbox_policy.mode`)."""

from __future__ import annotations

import json
import os
import pwd
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.compat.conftest import MODEL, Cli, rollout_of, rollout_records, thread_id
from tests.servers.rpc_client import AppServerClient
from tests.support.model_server import ModelServer
from tests.support.sse import message, turn

FIXTURE = Path(__file__).parent.parent / "fixtures" / "resume_policies_0169.json"
SEEN: dict[str, Any] = json.loads(FIXTURE.read_text("utf-8"))
CASES: dict[str, tuple[list[str], bool]] = {
    "danger-full-access": (["-s", "danger-full-access"], False),
    "workspace-write-untrusted": (["-s", "workspace-write", "--add-dir", "EXTRA"], False),
    "workspace-write-trusted": (
        [
            "-s",
            "workspace-write",
            "--add-dir",
            "EXTRA",
            "-c",
            "sandbox_workspace_write.network_access=true",
        ],
        True,
    ),
}
"""The first session's flags and whether the folder is trusted."""


@pytest.fixture
def base() -> Iterator[Path]:
    """A folder outside /tmp (0.169 refuses helper links there) for homes and projects."""
    root = Path(pwd.getpwuid(os.getuid()).pw_dir) / ".cache" / "codex-compat"
    root.mkdir(parents=True, exist_ok=True)
    made = Path(tempfile.mkdtemp(prefix="resume-", dir=root))
    yield made
    shutil.rmtree(made, ignore_errors=True)


def _setup(base: Path, binary: str, trusted: bool) -> tuple[Cli, Path, Path]:
    home, project, extra = base / f"home-{Path(binary).name}", base / "project", base / "extra"
    for folder in (home, project, extra):
        folder.mkdir(parents=True, exist_ok=True)
    if trusted:
        (home / "config.toml").write_text(f'[projects."{project}"]\ntrust_level = "trusted"\n')
    return Cli(binary, home), project, extra


def _first_session(
    cli: Cli, server: ModelServer, flags: list[str], project: Path, extra: Path
) -> str:
    server.add(turn(message("first")))
    argv = [str(extra) if f == "EXTRA" else f for f in flags]
    done = cli.exec(server, "--json", "--skip-git-repo-check", *argv, "hi", cwd=project)
    assert done.returncode == 0, done.stderr
    return thread_id(done.stdout)


def _sandboxes(cli: Cli, session: str, project: Path, extra: Path) -> list[Any]:
    text = json.dumps(
        [
            r["payload"]["sandbox_policy"]
            for r in rollout_records(rollout_of(cli.home, session))
            if r["type"] == "turn_context"
        ]
    )
    return list(json.loads(text.replace(str(extra), "EXTRA").replace(str(project), "CWD")))


def _resume_over_app_server(
    cli: Cli, server: ModelServer, session: str, project: Path
) -> dict[str, Any]:
    flags = [*server.cli_flags(), "-c", MODEL]
    argv = [cli.binary, *flags, "app-server", "--listen", "stdio://"]
    client = AppServerClient(cli.home, project, flags, None, argv=argv)
    try:
        client.call("initialize", {"clientInfo": {"name": "tests", "version": "1"}})
        client.send({"method": "initialized"})
        forked = client.call("thread/fork", {"threadId": session}, timeout=60)["result"]
        resumed = client.call("thread/resume", {"threadId": session}, timeout=60)["result"]
        server.add(turn(message("second")))
        go = {"threadId": session, "input": [{"type": "text", "text": "again"}]}
        client.call("turn/start", go, timeout=60)
        while client.next(timeout=60).get("method") != "turn/completed":
            pass
    finally:
        client.close()
    return {"resumed": _policies(resumed), "forked": _policies(forked)}


def _policies(result: dict[str, Any]) -> dict[str, Any]:
    sandbox = dict(result["sandbox"])
    sandbox["writableRoots"] = len(sandbox.get("writableRoots") or [])
    return {"approvalPolicy": result["approvalPolicy"], "sandbox": sandbox}


def _to_old_form(cli: Cli, session: str) -> None:
    """Rewrite the session's turn_context lines as we wrote them before 0.169's form."""
    path = rollout_of(cli.home, session)
    lines = []
    for record in rollout_records(path):
        if record["type"] == "turn_context":
            payload = record["payload"]
            sandbox = dict(payload["sandbox_policy"])
            sandbox = {"mode": sandbox.pop("type"), **sandbox}
            if sandbox["mode"] == "workspace-write":
                sandbox.setdefault("writable_roots", [])
            keep = ("turn_id", "cwd", "approval_policy", "model", "effort", "summary")
            record["payload"] = {k: payload[k] for k in keep if k in payload}
            record["payload"]["sandbox_policy"] = sandbox
        lines.append(json.dumps(record, separators=(",", ":")))
    path.write_text("\n".join(lines) + "\n", "utf-8")


def _observe(binary: str, case: str, base: Path, old_form: bool = False) -> dict[str, Any]:
    flags, trusted = CASES[case]
    cli, project, extra = _setup(base / case / ("old" if old_form else "new"), binary, trusted)
    with ModelServer() as server:
        session = _first_session(cli, server, flags, project, extra)
        if old_form:
            _to_old_form(cli, session)
        app = _resume_over_app_server(cli, server, session, project)
        server.add(turn(message("third")))
        done = cli.exec(
            server, "--json", "--skip-git-repo-check", "resume", session, "more", cwd=project
        )
        assert done.returncode == 0, done.stderr
    return {
        "thread/resume and fork": app,
        "turn_context.sandbox_policy": _sandboxes(cli, session, project, extra),
    }


@pytest.mark.parametrize("case", list(CASES))
def test_resumed_policies_as_0169(case: str, codex_bin: Path, base: Path) -> None:
    seen = _observe(str(codex_bin), case, base)
    expected = SEEN[case]
    assert seen["thread/resume and fork"] == expected["thread/resume and fork"]
    # The old form's turns aside, ours records each turn's sandbox as 0.169 does.
    assert seen["turn_context.sandbox_policy"] == expected["turn_context.sandbox_policy"]


@pytest.mark.parametrize("case", list(CASES))
def test_resumed_policies_from_our_older_rollouts(case: str, codex_bin: Path, base: Path) -> None:
    seen = _observe(str(codex_bin), case, base, old_form=True)
    expected = SEEN[case]
    assert seen["thread/resume and fork"] == expected["thread/resume and fork"]
    assert seen["turn_context.sandbox_policy"][1:] == expected["turn_context.sandbox_policy"][1:]


def test_resumed_policies_fixture_is_0169s(rust_bin: str, base: Path) -> None:
    for case in CASES:
        assert _observe(rust_bin, case, base) == SEEN[case], case


def record() -> None:  # pragma: no cover - by hand (python -m tests.compat.<this module>)
    root = Path(tempfile.mkdtemp(dir=Path.home() / ".cache"))
    FIXTURE.write_text(
        json.dumps({case: _observe("codex-rust", case, root) for case in CASES}, indent=1) + "\n"
    )
    shutil.rmtree(root)


if __name__ == "__main__":  # pragma: no cover
    record()
