"""What to run and what came back: the data passed into and out of `run_exec`."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass
class ExecParams:
    """A command to run: argv, working directory, timeout and the full child environment.

    `stdin` is written to the command's standard input and then closed; without it the
    command reads /dev/null. `writable_files` are single files the user approved outside
    the writable roots, each as (an O_PATH descriptor opened without following links, its
    path): the Linux sandbox makes exactly those writable, by descriptor.
    """

    command: list[str]
    cwd: Path
    timeout_ms: int | None
    env: dict[str, str]
    stdin: bytes | None = None
    writable_files: tuple[tuple[int, str], ...] = ()


@dataclass
class ExecResult:
    """How a command ended and what it printed (each stream capped at about 1 MiB)."""

    exit_code: int
    stdout: str
    stderr: str
    aggregated_output: str
    duration_ms: int
    timed_out: bool
    sandbox_denied: bool
