"""The Linux sandbox end to end through the real console script (`codex sandbox`)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from codex_core.exec.sandbox import linux_sandbox_problem

pytestmark = [
    pytest.mark.linux_sandbox,
    pytest.mark.skipif(
        not sys.platform.startswith("linux"), reason="Landlock/seccomp are Linux-only"
    ),
    pytest.mark.skipif(
        sys.platform.startswith("linux") and linux_sandbox_problem() is not None,
        reason="this kernel lacks Landlock or seccomp filters",
    ),
]

CODEX = Path(sys.executable).parent / "codex"
WORKSPACE = {"mode": "workspace-write", "exclude_tmpdir_env_var": True}
FORBIDDEN = ("textual", "rich", "httpx", "pydantic", "codex_core")


def run_helper(
    codex_home: Path, cwd: Path, policy: dict[str, object], script: str
) -> subprocess.CompletedProcess[str]:
    """Run `bash -c script` via `codex sandbox -c sandbox_mode=... -- ...` under `policy`."""
    del codex_home
    argv = [str(CODEX), "sandbox", "-c", f"sandbox_mode={policy['mode']}"]
    for key, value in policy.items():
        if key != "mode":
            argv += ["-c", f"sandbox_workspace_write.{key}={json.dumps(value)}"]
    return subprocess.run(
        [*argv, "--", "bash", "-c", script], cwd=cwd, capture_output=True, text=True, timeout=30
    )


def run_cli(
    cwd: Path, args: list[str], script: str, codex_bin: Path
) -> subprocess.CompletedProcess[str]:
    """Run `codex sandbox linux ARGS -- bash -c script` through the real console script."""
    argv = [str(codex_bin), "sandbox", "linux", *args, "--", "bash", "-c", script]
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=30)


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    (ws / ".git" / "hooks").mkdir(parents=True)
    (ws / ".git" / "config").write_text("[core]\n")
    (ws / "src").mkdir()
    (ws / "README").write_text("hi\n")
    return ws


@pytest.fixture
def listener() -> Iterator[int]:
    with socket.create_server(("127.0.0.1", 0)) as server:
        yield server.getsockname()[1]


def test_sandbox_read_only_reads_but_never_writes(codex_home: Path, workspace: Path) -> None:
    script = (
        "ls /bin >/dev/null && echo ls-ok; echo x > /dev/null && echo null-ok; "
        "grep NoNewPrivs /proc/self/status; echo x > new.txt || echo cwd-denied; "
        f"echo x > {workspace.parent}/tmp-file || echo tmp-denied"
    )
    proc = run_helper(codex_home, workspace, {"mode": "read-only"}, script)
    assert proc.stdout.split("\n")[:5] == [
        "ls-ok",
        "null-ok",
        "NoNewPrivs:\t1",
        "cwd-denied",
        "tmp-denied",
    ]
    assert "Read-only file system" in proc.stderr
    assert not (workspace / "new.txt").exists() and not (workspace.parent / "tmp-file").exists()


def test_sandbox_cli_read_only_matches_helper(workspace: Path, codex_bin: Path) -> None:
    proc = run_cli(
        workspace,
        [],
        "cat README; echo x > new.txt; echo $CODEX_SANDBOX_NETWORK_DISABLED",
        codex_bin,
    )
    assert proc.stdout == "hi\n1\n"
    assert "new.txt: Read-only file system" in proc.stderr
    assert proc.returncode == 0  # the status of the last command, passed through


def test_sandbox_cli_exits_with_the_commands_status(workspace: Path, codex_bin: Path) -> None:
    assert run_cli(workspace, [], "exit 7", codex_bin).returncode == 7


def test_sandbox_workspace_write_allows_roots_and_fences_git(
    codex_home: Path, workspace: Path
) -> None:
    extra = workspace.parent / "extra"
    outside = workspace.parent / "outside"
    extra.mkdir()
    outside.mkdir()
    policy = {**WORKSPACE, "writable_roots": [str(extra)], "exclude_slash_tmp": True}
    script = (
        "echo a > new.txt && echo a >> README && echo a > src/f && echo cwd-ok; "
        f"echo b > {extra}/f && echo extra-ok; "
        f"echo c > {outside}/f || echo outside-denied; "
        "echo d >> .git/config || echo git-config-denied; "
        "touch .git/hooks/pre-commit || echo hook-denied; "
        "rm -rf .git 2>/dev/null; test -f .git/config && echo git-intact; "
        'python3 -c \'import ctypes; print("umount", ctypes.CDLL(None).umount2(b".git", 2))\'; '
        "echo e >> .git/config || echo still-denied"
    )
    proc = run_helper(codex_home, workspace, policy, script)
    assert proc.stdout.splitlines() == [
        "cwd-ok",
        "extra-ok",
        "outside-denied",
        "git-config-denied",
        "hook-denied",
        "git-intact",
        "umount -1",
        "still-denied",
    ]
    assert (workspace / "new.txt").read_text() == "a\n"
    assert (extra / "f").read_text() == "b\n"
    assert not (outside / "f").exists()
    assert (workspace / ".git" / "config").read_text() == "[core]\n"
    assert not (workspace / ".git" / "hooks" / "pre-commit").exists()


@pytest.mark.parametrize("exclude_slash_tmp", [False, True])
def test_sandbox_slash_tmp_follows_exclusion(
    codex_home: Path, workspace: Path, exclude_slash_tmp: bool
) -> None:
    target = Path("/tmp") / f"codex-sandbox-test-{workspace.parent.name}"
    policy = {**WORKSPACE, "exclude_slash_tmp": exclude_slash_tmp}
    try:
        proc = run_helper(codex_home, workspace, policy, f"echo x > {target} && echo wrote")
        assert (proc.stdout == "wrote\n") is (not exclude_slash_tmp)
        assert target.exists() is (not exclude_slash_tmp)
    finally:
        target.unlink(missing_ok=True)


def test_sandbox_cli_full_auto_takes_config_overrides(workspace: Path, codex_bin: Path) -> None:
    extra = workspace.parent / "extra"
    extra.mkdir()
    args = ["--full-auto", "-c", f'sandbox_workspace_write.writable_roots=["{extra}"]']
    proc = run_cli(
        workspace, args, f"echo x > {extra}/f && echo x > new && echo x >> .git/config", codex_bin
    )
    assert (extra / "f").exists() and (workspace / "new").exists()
    assert proc.returncode == 1 and "Read-only file system" in proc.stderr


NET_PROBE = """
import socket, sys
family, host, port = sys.argv[1:4]
fam = socket.AF_INET6 if family == "6" else socket.AF_INET
try:
    socket.create_connection((host, int(port)), timeout=2).close()
    print("connected")
except OSError as err:
    print("blocked", err.errno)
a, b = socket.socketpair()
a.sendall(b"ok")
print("socketpair", b.recv(2).decode())
"""


def test_sandbox_network_disabled_blocks_tcp_but_not_unix(
    codex_home: Path, workspace: Path, listener: int
) -> None:
    script = (
        f"python3 -c '{NET_PROBE}' 4 127.0.0.1 {listener}; "
        f"curl -s -m 2 http://127.0.0.1:{listener}/ >/dev/null; echo curl=$?; "
        f"(echo > /dev/tcp/127.0.0.1/{listener}) 2>/dev/null; echo devtcp=$?"
    )
    proc = run_helper(codex_home, workspace, {"mode": "read-only"}, script)
    lines = proc.stdout.splitlines()
    assert lines[:2] == ["blocked 1", "socketpair ok"]
    assert lines[2] != "curl=0" and lines[3] == "devtcp=1"


def test_sandbox_network_disabled_blocks_ipv6(codex_home: Path, workspace: Path) -> None:
    try:
        server = socket.create_server(("::1", 0), family=socket.AF_INET6)
    except OSError:
        pytest.skip("no IPv6 loopback on this machine")
    with server:
        port = server.getsockname()[1]
        proc = run_helper(
            codex_home, workspace, WORKSPACE, f"python3 -c '{NET_PROBE}' 6 ::1 {port}"
        )
    assert proc.stdout.splitlines()[0] == "blocked 1"


def test_sandbox_network_access_true_allows_connect(
    codex_home: Path, workspace: Path, listener: int
) -> None:
    policy = {**WORKSPACE, "network_access": True}
    proc = run_helper(
        codex_home, workspace, policy, f"python3 -c '{NET_PROBE}' 4 127.0.0.1 {listener}"
    )
    assert proc.stdout.splitlines() == ["connected", "socketpair ok"]


def test_sandbox_helper_missing_command_exits_127(workspace: Path) -> None:
    argv = [str(CODEX), "sandbox", "--", "no-such-cmd-x"]
    proc = subprocess.run(argv, cwd=workspace, capture_output=True, text=True, timeout=30)
    assert proc.returncode == 127
    assert proc.stderr == "codex-linux-sandbox: command not found: no-such-cmd-x\n"


def test_sandbox_bad_mode_is_a_usage_error(workspace: Path) -> None:
    argv = [str(CODEX), "sandbox", "-c", "sandbox_mode=open", "--", "true"]
    proc = subprocess.run(argv, cwd=workspace, capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2 and "sandbox_mode must be one of" in proc.stderr


RUNNER = """
import json, os, sys
def report(*args):
    print(json.dumps(sorted(k for k, v in sys.modules.items() if v is not None)), flush=True)
    os._exit(0)
os.execvp = os.execve = report  # stop where the front would exec bwrap
sys.argv = sys.argv[1:]
from codex_tui.entry import main
sys.exit(main())
"""


def loaded_modules(argv: list[str], cwd: Path) -> set[str]:
    """Every module in sys.modules when the real entry point is about to exec the command."""
    proc = subprocess.run(
        [sys.executable, "-c", RUNNER, *argv], cwd=cwd, capture_output=True, text=True, timeout=30
    )
    assert proc.returncode == 0, proc.stderr[-500:]
    return set(json.loads(proc.stdout))


def test_sandbox_helper_stage2_imports_only_stdlib_and_helper(workspace: Path) -> None:
    from codex_core.exec.arg0 import isolated_python_argv

    probe = "import json,sys;import sandbox_helper.linux;print(json.dumps(sorted(sys.modules)))"
    argv = isolated_python_argv("sandbox_helper.linux:main", [])
    argv[argv.index("-c") + 1] = argv[argv.index("-c") + 1].split("from ")[0] + probe
    proc = subprocess.run(argv, cwd=workspace, capture_output=True, text=True, timeout=30, env={})
    names = set(json.loads(proc.stdout))
    assert not {n for n in names if n.split(".")[0] in (*FORBIDDEN, "codex_tui")}
    assert not {n for n in names if n.split(".")[0] in ("landlock", "pyseccomp")}


def test_sandbox_cli_path_imports_no_heavy_packages(workspace: Path) -> None:
    names = loaded_modules(["codex", "sandbox", "linux", "--", "true"], workspace)
    assert "codex_tui.cli.sandbox" in names and "sandbox_helper.launch" in names
    heavy = {n for n in names if n.split(".")[0] in ("textual", "rich", "httpx", "pydantic")}
    # codex_core's stand-in for pydantic's plugin loader: an empty module object, no import
    assert not heavy - {"pydantic.plugin._loader"}
    # Only the version constant and the CODEX_HOME check (standard library only) from the core.
    home_check = {"codex_core.frontend", "codex_core.frontend.home", "codex_core.lazy"}
    assert not {n for n in names if n.startswith("codex_core.")} - home_check


HIDE_LANDLOCK = """
import ctypes, os, struct, sys
from sandbox_helper import seccomp
# A filter that makes landlock_create_ruleset fail with ENOSYS, as on a kernel without it.
insns = [(seccomp.LD_W_ABS, 0, 0, 0), (seccomp.JEQ_K, 0, 1, 444),
         (seccomp.RET_K, 0, 0, seccomp.RET_ERRNO | 38), (seccomp.RET_K, 0, 0, seccomp.RET_ALLOW)]
prog = b"".join(struct.pack("=HBBI", *i) for i in insns)
buf = ctypes.create_string_buffer(prog, len(prog))
fprog = struct.pack("=HxxxxxxQ", len(insns), ctypes.addressof(buf))
libc = ctypes.CDLL(None, use_errno=True)
assert libc.prctl(38, 1, 0, 0, 0) == 0
assert libc.prctl(22, 2, ctypes.c_char_p(fprog), 0, 0) == 0, ctypes.get_errno()
os.environ["CODEX_SANDBOX_NO_USERNS"] = "1"
os.execv(sys.argv[1], sys.argv[1:])
"""


def test_sandbox_refuses_to_run_unconfined_without_landlock(
    codex_home: Path, workspace: Path
) -> None:
    argv = [str(CODEX), "sandbox"]
    proc = subprocess.run(
        [sys.executable, "-c", HIDE_LANDLOCK, *argv, "--", "touch", "ran"],
        cwd=workspace,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert proc.returncode == 1
    assert "codex-linux-sandbox: refusing to run the command unsandboxed: neither" in proc.stderr
    assert "--sandbox danger-full-access" in proc.stderr
    assert not (workspace / "ran").exists()


def test_sandbox_check_reports_landlock_and_seccomp(codex_bin: Path, tmp_path: Path) -> None:
    proc = subprocess.run(
        [str(codex_bin), "sandbox", "--check"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=30,
    )
    lines = proc.stdout.splitlines()
    assert proc.returncode == 0
    assert lines[0].startswith("bubblewrap: ") and lines[1].startswith("user namespaces: ")
    assert lines[2].startswith("Landlock: ") and lines[3] == "seccomp: filters available"
    assert lines[-2].startswith("enforced layers: ") and "seccomp" in lines[-2]
    assert lines[-1] == "sandbox: usable"


def test_sandbox_linux_status_shows_no_caps_no_new_privs_and_seccomp(workspace: Path) -> None:
    argv = [str(CODEX), "sandbox", "linux", "--", "cat", "/proc/self/status"]
    proc = subprocess.run(argv, cwd=workspace, capture_output=True, text=True, timeout=30)
    lines = proc.stdout.splitlines()
    assert {"CapEff:\t0000000000000000", "NoNewPrivs:\t1", "Seccomp:\t2"} <= set(lines)
