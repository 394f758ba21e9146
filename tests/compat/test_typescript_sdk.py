"""The official TypeScript SDK (`@openai/codex-sdk`) drives a two-turn thread through our exec.

The SDK runs `codex exec --experimental-json [--config k=v …] [--skip-git-repo-check]
[resume ID]` with the prompt on stdin and reads the JSONL events; `codexPathOverride` points
it at our console script. The package is installed with npm into a cache directory
(`$CODEX_SDK_CACHE`, default ~/.cache/codex-compat/sdk) on first use; the test skips, saying
why, only when node/npm are missing or the package cannot be installed.
"""

from __future__ import annotations

import json
import os
import pwd
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.compat.conftest import user_texts
from tests.support.model_server import ModelServer
from tests.support.sse import message, turn, usage

SCRIPT = """
const [sdk, codexPath, configJson, cwd] = process.argv.slice(2);
const { Codex } = await import(sdk);
const codex = new Codex({ codexPathOverride: codexPath, config: JSON.parse(configJson) });
const thread = codex.startThread({ workingDirectory: cwd, skipGitRepoCheck: true });
const first = await thread.run("first turn");
const second = await thread.run("second turn");
console.log(JSON.stringify({
  id: thread.id, first: first.finalResponse, second: second.finalResponse, usage: second.usage,
}));
"""


def _sdk_entry() -> Path:
    base = os.environ.get("CODEX_SDK_CACHE") or str(
        Path(pwd.getpwuid(os.getuid()).pw_dir) / ".cache" / "codex-compat" / "sdk"
    )
    folder = Path(base)
    entry = folder / "node_modules" / "@openai" / "codex-sdk" / "dist" / "index.js"
    if entry.is_file():
        return entry
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node and npm are needed to run @openai/codex-sdk; they are not installed")
    folder.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        ["npm", "install", "--no-audit", "--no-fund", "@openai/codex-sdk"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
    )
    if done.returncode != 0 or not entry.is_file():
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        pytest.skip(f"could not install @openai/codex-sdk with npm: {tail[0]}")
    return entry


def test_typescript_sdk_two_turn_thread(
    codex_bin: Path, codex_home: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    entry = _sdk_entry()
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    model_server.add(
        turn(message("first answer"), usage=usage(10, 2)),
        turn(message("second answer"), usage=usage(30, 3, cached=8)),
    )
    provider = {
        "name": "mock",
        "base_url": model_server.base_url,
        "env_key": "OPENAI_API_KEY",
        "wire_api": "responses",
    }
    config = {"model_providers": {"mock": provider}, "model_provider": "mock"}
    script = tmp_path / "thread.mjs"
    script.write_text(SCRIPT)
    done = subprocess.run(
        ["node", str(script), str(entry), str(codex_bin), json.dumps(config), str(tmp_path)],
        env={**os.environ, "CODEX_HOME": str(codex_home), "OPENAI_API_KEY": "sk-test"},
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert (result["first"], result["second"]) == ("first answer", "second answer")
    assert result["usage"] == {
        "input_tokens": 40,
        "cached_input_tokens": 8,
        "cache_write_input_tokens": 0,
        "output_tokens": 5,
        "reasoning_output_tokens": 0,
    }
    second = model_server.bodies[-1]
    assert user_texts(second)[-1] == "second turn" and "first turn" in user_texts(second)
    assert second["prompt_cache_key"] == result["id"], "the second turn resumed the thread"


SDK_OPTIONS_SCRIPT = """
const [sdk, codexPath, baseUrl, cwd] = process.argv.slice(2);
const { Codex } = await import(sdk);
const codex = new Codex({ codexPathOverride: codexPath, baseUrl, apiKey: "sk-sdk" });
const thread = codex.startThread({
  workingDirectory: cwd, skipGitRepoCheck: true, model: "zz-unknown-model",
  modelReasoningEffort: "max", threadSource: "sdk-test",
});
const result = await thread.run("hi", { cyberAccessProgram: "daybreak_blue" });
console.log(JSON.stringify({ id: thread.id, answer: result.finalResponse }));
"""


def test_typescript_sdk_base_url_thread_source_and_max_effort(
    codex_bin: Path, codex_home: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    """`baseUrl` (`-c openai_base_url=…`) sends the built-in provider there, `threadSource`
    is recorded, `cyberAccessProgram` is accepted, and an unknown model gets the effort the
    user set (`max` too), as Codex 0.169 does."""
    entry = _sdk_entry()
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    model_server.add(turn(message("sdk answer")))
    script = tmp_path / "options.mjs"
    script.write_text(SDK_OPTIONS_SCRIPT)
    environ = {
        k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY", "OPENAI_BASE_URL")
    }
    done = subprocess.run(
        ["node", str(script), str(entry), str(codex_bin), model_server.base_url, str(tmp_path)],
        env={**environ, "CODEX_HOME": str(codex_home)},
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["answer"] == "sdk answer"
    request = model_server.requests[0]
    assert request.path == "/v1/responses"
    assert request.header("authorization") == "Bearer sk-sdk"
    body = request.body
    assert (body["model"], body["reasoning"]) == (
        "zz-unknown-model",
        {"effort": "max", "summary": "auto"},
    )
    assert body["include"] == ["reasoning.encrypted_content"]
    (rollout,) = (codex_home / "sessions").rglob("rollout-*.jsonl")
    meta = json.loads(rollout.read_text().splitlines()[0])["payload"]
    assert (meta["id"], meta["thread_source"], meta["model_provider"]) == (
        result["id"],
        "sdk-test",
        "openai",
    )
