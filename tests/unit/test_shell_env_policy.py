"""The environment of model-run commands under each shell_environment_policy."""

from __future__ import annotations

import subprocess
import sys

from codex_core.config.shell_env import ShellEnvironmentPolicy, create_env

PARENT = {
    "PATH": "/usr/bin",
    "HOME": "/home/me",
    "LANG": "C.UTF-8",
    "LC_ALL": "C.UTF-8",
    "OPENAI_API_KEY": "sk-1",
    "GITHUB_TOKEN": "ghp",
    "aws_secret_access_key": "x",
    "EDITOR": "vim",
    "AWS_PROFILE": "dev",
}


def test_shell_env_default_inherits_all_but_secrets() -> None:
    assert create_env(ShellEnvironmentPolicy(), PARENT) == {
        "PATH": "/usr/bin",
        "HOME": "/home/me",
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "EDITOR": "vim",
        "AWS_PROFILE": "dev",
    }


def test_shell_env_ignore_default_excludes_keeps_secrets() -> None:
    assert create_env(ShellEnvironmentPolicy(ignore_default_excludes=True), PARENT) == PARENT


def test_shell_env_core_keeps_only_core_variables() -> None:
    assert create_env(ShellEnvironmentPolicy(inherit="core"), PARENT) == {
        "PATH": "/usr/bin",
        "HOME": "/home/me",
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
    }


def test_shell_env_none_starts_empty_and_set_adds() -> None:
    policy = ShellEnvironmentPolicy(inherit="none", set={"CI": "1", "MY_TOKEN": "kept"})
    # `set` comes after the excludes, so a value the user sets on purpose is kept.
    assert create_env(policy, PARENT) == {"CI": "1", "MY_TOKEN": "kept"}


def test_shell_env_exclude_is_case_insensitive_glob() -> None:
    policy = ShellEnvironmentPolicy(exclude=["aws_*", "editor"])
    env = create_env(policy, PARENT)
    assert "AWS_PROFILE" not in env and "EDITOR" not in env and "PATH" in env


def test_shell_env_include_only_applies_last() -> None:
    policy = ShellEnvironmentPolicy(set={"CI": "1"}, include_only=["path", "HO*"])
    assert create_env(policy, PARENT) == {"PATH": "/usr/bin", "HOME": "/home/me"}


def test_shell_env_does_not_modify_base() -> None:
    base = dict(PARENT)
    create_env(ShellEnvironmentPolicy(inherit="none", set={"X": "1"}), base)
    assert base == PARENT


def test_shell_env_reaches_a_real_child_process() -> None:
    policy = ShellEnvironmentPolicy(inherit="core", set={"CODEX_TEST_VALUE": "hello"})
    env = create_env(policy, {**PARENT, "PATH": "/usr/bin:/bin"})
    code = "import os, json; print(json.dumps(sorted(k for k in os.environ if k != 'LC_CTYPE')))"
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == '["CODEX_TEST_VALUE", "HOME", "LANG", "LC_ALL", "PATH"]'
