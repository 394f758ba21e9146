"""Run one app-server scenario against ours and the Rust Codex CLI 0.169; print both sequences.

A dev tool, not a test: `.venv/bin/python -m tests.servers.rust_compare SCENARIO [--full]`.
Each scenario scripts the model server, drives the client and returns; the message
sequences (method + item type) are printed side by side with a unified diff.
The Rust CLI is `$CODEX_RUST` or `codex-rust`; its CODEX_HOME lives under $HOME (not /tmp).
Environment: COMPARE_MODEL (default gpt-5.5: 0.169 offers apply_patch to it, as a freeform
tool; it offers update_plan to none of its models), COMPARE_FLAGS (extra `key=value`
overrides), COMPARE_ONLY=ours|rust, SHOW_REQUESTS=1 (tools and input tail of each model
request), PATCH_AS_FUNCTION=1 (apply_patch as a function call, which 0.169 refuses).
"""

from __future__ import annotations

import argparse
import base64
import difflib
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.servers.rpc_client import CODEX, AppServerClient, Message, SchemaChecker
from tests.support.model_server import ModelServer
from tests.support.sse import (
    apply_patch_call,
    custom_tool_call,
    function_call,
    message,
    turn,
    update_plan_call,
    usage,
)

CONFORMANCE = Path(__file__).resolve().parents[3] / "shared" / "conformance" / "app_server"
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)
PATCH = "*** Begin Patch\n*** Add File: hello.txt\n+hello\n*** End Patch\n"
PATCH2 = "*** Begin Patch\n*** Update File: hello.txt\n@@\n-hello\n+hello again\n*** End Patch\n"

MODEL = os.environ.get("COMPARE_MODEL", "gpt-5.5")
"""A model the Rust CLI knows (with an unknown one it offers neither apply_patch nor update_plan)."""


class Client(AppServerClient):
    """The client, answering approval requests with `decision`."""

    decision = "accept"


Scenario = Callable[[Client, ModelServer, Path], None]


def label(msg: Message) -> str:
    """A message as `kind method [item type/status]`."""
    if "method" in msg:
        kind = "request" if "id" in msg else "notify"
        text = f"{kind} {msg['method']}"
        item = (msg.get("params") or {}).get("item")
        if isinstance(item, dict):
            text += f" {item.get('type')}"
            if "status" in item and msg["method"] == "item/completed":
                text += f"/{item['status']}"
        return text
    return "error" if "error" in msg else "response"


def start(client: Client, **params: Any) -> str:
    """Handshake and a thread; returns its id."""
    client.initialize()
    result = client.call("thread/start", params)["result"]
    return str(result["thread"]["id"])


def run_turn(client: Client, thread_id: str, *inputs: dict[str, Any], **extra: Any) -> None:
    """A turn; approvals are answered with `client.decision`."""
    client.request("turn/start", {"threadId": thread_id, "input": list(inputs), **extra})
    while True:
        msg = client.next(30)
        if msg.get("method", "").endswith("requestApproval") and "id" in msg:
            client.send({"id": msg["id"], "result": {"decision": client.decision}})
        if msg.get("method") == "turn/completed":
            client.quiet_for(0.3)
            return


def text(value: str) -> dict[str, Any]:
    """A text input."""
    return {"type": "text", "text": value}


def patch_scenario(decision: str) -> Scenario:
    def scenario(client: Client, server: ModelServer, ws: Path) -> None:
        call = (
            apply_patch_call(PATCH, call_id="p1")
            if os.environ.get("PATCH_AS_FUNCTION")
            else custom_tool_call("apply_patch", PATCH, call_id="p1")
        )
        server.add(turn(call))
        if decision == "acceptForSession":  # a second patch of the same file is not asked
            server.add(turn(custom_tool_call("apply_patch", PATCH2, call_id="p2")))
        server.add(turn(message("patched")))
        client.decision = decision
        tid = start(client, cwd=str(ws), approvalPolicy="untrusted", sandbox="workspace-write")
        run_turn(client, tid, text("patch it"))

    return scenario


def exec_scenario(decision: str) -> Scenario:
    def scenario(client: Client, server: ModelServer, ws: Path) -> None:
        server.add(turn(function_call("exec_command", {"cmd": "echo hi > hi.txt"}, "c1")))
        server.add(turn(message("ran")))
        client.decision = decision
        tid = start(client, cwd=str(ws), approvalPolicy="untrusted", sandbox="workspace-write")
        run_turn(client, tid, text("run it"))

    return scenario


def safe_untrusted(client: Client, server: ModelServer, ws: Path) -> None:
    server.add(turn(function_call("exec_command", {"cmd": "pwd"}, "s1")), turn(message("ok")))
    tid = start(client, cwd=str(ws), approvalPolicy="untrusted", sandbox="read-only")
    run_turn(client, tid, text("where"))


def missing_image(client: Client, server: ModelServer, ws: Path) -> None:
    server.add(turn(message("seen")))
    tid = start(client, cwd=str(ws))
    run_turn(client, tid, text("look"), {"type": "localImage", "path": str(ws / "none.png")})
    print("model requests", len(server.requests), server.requests[-1].body["input"][-1])


def plan(client: Client, server: ModelServer, ws: Path) -> None:
    server.add(
        turn(update_plan_call([("read", "completed"), ("write", "in_progress")], "u1", "why")),
        turn(message("planned"), usage=usage(input=20, output=4)),
    )
    tid = start(client, cwd=str(ws))
    run_turn(client, tid, text("plan it"))


def output(client: Client, server: ModelServer, ws: Path) -> None:
    server.add(
        turn(function_call("exec_command", {"cmd": "echo one; sleep 0.3; echo two"}, "s1")),
        turn(message("ran")),
    )
    tid = start(client, cwd=str(ws), approvalPolicy="never", sandbox="danger-full-access")
    run_turn(client, tid, text("run"))


def image(client: Client, server: ModelServer, ws: Path) -> None:
    (ws / "dot.png").write_bytes(PNG)
    server.add(turn(message("seen")))
    tid = start(client, cwd=str(ws))
    url = "data:image/png;base64," + base64.b64encode(PNG).decode()
    run_turn(
        client,
        tid,
        text("look"),
        {"type": "localImage", "path": str(ws / "dot.png")},
        {"type": "image", "url": url},
    )
    print(json.dumps(server.requests[-1].body["input"][-1], indent=1)[:1500])


def overrides(client: Client, server: ModelServer, ws: Path) -> None:
    sub = ws / "sub"
    sub.mkdir()
    server.add(turn(message("one")), turn(function_call("exec_command", {"cmd": "pwd"}, "s1")))
    server.add(turn(message("two")))
    tid = start(client, cwd=str(ws), approvalPolicy="never")
    run_turn(client, tid, text("first"))
    client.decision = "accept"
    run_turn(
        client,
        tid,
        text("second"),
        model="gpt-5.2",
        cwd=str(sub),
        approvalPolicy="untrusted",
        sandboxPolicy={"type": "readOnly"},
    )
    for request in server.requests:
        body = request.body
        print("model", body.get("model"), "| env", str(body["input"])[-300:])


def listing(client: Client, server: ModelServer, ws: Path) -> None:
    other = ws / "other"
    other.mkdir()
    server.add(*(turn(message(f"m{i}")) for i in range(3)))
    client.initialize()
    for i, cwd in enumerate([ws, ws, other]):
        tid = client.call("thread/start", {"cwd": str(cwd)})["result"]["thread"]["id"]
        run_turn(client, tid, text(f"t{i}"))
    page = client.call("thread/list", {"limit": 2})["result"]
    print("page1", [t["preview"] for t in page["data"]], page["nextCursor"])
    page2 = client.call("thread/list", {"limit": 2, "cursor": page["nextCursor"]})["result"]
    print("page2", [t["preview"] for t in page2["data"]], page2["nextCursor"])
    only = client.call("thread/list", {"cwd": str(other)})["result"]
    print("cwd", [t["preview"] for t in only["data"]])
    print(json.dumps(page["data"][0], indent=1)[:1500])


def review(client: Client, server: ModelServer, ws: Path) -> None:
    """`review/start` on the working tree (the reviewer answers with no findings)."""
    findings = {
        "findings": [],
        "overall_correctness": "patch is correct",
        "overall_explanation": "Nothing to fix.",
        "overall_confidence_score": 0.9,
    }
    server.add(turn(message(json.dumps(findings))))
    tid = start(client)
    target = json.loads(
        os.environ.get("REVIEW_TARGET", '{"type": "custom", "instructions": "look at the notes"}')
    )
    client.request("review/start", {"threadId": tid, "target": target})
    while client.next(60).get("method") != "turn/completed":
        pass
    client.quiet_for(0.5)


def mcp_status(client: Client, server: ModelServer, ws: Path) -> None:
    """`mcpServerStatus/list` with and without a thread (one stdio server configured)."""
    tid = start(client)
    client.quiet_for(2.0)
    for params in ({"threadId": tid}, {}):
        answer = client.call("mcpServerStatus/list", params)
        for entry in (answer.get("result") or {}).get("data") or []:
            entry["tools"] = dict(list(entry["tools"].items())[:1])  # one is enough to compare
        print(params, json.dumps(answer)[:2000])


SCENARIOS: dict[str, Scenario] = {
    "review": review,
    "mcp-status": mcp_status,
    "patch-accept": patch_scenario("accept"),
    "patch-session": patch_scenario("acceptForSession"),
    "patch-decline": patch_scenario("decline"),
    "patch-cancel": patch_scenario("cancel"),
    "exec-accept": exec_scenario("accept"),
    "exec-cancel": exec_scenario("cancel"),
    "exec-decline": exec_scenario("decline"),
    "safe-untrusted": safe_untrusted,
    "missing-image": missing_image,
    "plan": plan,
    "output": output,
    "image": image,
    "overrides": overrides,
    "list": listing,
}


def run(binary: str, name: str, home: Path, ws: Path) -> list[Message]:
    with ModelServer() as server:
        flags = [*server.cli_flags(), "-c", f'model="{MODEL}"']
        flags += [f for kv in os.environ.get("COMPARE_FLAGS", "").split() for f in ("-c", kv)]
        argv = [binary, *flags, "app-server", "--listen", "stdio://"]
        checker = SchemaChecker(CONFORMANCE)
        client = Client(home, ws, flags, checker, argv=argv)
        client.decision = "accept"
        try:
            SCENARIOS[name](client, server, ws)
            if os.environ.get("SHOW_REQUESTS"):
                for req in server.requests:
                    tools = [
                        f"{t.get('name') or ''}:{t.get('type')}" for t in req.body.get("tools", [])
                    ]
                    print("tools", tools)
                    print("input tail", json.dumps(req.body["input"][-2:])[:800])
        finally:
            client.close()
        return client.received


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("scenario", choices=sorted(SCENARIOS))
    parser.add_argument("--full", action="store_true", help="print every message as JSON")
    parser.add_argument(
        "--rust", default=os.environ.get("CODEX_RUST") or shutil.which("codex-rust")
    )
    args = parser.parse_args()
    sequences: dict[str, list[str]] = {}
    binaries = {"ours": str(CODEX), "rust": args.rust}
    for name, binary in binaries.items():
        if os.environ.get("COMPARE_ONLY", name) != name:
            sequences[name] = []
            continue
        base = Path(tempfile.mkdtemp(dir=Path.home(), prefix="cmp-"))
        (base / "home").mkdir()
        (base / "ws").mkdir()
        try:
            print(f"== {name}")
            received = run(binary, args.scenario, base / "home", base / "ws")
        finally:
            shutil.rmtree(base, ignore_errors=True)
        if args.full:
            for msg in received:
                print(json.dumps(msg)[:600])
        sequences[name] = [label(m) for m in received]
    diff = difflib.unified_diff(sequences["rust"], sequences["ours"], "rust", "ours", lineterm="")
    print("\n".join(diff) or "same sequence")
    return 0


if __name__ == "__main__":
    sys.exit(main())
