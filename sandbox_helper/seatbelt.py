"""macOS Seatbelt: build a `sandbox-exec` profile and argv from a sandbox policy."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from sandbox_helper.policy import WORKSPACE_WRITE, HelperPolicy, WritableRoot, writable_roots

SANDBOX_EXEC = "/usr/bin/sandbox-exec"

# Deny by default; let the command run programs, read the file system, talk to the
# services libc needs for user/group lookups and terminals, and nothing else. Signals and
# process inspection reach only processes of the same sandbox; outside the writable roots
# the only writes are data to /dev/null and the terminal (`file-write-data`, never the
# `file-write*` family that includes chmod, chown, utimes, xattrs and flags).
BASE_PROFILE = """(version 1)
(deny default)
(allow process-exec)
(allow process-fork)
(allow signal (target same-sandbox))
(allow process-info* (target same-sandbox))
(allow file-read*)
(allow file-write-data file-ioctl (literal "/dev/null"))
(allow sysctl-read)
(allow user-preference-read)
(allow ipc-posix-sem)
(allow ipc-posix-shm-read-data ipc-posix-shm-write-data ipc-posix-shm-write-create)
(allow pseudo-tty)
(allow file-read* file-write-data file-ioctl (literal "/dev/ptmx") (regex #"^/dev/ttys[0-9]+$"))
(allow mach-lookup
  (global-name "com.apple.system.opendirectoryd.libinfo")
  (global-name "com.apple.system.logger")
  (global-name "com.apple.PowerManagement.control"))
"""

NETWORK_PROFILE = """(allow network-outbound)
(allow network-inbound)
(allow system-socket)
(allow mach-lookup
  (global-name "com.apple.SystemConfiguration.configd")
  (global-name "com.apple.SystemConfiguration.DNSConfiguration")
  (global-name "com.apple.dnssd.service")
  (global-name "com.apple.trustd.agent"))
"""


def build_profile(
    policy: HelperPolicy, roots: list[WritableRoot], files: Sequence[str] = ()
) -> tuple[str, dict[str, str]]:
    """The Seatbelt profile text and its `-D` parameters for `policy`, `roots` and `files`.

    `files` are single files (canonical paths) writable on top of the policy, whatever
    its mode: the files of an approved patch outside the writable roots
    (`WRITABLE_FILE_<i>`, matched as literals, so nothing beside or beneath them).

    Paths travel as parameters (`WRITABLE_ROOT_<i>`, `WRITABLE_ROOT_<i>_RO_<j>`) so they
    never need quoting inside the profile. `roots` should already be canonical (realpath),
    because Seatbelt matches resolved paths (e.g. /private/tmp for /tmp). Every read-only
    subpath is carved out of every root it lies under, whichever root listed it (a
    worktree's git directory under /tmp stays read-only although the worktree is in cwd);
    a `subpath` also matches the path itself, so a protected entry that does not exist
    cannot be created and one that does cannot be replaced, renamed or re-pointed.
    """
    profile = BASE_PROFILE
    params: dict[str, str] = {}
    if policy.has_full_disk_write:
        profile += '(allow file-write* (regex #"^/"))\n'
    elif roots and policy.mode == WORKSPACE_WRITE:  # read-only writes nothing, whatever roots
        protected = list(dict.fromkeys(p for root in roots for p in root.read_only_subpaths))
        clauses: list[str] = []
        for i, root in enumerate(roots):
            name = f"WRITABLE_ROOT_{i}"
            params[name] = root.root
            excluded: list[str] = []
            for sub in (p for p in protected if _is_under(p, root.root)):
                sub_name = f"{name}_RO_{len(excluded)}"
                params[sub_name] = sub
                excluded.append(f'(require-not (subpath (param "{sub_name}")))')
            if excluded:
                clauses.append(f'  (require-all (subpath (param "{name}")) {" ".join(excluded)})')
            else:
                clauses.append(f'  (subpath (param "{name}"))')
        profile += "(allow file-write*\n" + "\n".join(clauses) + ")\n"
    if files and not policy.has_full_disk_write:
        literals: list[str] = []
        for i, path in enumerate(dict.fromkeys(files)):
            params[f"WRITABLE_FILE_{i}"] = path
            literals.append(f'  (literal (param "WRITABLE_FILE_{i}"))')
        profile += "(allow file-write*\n" + "\n".join(literals) + ")\n"
    if policy.has_network:
        profile += NETWORK_PROFILE
    return profile, params


def _is_under(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


def git_pointer_targets(dot_git: str) -> list[str]:
    """The git directory a worktree's `.git` file points at, and its shared common dir.

    Hooks and config live there, so they must stay read-only like a `.git` directory.
    Returns [] when `dot_git` is not a readable `gitdir:` file.
    """
    try:
        with open(dot_git, encoding="utf-8") as handle:
            first = handle.readline().strip()
    except (OSError, UnicodeDecodeError):
        return []
    if not first.startswith("gitdir:"):
        return []
    gitdir = os.path.realpath(
        os.path.join(os.path.dirname(dot_git), first[len("gitdir:") :].strip())
    )
    targets = [gitdir]
    try:
        with open(os.path.join(gitdir, "commondir"), encoding="utf-8") as handle:
            common = handle.readline().strip()
    except (OSError, UnicodeDecodeError):
        common = ""
    if common:
        targets.append(os.path.realpath(os.path.join(gitdir, common)))
    return targets


def canonical_roots(policy: HelperPolicy, cwd: str, env: Mapping[str, str]) -> list[WritableRoot]:
    """Writable roots resolved through symlinks, with every read-only subpath they protect.

    `.git` and `.codex` are fenced whether or not they exist (so they cannot be created);
    a `.git` symlink also fences its target, and a worktree's `.git` file its git dirs.
    CODEX_HOME and the git metadata of a repository enclosing `cwd` are fenced too, under
    whichever root they lie.
    """
    from sandbox_helper.launch import codex_home, enclosing_metadata

    always = [codex_home(), *enclosing_metadata(os.path.realpath(cwd))]
    resolved: list[WritableRoot] = []
    for root in writable_roots(policy, cwd, env):
        real = os.path.realpath(root.root)
        subs: list[str] = [p for p in always if _is_under(p, real)]
        for path in root.read_only_subpaths:
            sub = os.path.join(real, os.path.basename(path))
            subs.append(sub)
            target = os.path.realpath(sub)
            if target != sub:
                subs.append(target)
            if os.path.isfile(sub):
                subs.extend(git_pointer_targets(sub))
        resolved.append(WritableRoot(real, tuple(dict.fromkeys(subs))))
    return resolved


def seatbelt_argv(
    command: list[str],
    policy: HelperPolicy,
    cwd: str,
    env: Mapping[str, str],
    files: Sequence[str] = (),
) -> list[str]:
    """`sandbox-exec -p PROFILE -DNAME=VALUE... -- COMMAND...` for `policy` (plus `files`)."""
    profile, params = build_profile(policy, canonical_roots(policy, cwd, env), files)
    defines = [f"-D{name}={value}" for name, value in params.items()]
    return [SANDBOX_EXEC, "-p", profile, *defines, "--", *command]
