"""`fuzzyFileSearch`: subsequence matching of file paths under the given roots."""

from __future__ import annotations

import os
from pathlib import Path

from codex_core.servers.app_server.model_methods import FuzzyFileSearchResult

SKIP_DIRS = {".git", "node_modules", "__pycache__", ".venv", "target", ".mypy_cache"}
MAX_FILES = 50_000
MAX_RESULTS = 50


def match(query: str, path: str) -> tuple[int, list[int]] | None:
    """Score and matched indices when `query` is a case-insensitive subsequence of `path`."""
    lowered = path.lower()
    indices: list[int] = []
    start = 0
    for char in query.lower():
        found = lowered.find(char, start)
        if found < 0:
            return None
        indices.append(found)
        start = found + 1
    if not indices:
        return 0, []
    # Tight, late (in the file name) matches score higher.
    spread = indices[-1] - indices[0] + 1
    name_start = path.rfind("/") + 1
    in_name = sum(1 for i in indices if i >= name_start)
    score = max(1, 1000 - 10 * (spread - len(indices)) + 20 * in_name - len(path))
    return score, indices


def _walk(root: Path) -> list[str]:
    out: list[str] = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS]
        rel_dir = os.path.relpath(dirpath, root)
        for name in filenames:
            out.append(name if rel_dir == "." else f"{rel_dir}/{name}")
            if len(out) >= MAX_FILES:
                return out
    return out


def fuzzy_file_search(query: str, roots: list[str]) -> list[FuzzyFileSearchResult]:
    """The best matches of `query` among the files under `roots`, best first."""
    results: list[FuzzyFileSearchResult] = []
    for root in roots:
        for rel in _walk(Path(root)):
            found = match(query, rel)
            if found is None:
                continue
            score, indices = found
            results.append(
                FuzzyFileSearchResult(
                    root=root,
                    path=rel,
                    file_name=rel.rsplit("/", 1)[-1],
                    score=score,
                    indices=indices,
                )
            )
    results.sort(key=lambda r: (-r.score, r.path))
    return results[:MAX_RESULTS]
