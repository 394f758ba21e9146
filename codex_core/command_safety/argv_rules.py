"""Per-program rules deciding whether one argv only reads (no writes, no spawned programs).

Each checker receives the arguments after the program name. Checkers scan every argument,
option values included: an option value that looks like a dangerous flag makes the command
unsafe, which can only err towards asking. GNU tools and git accept unambiguous prefixes of
long options (`--out` for `--output`), so dangerous long options are matched by prefix.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

Checker = Callable[[list[str]], bool]

# Programs that cannot write files or start other programs whatever their arguments.
ALWAYS_SAFE = frozenset(
    {
        "arch", "basename", "cat", "cksum", "cmp", "column", "comm", "cut", "df", "diff",
        "dirname", "du", "echo", "egrep", "expand", "false", "fgrep", "fold", "grep",
        "groups", "head", "hexdump", "id", "ls", "md5sum", "nl", "nproc", "od", "paste",
        "printenv", "pwd", "readlink", "realpath", "rev", "seq", "sha1sum", "sha256sum",
        "sha512sum", "stat", "tac", "tail", "tr", "true", "uname", "unexpand", "wc",
        "which", "whoami",
    }
)  # fmt: skip

_FIND_UNSAFE = frozenset(
    {"-exec", "-execdir", "-ok", "-okdir", "-delete", "-fls", "-fprint", "-fprint0", "-fprintf"}
)
_GIT_READ_SUBCOMMANDS = frozenset({"status", "log", "diff", "show", "branch"})
# Subcommand flags that write files or run configured/external programs.
_GIT_UNSAFE_LONG = ("output", "ext-diff", "textconv", "exec", "config-env", "git-dir", "work-tree")
_GIT_BRANCH_FLAGS = frozenset(
    {
        "--all", "--remotes", "--list", "--verbose", "--show-current", "--no-color",
        "--no-column", "--ignore-case", "--omit-empty", "--no-abbrev",
    }
)  # fmt: skip
_GIT_BRANCH_VALUE_FLAGS = frozenset(
    {"--contains", "--no-contains", "--merged", "--no-merged", "--points-at", "--sort", "--format"}
)
_GIT_BRANCH_EQUALS_FLAGS = frozenset({"--color", "--column", "--abbrev", *_GIT_BRANCH_VALUE_FLAGS})
_SED_PRINT_LINES = re.compile(r"[0-9]+(,[0-9]+)?p")
_RG_UNSAFE_LONG = ("pre", "pre-glob", "search-zip", "hostname-bin")


def _long_name(arg: str) -> str | None:
    if arg.startswith("--") and len(arg) > 2:
        return arg[2:].split("=", 1)[0]
    return None


def _long_hits(arg: str, names: Iterable[str]) -> bool:
    """Whether `arg` is one of the long options `names` or an abbreviation of one."""
    name = _long_name(arg)
    return name is not None and any(full.startswith(name) for full in names)


def _short_cluster(arg: str) -> str | None:
    if arg.startswith("-") and not arg.startswith("--") and len(arg) > 1:
        return arg[1:]
    return None


def _cluster_flags(cluster: str, takes_value: str) -> str:
    """The option letters of a `-abc` cluster, stopping after the first that takes a value."""
    for index, char in enumerate(cluster):
        if char in takes_value:
            return cluster[: index + 1]
    return cluster


def _any_short_flag(args: list[str], letters: str, takes_value: str = "") -> bool:
    for arg in args:
        cluster = _short_cluster(arg)
        if cluster is not None and any(c in letters for c in _cluster_flags(cluster, takes_value)):
            return True
    return False


def _find(args: list[str]) -> bool:
    return not any(arg in _FIND_UNSAFE for arg in args)


def _rg(args: list[str]) -> bool:
    # -z/--search-zip and --pre run other programs on each file; --hostname-bin runs one.
    if any(_long_hits(arg, _RG_UNSAFE_LONG) for arg in args):
        return False
    return not _any_short_flag(args, "z")


def _sed(args: list[str]) -> bool:
    # Only `sed -n Np` and `sed -n N,Mp` (optionally on files): anything else may write.
    if len(args) < 2 or args[0] != "-n" or _SED_PRINT_LINES.fullmatch(args[1]) is None:
        return False
    return not any(arg.startswith("-") for arg in args[2:])


def _sort(args: list[str]) -> bool:
    if any(_long_hits(a, ("output", "compress-program", "temporary-directory")) for a in args):
        return False
    return not _any_short_flag(args, "oT", takes_value="ktoST")


def _uniq(args: list[str]) -> bool:
    # `uniq IN OUT` writes OUT, so at most one operand is allowed.
    operands = 0
    expect_value = False
    only_operands = False
    for arg in args:
        if expect_value:
            expect_value = False
        elif only_operands or arg == "-" or not arg.startswith("-"):
            operands += 1
        elif arg == "--":
            only_operands = True
        elif (name := _long_name(arg)) is not None:
            value_options = ("skip-fields", "skip-chars", "check-chars")
            expect_value = "=" not in arg and any(o.startswith(name) for o in value_options)
        else:
            expect_value = arg[-1] in "fsw" and _cluster_flags(arg[1:], "fsw") == arg[1:]
    return operands <= 1


def _date(args: list[str]) -> bool:
    # `-s`/`--set` and a bare `MMDDhhmm` operand set the clock; only `+FORMAT` operands pass.
    expect_value = False
    for arg in args:
        if expect_value:
            expect_value = False
            continue
        if (name := _long_name(arg)) is not None:
            if _long_hits(arg, ("set",)):
                return False
            value_options = ("date", "file", "reference")
            expect_value = "=" not in arg and any(o.startswith(name) for o in value_options)
        elif (cluster := _short_cluster(arg)) is not None:
            flags = _cluster_flags(cluster, "dfr")
            if "s" in flags:
                return False
            expect_value = flags == cluster and cluster[-1] in "dfr"
        elif not arg.startswith("+"):
            return False
    return not expect_value


def _env(args: list[str]) -> bool:
    # With a command, env runs it; printing the environment is the only safe form.
    return all(arg in ("-0", "--null") for arg in args)


def _tree(args: list[str]) -> bool:
    # -o writes the listing to a file; -R re-runs tree writing 00Tree.html files.
    if any(_long_hits(arg, ("output",)) for arg in args):
        return False
    return not _any_short_flag(args, "oR")


def _file(args: list[str]) -> bool:
    # -C/--compile writes a compiled magic file.
    if any(_long_hits(arg, ("compile",)) for arg in args):
        return False
    return not _any_short_flag(args, "C")


def _printf(args: list[str]) -> bool:
    # bash's builtin `printf -v NAME` assigns a variable (PATH, say) for later commands.
    return not any(arg.startswith("-v") for arg in args)


def _git(args: list[str]) -> bool:
    index = 0
    # Global options (-c, -C, --git-dir, --exec-path, …) can point git at other configs.
    while index < len(args) and args[index].startswith("-"):
        if args[index] != "--no-pager":
            return False
        index += 1
    if index == len(args) or args[index] not in _GIT_READ_SUBCOMMANDS:
        return False
    rest = args[index + 1 :]
    if any(_long_hits(arg, _GIT_UNSAFE_LONG) for arg in rest):
        return False
    return _git_branch_lists(rest) if args[index] == "branch" else True


def _git_branch_lists(args: list[str]) -> bool:
    """Whether `git branch ARGS` only lists branches (any operand creates one otherwise)."""
    list_mode = False
    operands = 0
    expect_value = False
    for arg in args:
        if expect_value:
            expect_value = False
        elif arg.startswith("--"):
            flag = arg.split("=", 1)[0]
            if "=" in arg:
                if flag not in _GIT_BRANCH_EQUALS_FLAGS:
                    return False
            elif flag in _GIT_BRANCH_VALUE_FLAGS:
                expect_value = True
            elif flag not in _GIT_BRANCH_FLAGS:
                return False
            list_mode = list_mode or flag == "--list"
        elif (cluster := _short_cluster(arg)) is not None:
            if any(char not in "arvli" for char in cluster):
                return False
            list_mode = list_mode or "l" in cluster
        else:
            operands += 1
    return operands == 0 or list_mode


CHECKED: dict[str, Checker] = {
    "date": _date,
    "env": _env,
    "file": _file,
    "find": _find,
    "git": _git,
    "printf": _printf,
    "rg": _rg,
    "sed": _sed,
    "sort": _sort,
    "tree": _tree,
    "uniq": _uniq,
}


def is_safe_plain_argv(argv: list[str]) -> bool:
    """Whether one argv (no shell involved) is a known read-only command.

    Only bare program names count: `/tmp/x/ls` or `./ls` could be anything.
    """
    if not argv or "/" in argv[0]:
        return False
    program, args = argv[0], argv[1:]
    if program in ALWAYS_SAFE:
        return True
    checker = CHECKED.get(program)
    return checker is not None and checker(args)
