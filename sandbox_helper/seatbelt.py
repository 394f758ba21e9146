"""macOS Seatbelt: build a `sandbox-exec` profile and argv from a sandbox policy."""

from __future__ import annotations

import os
from collections.abc import Mapping

from sandbox_helper.policy import HelperPolicy, WritableRoot, writable_roots

SANDBOX_EXEC = "/usr/bin/sandbox-exec"

# Deny by default; let the command run programs, read the file system, talk to the
# services libc needs for user/group lookups and terminals, and nothing else.
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
(allow file-read* file-write* file-ioctl (literal "/dev/ptmx") (regex #"^/dev/ttys[0-9]+$"))
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


def build_profile(policy: HelperPolicy, roots: list[WritableRoot]) -> tuple[str, dict[str, str]]:
    """The Seatbelt profile text and its `-D` parameters for `policy` and `roots`.

    Paths travel as parameters (`WRITABLE_ROOT_<i>`, `WRITABLE_ROOT_<i>_RO_<j>`) so they
    never need quoting inside the profile. `roots` should already be canonical (realpath),
    because Seatbelt matches resolved paths (e.g. /private/tmp for /tmp).
    """
    profile = BASE_PROFILE
    params: dict[str, str] = {}
    if policy.has_full_disk_write:
        profile += '(allow file-write* (regex #"^/"))\n'
    elif roots:
        clauses: list[str] = []
        for i, root in enumerate(roots):
            name = f"WRITABLE_ROOT_{i}"
            params[name] = root.root
            excluded: list[str] = []
            for j, sub in enumerate(root.read_only_subpaths):
                sub_name = f"{name}_RO_{j}"
                params[sub_name] = sub
                excluded.append(f'(require-not (subpath (param "{sub_name}")))')
            if excluded:
                clauses.append(f'  (require-all (subpath (param "{name}")) {" ".join(excluded)})')
            else:
                clauses.append(f'  (subpath (param "{name}"))')
        profile += "(allow file-write*\n" + "\n".join(clauses) + ")\n"
    if policy.has_network:
        profile += NETWORK_PROFILE
    return profile, params


def canonical_roots(policy: HelperPolicy, cwd: str, env: Mapping[str, str]) -> list[WritableRoot]:
    """Writable roots resolved through symlinks, keeping only read-only subpaths that exist."""
    resolved: list[WritableRoot] = []
    for root in writable_roots(policy, cwd, env):
        real = os.path.realpath(root.root)
        subs = tuple(
            os.path.join(real, os.path.basename(p))
            for p in root.read_only_subpaths
            if os.path.lexists(p)
        )
        resolved.append(WritableRoot(real, subs))
    return resolved


def seatbelt_argv(
    command: list[str], policy: HelperPolicy, cwd: str, env: Mapping[str, str]
) -> list[str]:
    """`sandbox-exec -p PROFILE -DNAME=VALUE... -- COMMAND...` for `policy`."""
    profile, params = build_profile(policy, canonical_roots(policy, cwd, env))
    defines = [f"-D{name}={value}" for name, value in params.items()]
    return [SANDBOX_EXEC, "-p", profile, *defines, "--", *command]
