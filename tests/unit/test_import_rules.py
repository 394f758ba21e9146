"""The import rules of the design: fresh interpreters' `sys.modules`, and the static import graph."""

from __future__ import annotations

import ast
import functools
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY_FOR_VERSION = ("textual", "rich", "httpx", "pydantic")


def loaded_modules(code: str) -> set[str]:
    probe = code + "\nimport sys\nprint(' '.join(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    return set(done.stdout.split())


def test_import_rules_core_never_loads_textual_or_tui() -> None:
    mods = loaded_modules(
        "import codex_core, codex_core.session, codex_core.kernel, codex_core.protocol, "
        "codex_core.config, codex_core.client, codex_core.tools.router"
    )
    assert "textual" not in mods
    assert not any(m == "codex_tui" or m.startswith("codex_tui.") for m in mods)


@pytest.mark.parametrize("argv", [["--version"], ["-V"], ["--help"]])
def test_import_rules_version_and_help_stay_light(argv: list[str]) -> None:
    code = (
        "import sys\n"
        f"sys.argv = ['codex', *{argv!r}]\n"
        "from codex_tui.entry import dispatch\n"  # main() would leave through os._exit
        "import contextlib, io\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try:\n"
        "        dispatch()\n"
        "    except SystemExit:\n"
        "        pass\n"
    )
    mods = loaded_modules(code)
    assert "codex_tui.entry" in mods  # the probe ran to its end
    assert not [m for m in HEAVY_FOR_VERSION if m in mods]


def test_import_rules_exec_path_never_loads_textual() -> None:
    mods = loaded_modules(
        "import codex_tui.exec.cli, codex_tui.exec.run, codex_tui.exec.jsonl, codex_tui.exec.human"
    )
    assert "textual" not in mods


# --- the static import graph of the three packages -------------------------------------

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("codex_core", "codex_tui", "sandbox_helper")
UI_LIBRARIES = ("textual", "rich")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@functools.cache  # parsed once per worker: five tests walk every module of the packages
def _imports(path: Path, module: str) -> frozenset[str]:
    """Every module `path` imports, at any depth (TYPE_CHECKING and function bodies too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")
                base = base if is_package else base[:-1]
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names)
    return frozenset(found)


def import_graph() -> dict[str, set[str]]:
    """Module -> the project modules it imports (a package import counts as its __init__)."""
    files = {
        _module_name(path): path for package in PACKAGES for path in (ROOT / package).rglob("*.py")
    }
    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        graph[module] = {
            target for target in _imports(path, module) if target in files and target != module
        }
    return graph


def external_imports(prefix: str) -> dict[str, set[str]]:
    """Module -> the top-level third-party names it imports, for modules under `prefix`."""
    out: dict[str, set[str]] = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            module = _module_name(path)
            if module == prefix or module.startswith(prefix + "."):
                out[module] = {name.split(".")[0] for name in _imports(path, module)}
    return out


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return cycles


def test_import_rules_no_circles_in_the_import_graph() -> None:
    assert find_cycles(import_graph()) == []


def test_import_rules_cycle_finder_sees_a_circle() -> None:
    assert find_cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_import_rules_core_never_imports_ui_or_tui() -> None:
    offenders = {
        module: names & {*UI_LIBRARIES, "codex_tui"}
        for module, names in external_imports("codex_core").items()
        if names & {*UI_LIBRARIES, "codex_tui"}
    }
    assert offenders == {}


def test_import_rules_only_the_app_imports_textual_or_rich() -> None:
    offenders = {
        module: names & set(UI_LIBRARIES)
        for package in PACKAGES
        for module, names in external_imports(package).items()
        if names & set(UI_LIBRARIES) and not module.startswith("codex_tui.app")
    }
    assert offenders == {}


# --- the layout of the terminal frontends (codex_tui/: cli/, exec/, app/) --------------

TUI = ROOT / "codex_tui"
TUI_TOP_FILES = {"__init__.py", "entry.py", "py.typed"}
TUI_PACKAGES = {"cli", "exec", "app"}


def test_layout_codex_tui_holds_only_the_entry_point_and_three_packages() -> None:
    files = {p.name for p in TUI.iterdir() if p.is_file() and not p.name.endswith(".tcss")}
    folders = {p.name for p in TUI.iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert files == TUI_TOP_FILES
    assert folders == TUI_PACKAGES
    assert all((TUI / name / "__init__.py").is_file() for name in TUI_PACKAGES)


def test_layout_cli_and_exec_packages_import_nothing_on_their_own() -> None:
    # `codex sandbox -- CMD` loads `codex_tui.cli` on its benchmarked path: keep the face empty.
    for name in ("cli", "exec"):
        path = TUI / name / "__init__.py"
        assert _imports(path, f"codex_tui.{name}") == set(), path


def test_layout_exec_never_imports_the_app() -> None:
    offenders = {
        module: {name for name in names if name.startswith("codex_tui.app")}
        for module, names in import_graph().items()
        if module.startswith("codex_tui.exec") and any(n.startswith("codex_tui.app") for n in names)
    }
    assert offenders == {}


@pytest.mark.parametrize("package", ["codex_tui.cli", "codex_tui.exec"])
def test_layout_frontend_modules_stay_under_400_lines(package: str) -> None:
    folder = ROOT / package.replace(".", "/")
    long = {
        path.name: n
        for path in folder.rglob("*.py")
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > 400
    }
    assert long == {}
