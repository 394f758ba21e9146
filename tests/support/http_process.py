"""A local HTTP server process for a test: started, waited for, ended."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator

import httpx


def serve_until_closed(argv: list[str], url: str, wait_s: float = 30) -> Iterator[str]:
    """Run `argv` (a server listening at `url`) until the generator is closed; yields `url`
    once it answers HTTP at all (or `wait_s` passed: the test then fails on its own)."""
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + wait_s
        while time.monotonic() < deadline:
            try:
                httpx.get(url, timeout=0.5)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        proc.wait(10)
