"""`codex exec` end to end: the real console script against the scripted model server."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from tests.support.model_server import ModelServer
from tests.support.sse import Wire, message, shell_call, turn, usage
from tests.support.steps import drop_after, garbage, http_error

pytestmark = pytest.mark.e2e


def provider_flags(server: ModelServer, wire_api: Wire, **extra: Any) -> list[str]:
    return server.cli_flags(wire_api, **extra)


def run_codex(
    codex_bin: Path, args: list[str], cwd: Path, stdin: str | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "OPENAI_API_KEY": "sk-test"}
    return subprocess.run(
        [str(codex_bin), *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        stdin=None if stdin is not None else subprocess.DEVNULL,
    )


def jsonl(stdout: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stdout.splitlines() if line.strip()]


@pytest.mark.parametrize("wire_api", ["responses", "chat"])
def test_codex_exec_json_runs_shell_call_then_answers(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path, wire_api: Wire
) -> None:
    model_server.add(
        turn(shell_call(["bash", "-lc", "echo hello > out.txt"], call_id="call_1")),
        turn(message("Created out.txt."), usage=usage(input=120, output=12)),
    )
    done = run_codex(
        codex_bin,
        [
            "exec",
            "--skip-git-repo-check",
            "--json",
            "-s",
            "danger-full-access",
            *provider_flags(model_server, wire_api),
            "create out.txt",
        ],
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "out.txt").read_text() == "hello\n"
    lines = jsonl(done.stdout)
    types = [line["type"] for line in lines]
    assert types[0] == "thread.started" and types[1] == "turn.started"
    assert types[-1] == "turn.completed"
    commands = [
        ln["item"]
        for ln in lines
        if ln["type"] == "item.completed" and ln["item"]["type"] == "command_execution"
    ]
    assert len(commands) == 1
    assert commands[0]["exit_code"] == 0 and commands[0]["status"] == "completed"
    messages = [
        ln["item"]["text"] for ln in lines if ln.get("item", {}).get("type") == "agent_message"
    ]
    assert messages == ["Created out.txt."]
    assert lines[-1]["usage"]["input_tokens"] == 120
    assert lines[-1]["usage"]["output_tokens"] == 12
    second = model_server.bodies[1]
    assert model_server.requests[1].header("authorization") == "Bearer sk-test"
    assert "call_1" in json.dumps(second)


def test_codex_exec_default_sandbox_runs_the_command(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    """The acceptance command line as written, with workspace-write allowing the write."""
    model_server.add(
        turn(shell_call(["bash", "-lc", "echo hello > out.txt"], call_id="call_1")),
        turn(message("done"), usage=usage(input=10, output=2)),
    )
    done = run_codex(
        codex_bin,
        [
            "exec",
            "--skip-git-repo-check",
            "--json",
            "--full-auto",
            *provider_flags(model_server, "responses"),
            "create out.txt",
        ],
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "out.txt").read_text() == "hello\n"


def test_codex_exec_survives_two_dropped_streams(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    answer = turn(message("still here"), usage=usage(input=5, output=2))
    model_server.add(drop_after(answer, 2), drop_after(answer, 2), answer)
    done = run_codex(
        codex_bin,
        [
            "exec",
            "--skip-git-repo-check",
            "--json",
            *provider_flags(model_server, "responses"),
            "hi",
        ],
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    lines = jsonl(done.stdout)
    assert [ln["message"] for ln in lines if ln["type"] == "error"] == [
        "Reconnecting… 1/5",
        "Reconnecting… 2/5",
    ]
    assert lines[-1]["type"] == "turn.completed"


def test_codex_exec_always_500_fails_after_retries(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    model_server.add(*[http_error(500, "upstream broke") for _ in range(3)])
    done = run_codex(
        codex_bin,
        [
            "exec",
            "--skip-git-repo-check",
            *provider_flags(model_server, "responses", request_max_retries=2),
            "hi",
        ],
        tmp_path,
    )
    assert done.returncode != 0
    assert len(model_server.requests) == 3
    last = done.stderr.strip().splitlines()[-1]
    assert "500" in last and "Traceback" not in done.stderr


def test_codex_exec_human_output_and_last_message_file(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    model_server.add(
        turn(shell_call(["bash", "-lc", "echo listing"], call_id="c1")),
        turn(message("All good."), usage=usage(input=50, output=5)),
    )
    out_file = tmp_path / "last.txt"
    done = run_codex(
        codex_bin,
        [
            "exec",
            "--skip-git-repo-check",
            "-o",
            str(out_file),
            *provider_flags(model_server, "chat"),
            "-",
        ],
        tmp_path,
        stdin="look around\n",
    )
    assert done.returncode == 0, done.stderr
    assert out_file.read_text() == "All good."
    err = done.stderr
    for expected in (
        f"workdir: {tmp_path}",
        "model:",
        "provider: mock",
        "approval: never",
        "sandbox: read-only",
        "look around",
        "echo listing",
        "succeeded",
        "All good.",
        "tokens used",
    ):
        assert expected in err
    assert done.stdout == "All good.\n"


def test_codex_exec_refuses_outside_git_repo(codex_bin: Path, tmp_path: Path) -> None:
    done = run_codex(codex_bin, ["exec", "hi"], tmp_path)
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "--skip-git-repo-check" in done.stderr


def test_codex_exec_bad_config_value_is_one_line(codex_bin: Path, tmp_path: Path) -> None:
    done = run_codex(
        codex_bin,
        ["exec", "--skip-git-repo-check", "-c", 'approval_policy="sometimes"', "hi"],
        tmp_path,
    )
    assert done.returncode != 0
    assert done.stderr.count("\n") == 1 and "approval_policy" in done.stderr


def test_codex_exec_malformed_config_toml_names_the_line(
    codex_bin: Path, tmp_path: Path, codex_home: Path
) -> None:
    (codex_home / "config.toml").write_text('model = "o3"\nthis is not toml\n')
    done = run_codex(codex_bin, ["exec", "--skip-git-repo-check", "hi"], tmp_path)
    assert done.returncode != 0
    assert done.stderr.count("\n") == 1 and "config.toml" in done.stderr and "2" in done.stderr


def test_codex_exec_bad_flag_is_one_line(codex_bin: Path, tmp_path: Path) -> None:
    done = run_codex(codex_bin, ["exec", "--no-such-flag", "hi"], tmp_path)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1


def test_codex_exec_missing_api_key_is_clear(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    env = {k: v for k, v in os.environ.items() if k != "OPENAI_API_KEY"}
    done = subprocess.run(
        [
            str(codex_bin),
            "exec",
            "--skip-git-repo-check",
            *provider_flags(model_server, "responses"),
            "hi",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 1
    assert "OPENAI_API_KEY" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_codex_version_prints_version(flag: str, codex_bin: Path, tmp_path: Path) -> None:
    done = run_codex(codex_bin, [flag], tmp_path)
    assert done.returncode == 0 and done.stdout.startswith("codex-cli ")


def test_codex_exec_sends_agents_md_and_environment_context(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "AGENTS.md").write_text("Always run the linter.")
    model_server.add(turn(message("ok"), usage=usage(input=1, output=1)))
    done = run_codex(
        codex_bin, ["exec", "--json", *provider_flags(model_server, "responses"), "hello"], tmp_path
    )
    assert done.returncode == 0, done.stderr
    body = model_server.bodies[0]
    texts = [
        p["text"] for item in body["input"] if item["type"] == "message" for p in item["content"]
    ]
    assert texts[0].startswith("<user_instructions>") and "Always run the linter." in texts[0]
    assert texts[1].startswith("<environment_context>") and f"<cwd>{tmp_path}</cwd>" in texts[1]
    assert texts[-1] == "hello"
    assert "apply_patch" in body["instructions"]
    # Unified exec replaces `shell` for Responses models, as in Codex 0.169; like 0.169,
    # no model is offered update_plan by default.
    assert {tool.get("name", tool["type"]) for tool in body["tools"]} == {
        "exec_command",
        "write_stdin",
        "apply_patch",
        "view_image",
        "web_search",
    }


def test_codex_exec_garbage_from_server_is_one_clear_line(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    model_server.add(garbage(b"<html><title>Bad gateway</title>oops</html>", "text/html"))
    done = run_codex(
        codex_bin,
        ["exec", "--skip-git-repo-check", *provider_flags(model_server, "responses"), "hi"],
        tmp_path,
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    errors = [line for line in done.stderr.splitlines() if line.startswith("ERROR:")]
    assert len(errors) == 1 and "Bad gateway" in errors[0]
    assert len(model_server.requests) == 1


def test_codex_exec_output_schema_is_sent_as_json_schema_format(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    schema = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}
    (tmp_path / "schema.json").write_text(json.dumps(schema))
    model_server.add(turn(message('{"ok": true}'), usage=usage(input=1, output=1)))
    done = run_codex(
        codex_bin,
        [
            "exec",
            "--skip-git-repo-check",
            "--output-schema",
            "schema.json",
            *provider_flags(model_server, "responses"),
            "check",
        ],
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    fmt = model_server.bodies[0]["text"]["format"]
    assert fmt["type"] == "json_schema" and fmt["schema"] == schema
    bad = run_codex(
        codex_bin, ["exec", "--skip-git-repo-check", "--output-schema", "nope.json", "x"], tmp_path
    )
    assert bad.returncode == 1 and bad.stderr.count("\n") == 1 and "nope.json" in bad.stderr


def test_codex_exec_ctrl_c_stops_the_command_and_exits_1_as_0169(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    marker = tmp_path / "pid.txt"
    model_server.add(
        turn(shell_call(["bash", "-lc", f"echo $$ > {marker}; sleep 30"], call_id="c1"))
    )
    env = {**os.environ, "OPENAI_API_KEY": "sk-test"}
    proc = subprocess.Popen(
        [
            str(codex_bin),
            "exec",
            "--skip-git-repo-check",
            "--json",
            "-s",
            "danger-full-access",
            *provider_flags(model_server, "responses"),
            "wait",
        ],
        cwd=tmp_path,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 20
    while not marker.exists() or not marker.read_text().strip():
        assert time.monotonic() < deadline, "the command never started"
        time.sleep(0.05)
    shell_pid = int(marker.read_text())
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=15)
    assert proc.returncode == 1
    assert "Traceback" not in err
    deadline = time.monotonic() + 5
    while Path(f"/proc/{shell_pid}").exists():
        assert time.monotonic() < deadline, "the command outlived codex exec"
        time.sleep(0.05)


@pytest.mark.parametrize("trusted", [True, False])
def test_codex_exec_acceptance_command_line_as_written(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path, codex_home: Path, trusted: bool
) -> None:
    """The issue's command line verbatim. Like the Codex CLI, the default sandbox is read-only
    unless the project is trusted (workspace-write), so the write lands only when trusted and
    otherwise goes back to the model as a sandbox failure."""
    if trusted:
        (codex_home / "config.toml").write_text(
            f'[projects."{tmp_path}"]\ntrust_level = "trusted"\n'
        )
    model_server.add(
        turn(shell_call(["bash", "-lc", "echo hello > out.txt"], call_id="call_1")),
        turn(message("done"), usage=usage(input=10, output=2)),
    )
    done = run_codex(
        codex_bin,
        [
            "exec",
            "--skip-git-repo-check",
            "--json",
            *provider_flags(model_server, "responses"),
            "create out.txt",
        ],
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "out.txt").exists() == trusted
    [command] = [
        ln["item"]
        for ln in jsonl(done.stdout)
        if ln["type"] == "item.completed" and ln["item"]["type"] == "command_execution"
    ]
    assert (command["exit_code"] == 0) == trusted
    assert jsonl(done.stdout)[-1]["type"] == "turn.completed"


def _start_exec(
    codex_bin: Path, server: ModelServer, cwd: Path, command: str
) -> subprocess.Popen[str]:
    """`codex exec --json` in the background, running one scripted shell call."""
    server.add(turn(shell_call(["bash", "-lc", command], call_id="c1")))
    return subprocess.Popen(
        [
            str(codex_bin),
            "exec",
            "--skip-git-repo-check",
            "--json",
            "-s",
            "danger-full-access",
            *provider_flags(server, "responses"),
            "wait",
        ],
        cwd=cwd,
        env={**os.environ, "OPENAI_API_KEY": "sk-test"},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _wait_for_marker(marker: Path, proc: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 30
    while not marker.exists() or not marker.read_text().strip():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the command never started"
        time.sleep(0.05)


def _resume_last_pairs_the_call(codex_bin: Path, server: ModelServer, cwd: Path) -> dict[str, Any]:
    """`codex exec resume --last` sends a request where call c1 has exactly one output."""
    server.add(turn(message("resumed"), usage=usage(input=3, output=1)))
    before = len(server.requests)
    resumed = run_codex(
        codex_bin,
        [
            "exec",
            "resume",
            "--last",
            "--skip-git-repo-check",
            "--json",
            *provider_flags(server, "responses"),
            "carry on",
        ],
        cwd,
    )
    assert resumed.returncode == 0, resumed.stderr
    assert len(server.requests) == before + 1
    server.check_pairing()
    body: dict[str, Any] = server.requests[-1].body
    outputs = [i for i in body["input"] if i.get("type") == "function_call_output"]
    assert [o["call_id"] for o in outputs] == ["c1"]
    return body


def test_codex_exec_sigint_completes_the_item_and_resume_pairs_the_call(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    marker = tmp_path / "pid.txt"
    proc = _start_exec(codex_bin, model_server, tmp_path, f"echo $$ > {marker}; sleep 30")
    _wait_for_marker(marker, proc)
    interrupted_at = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert time.monotonic() - interrupted_at < 5, "codex exec took too long to stop"
    assert proc.returncode == 1, err
    lines = jsonl(out)
    started = [ln for ln in lines if ln["type"] == "item.started"]
    completed = [ln for ln in lines if ln["type"] == "item.completed"]
    assert [ln["item"]["id"] for ln in started] == [ln["item"]["id"] for ln in completed]
    [command] = [ln["item"] for ln in completed if ln["item"]["type"] == "command_execution"]
    assert command["status"] == "failed" and command["exit_code"] == 130
    assert "aborted by user" in command["aggregated_output"]
    assert lines[-1]["type"] == "turn.failed"
    body = _resume_last_pairs_the_call(codex_bin, model_server, tmp_path)
    [output] = [i for i in body["input"] if i.get("type") == "function_call_output"]
    assert output["output"] == "aborted"


def test_codex_exec_kill_9_mid_turn_leaves_a_resumable_rollout(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path, codex_home: Path
) -> None:
    marker = tmp_path / "pid.txt"
    proc = _start_exec(codex_bin, model_server, tmp_path, f"echo $$ > {marker}; sleep 30")
    _wait_for_marker(marker, proc)
    proc.kill()
    proc.communicate(timeout=30)
    shell_pid = int(marker.read_text())
    os.kill(shell_pid, signal.SIGKILL)  # its own process group outlives a SIGKILLed parent
    [rollout] = list((codex_home / "sessions").rglob("rollout-*.jsonl"))
    records = [json.loads(line) for line in rollout.read_text("utf-8").splitlines()]
    items = [r["payload"] for r in records if r["type"] == "response_item"]
    assert items[-1]["type"] == "function_call", "the call was written, its output never was"
    _resume_last_pairs_the_call(codex_bin, model_server, tmp_path)
