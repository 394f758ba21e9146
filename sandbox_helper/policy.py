"""Pure sandbox-policy logic shared by the helper and codex_core: parse JSON, compute roots."""

from __future__ import annotations

import os
from collections.abc import Mapping

READ_ONLY = "read-only"
WORKSPACE_WRITE = "workspace-write"
DANGER_FULL_ACCESS = "danger-full-access"
MODES = (READ_ONLY, WORKSPACE_WRITE, DANGER_FULL_ACCESS)

# Directories that stay read-only even inside a writable root: git metadata (hooks and
# config run code), per-project codex settings, `.agents` (the skills and plugin marketplace
# a later session loads) and `.aws` (AWS config: `credential_process` runs a command) —
# codex-rust 0.169 fences the same four in every writable root, also where they do not exist
# yet (tests/security/test_protected_agents_dir.py, test_protected_aws_dir.py).
PROTECTED_SUBDIRS = (".git", ".agents", ".codex", ".aws")  # 0.169's order


class PolicyError(ValueError):
    """The sandbox policy JSON is malformed; the message is one line."""


class HelperPolicy:
    """A sandbox policy as the helper sees it (mirror of codex_core.protocol.SandboxPolicy).

    A plain class rather than a dataclass: importing `dataclasses` costs ~15 ms, and this
    module is on the helper's start-up path.
    """

    __slots__ = (
        "mode",
        "writable_roots",
        "network_access",
        "exclude_tmpdir_env_var",
        "exclude_slash_tmp",
    )

    def __init__(
        self,
        mode: str,
        writable_roots: tuple[str, ...] = (),
        network_access: bool = False,
        exclude_tmpdir_env_var: bool = False,
        exclude_slash_tmp: bool = False,
    ) -> None:
        """Store the fields; use `parse_policy` to validate untrusted input."""
        self.mode = mode
        self.writable_roots = tuple(writable_roots)
        self.network_access = network_access
        self.exclude_tmpdir_env_var = exclude_tmpdir_env_var
        self.exclude_slash_tmp = exclude_slash_tmp

    def _key(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HelperPolicy) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"HelperPolicy({fields})"

    @property
    def has_network(self) -> bool:
        """Whether commands may use the network."""
        if self.mode == DANGER_FULL_ACCESS:
            return True
        return self.mode == WORKSPACE_WRITE and self.network_access

    @property
    def has_full_disk_write(self) -> bool:
        """Whether commands may write anywhere (no file-system sandbox)."""
        return self.mode == DANGER_FULL_ACCESS

    def to_json(self) -> str:
        """The wire JSON, as `--sandbox-policy` expects it."""
        import json  # lazily: `codex sandbox` never serialises a policy

        data: dict[str, object] = {"mode": self.mode}
        if self.mode == WORKSPACE_WRITE:
            data.update(
                writable_roots=list(self.writable_roots),
                network_access=self.network_access,
                exclude_tmpdir_env_var=self.exclude_tmpdir_env_var,
                exclude_slash_tmp=self.exclude_slash_tmp,
            )
        return json.dumps(data)


class WritableRoot:
    """A directory commands may write under, minus read-only subpaths."""

    __slots__ = ("root", "read_only_subpaths")

    def __init__(self, root: str, read_only_subpaths: tuple[str, ...] = ()) -> None:
        """A root and the protected paths beneath it."""
        self.root = root
        self.read_only_subpaths = tuple(read_only_subpaths)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, WritableRoot) and (self.root, self.read_only_subpaths) == (
            other.root,
            other.read_only_subpaths,
        )

    def __hash__(self) -> int:
        return hash((self.root, self.read_only_subpaths))

    def __repr__(self) -> str:
        return f"WritableRoot({self.root!r}, {self.read_only_subpaths!r})"


def policy_from_mapping(data: Mapping[str, object]) -> HelperPolicy:
    """Validate a decoded policy object.

    Raises:
        PolicyError: unknown mode or a field of the wrong type.
    """
    mode = data.get("mode")
    if mode not in MODES:
        raise PolicyError(f"unknown sandbox mode {mode!r}; expected one of {', '.join(MODES)}")
    if mode != WORKSPACE_WRITE:
        return HelperPolicy(mode=str(mode))
    roots = data.get("writable_roots", [])
    if not isinstance(roots, list) or not all(isinstance(r, str) for r in roots):
        raise PolicyError("writable_roots must be a list of paths")
    flags: list[bool] = []
    for name in ("network_access", "exclude_tmpdir_env_var", "exclude_slash_tmp"):
        value = data.get(name, False)
        if not isinstance(value, bool):
            raise PolicyError(f"{name} must be true or false")
        flags.append(value)
    return HelperPolicy(WORKSPACE_WRITE, tuple(roots), *flags)


def parse_policy(text: str) -> HelperPolicy:
    """Parse the `--sandbox-policy` JSON.

    Raises:
        PolicyError: the text is not a valid policy.
    """
    import json

    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise PolicyError(f"sandbox policy is not valid JSON: {err.msg}") from None
    if not isinstance(data, dict):
        raise PolicyError("sandbox policy must be a JSON object")
    return policy_from_mapping(data)


def writable_roots(policy: HelperPolicy, cwd: str, env: Mapping[str, str]) -> list[WritableRoot]:
    """Directories writable under `policy`: cwd, configured roots, /tmp and $TMPDIR.

    Relative configured roots resolve against `cwd`. Each root lists `PROTECTED_SUBDIRS`
    below it as read-only candidates; callers check which exist. Read-only and full-access
    policies have no writable roots (full access needs none).
    """
    if policy.mode != WORKSPACE_WRITE:
        return []
    candidates = [cwd, *(os.path.join(cwd, r) for r in policy.writable_roots)]
    if not policy.exclude_slash_tmp:
        candidates.append("/tmp")
    tmpdir = env.get("TMPDIR", "")
    if not policy.exclude_tmpdir_env_var and tmpdir:
        candidates.append(tmpdir)
    seen: set[str] = set()
    roots: list[WritableRoot] = []
    for path in candidates:
        norm = os.path.normpath(path)
        if norm in seen:
            continue
        seen.add(norm)
        protected = tuple(os.path.join(norm, name) for name in PROTECTED_SUBDIRS)
        roots.append(WritableRoot(root=norm, read_only_subpaths=protected))
    return roots
