"""Git run on the host over a workspace the model may have written: nothing it planted runs.

Every git call the core makes outside the sandbox (the `/undo` snapshots, `/diff`, git
facts for rollouts, `@` file search) goes through `HostGit`. What makes it safe does not
depend on a list of dangerous keys:

- git never reads a configuration file the model could have written. It runs with a
  private git directory ("shadow") under CODEX_HOME — read-only inside every sandbox —
  whose `config` codex writes, `objects/info/alternates` pointing at the repository's own
  objects (read as data), and `GIT_WORK_TREE` at the work tree. The repository's
  `.git/config` (fsmonitor, hooks, filters, diff drivers, pager, includes), any enclosing
  repository's, the system and global files are never opened: GIT_CONFIG_NOSYSTEM,
  GIT_CONFIG_GLOBAL=/dev/null, and no discovery since GIT_DIR is explicit. Without a
  driver defined in that config, `.gitattributes` filters and diff drivers are inert.
- the environment is built from scratch (nothing inherited: GIT_*, pagers, editors, ssh).
- the repository itself — work tree root, git directory, HEAD — is found by reading files
  in Python; the user's index is only copied (data) into the shadow.
- the git executable comes from a PATH entry that is absolute and not inside the work
  tree, /tmp or $TMPDIR.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import zlib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from codex_core.git_repo import Repo, config_value, find_repo, git_dir_of, read_head
from sandbox_helper.launch import codex_home

__all__ = [
    "HostGit",
    "HostGitError",
    "Repo",
    "config_value",
    "find_repo",
    "git_dir_of",
    "git_executable",
    "read_head",
]

GIT_TIMEOUT_SECONDS = 60


class HostGitError(Exception):
    """Git refused, is missing or timed out; the message says what failed."""


def _under(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


def git_executable(work_tree: Path, env: Mapping[str, str] | None = None) -> str | None:
    """`git` from a PATH entry the sandbox cannot have written (absolute, not in scratch)."""
    env = os.environ if env is None else env
    unsafe = [str(work_tree.resolve()), "/tmp", os.path.realpath(env.get("TMPDIR") or "/tmp")]
    for entry in (env.get("PATH") or os.defpath).split(os.pathsep):
        if not os.path.isabs(entry):
            continue
        real = os.path.realpath(entry)
        if any(_under(real, u) for u in unsafe):
            continue
        candidate = os.path.join(entry, "git")
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def _object_format(repo: Repo) -> str:
    value = config_value(repo.common_dir / "config", "extensions", None, "objectformat")
    return "sha256" if (value or "").lower() == "sha256" else "sha1"


class HostGit:
    """Git commands over `repo`'s work tree through a private git directory."""

    def __init__(self, repo: Repo, home: Path | None = None) -> None:
        """Prepare (once) the shadow git directory of `repo` under CODEX_HOME."""
        self.repo = repo
        home = home if home is not None else Path(codex_home())
        key = f"{repo.common_dir.name}-{zlib.crc32(str(repo.common_dir).encode()):08x}"
        self.shadow = home / "git" / f"{repo.work_tree.name}-{key}"
        git = git_executable(repo.work_tree)
        if git is None:
            raise HostGitError("git is not installed (or only found inside the workspace)")
        self.git = git
        self._prepare()

    def _prepare(self) -> None:
        shadow = self.shadow
        (shadow / "objects" / "info").mkdir(parents=True, exist_ok=True)
        (shadow / "refs").mkdir(exist_ok=True)
        (shadow / "info").mkdir(exist_ok=True)
        sha256 = _object_format(self.repo) == "sha256"
        config = (
            f"[core]\n\trepositoryformatversion = {1 if sha256 else 0}\n\tbare = false\n"
            "\tfsmonitor = false\n\tuntrackedCache = false\n\thooksPath = /dev/null\n"
            "\tquotePath = false\n[gc]\n\tauto = 0\n"
        )
        if sha256:
            config += "[extensions]\n\tobjectformat = sha256\n"
        files = {
            "config": config,
            "HEAD": "ref: refs/heads/codex\n",
            "objects/info/alternates": f"{self.repo.common_dir / 'objects'}\n",
        }
        try:
            files["info/exclude"] = (self.repo.common_dir / "info" / "exclude").read_text(
                encoding="utf-8", errors="surrogateescape"
            )
        except OSError:
            files["info/exclude"] = ""
        for name, text in files.items():
            path = shadow / name
            try:
                if path.read_text(encoding="utf-8", errors="surrogateescape") == text:
                    continue
            except OSError:
                pass
            tmp = path.with_name(f".{path.name}.{os.getpid()}")
            tmp.write_text(text, encoding="utf-8", errors="surrogateescape")
            os.replace(tmp, path)

    def env(self, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        """The whole environment of a git call (nothing inherited)."""
        path = os.pathsep.join(
            p for p in (os.environ.get("PATH") or os.defpath).split(os.pathsep) if os.path.isabs(p)
        )
        env = {
            "PATH": path,
            "HOME": str(self.shadow),
            "XDG_CONFIG_HOME": str(self.shadow / "no-xdg"),
            "LC_ALL": "C",
            "GIT_DIR": str(self.shadow),
            "GIT_WORK_TREE": str(self.repo.work_tree),
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_CONFIG_GLOBAL": "/dev/null",
            "GIT_ATTR_NOSYSTEM": "1",
            "GIT_TERMINAL_PROMPT": "0",
            "GIT_OPTIONAL_LOCKS": "0",
            "GIT_NO_REPLACE_OBJECTS": "1",
            "GIT_PAGER": "cat",
            "PAGER": "cat",
        }
        env.update(extra or {})
        return env

    def run(
        self,
        args: list[str],
        *,
        env: Mapping[str, str] | None = None,
        stdin: bytes | None = None,
        ok: tuple[int, ...] = (0,),
        cwd: Path | None = None,
        timeout: float = GIT_TIMEOUT_SECONDS,
    ) -> bytes:
        """Stdout of `git args…`.

        Raises:
            HostGitError: git failed (exit status not in `ok`) or took longer than `timeout`.
        """
        try:
            done = subprocess.run(
                [self.git, "--no-pager", *args],
                cwd=cwd or self.repo.work_tree,
                env=self.env(env),
                input=stdin,
                stdin=None if stdin is not None else subprocess.DEVNULL,
                capture_output=True,
                timeout=timeout,
                check=False,
            )
        except OSError as err:
            raise HostGitError(f"git could not run: {err}") from err
        except subprocess.TimeoutExpired as err:
            raise HostGitError(f"git {args[0]} took longer than {timeout}s") from err
        if done.returncode not in ok:
            lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
            raise HostGitError(f"git {args[0]} failed: {lines[-1] if lines else done.returncode}")
        return done.stdout

    @contextmanager
    def index_copy(self, copy_user_index: bool = True) -> Iterator[dict[str, str]]:
        """An environment pointing git at a private index (a copy of the user's, if any)."""
        fd, name = tempfile.mkstemp(prefix="index-", dir=self.shadow)
        os.close(fd)
        os.unlink(name)
        try:
            real = self.repo.git_dir / "index"
            if copy_user_index and real.is_file():
                shutil.copyfile(real, name)
                # Git re-reads a file whose stat data is as new as the index ("racy git"):
                # the copy keeps the index's times, or an edit made in the second of the
                # last `git add` (same size) looks clean — /diff once showed no change.
                times = os.stat(real)
                os.utime(name, ns=(times.st_atime_ns, times.st_mtime_ns))
            yield {"GIT_INDEX_FILE": name}
        finally:
            try:
                os.unlink(name)
            except OSError:
                pass
