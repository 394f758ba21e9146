"""Unit tests for the seccomp BPF program, checked with a tiny BPF interpreter."""

from __future__ import annotations

import struct

import pytest

from sandbox_helper import seccomp

ALLOW, EPERM, KILL = seccomp.RET_ALLOW, seccomp.RET_ERRNO | 1, seccomp.RET_KILL_PROCESS


def run_filter(program: bytes, nr: int, arch: int, args: tuple[int, ...] = ()) -> int:
    """Evaluate the classic-BPF program against a seccomp_data record."""
    padded = (tuple(args) + (0,) * 6)[:6]
    data = struct.pack("=iIQ6Q", nr, arch, 0, *padded)
    insns = [struct.unpack_from("=HBBI", program, i) for i in range(0, len(program), 8)]
    acc, pc = 0, 0
    while True:
        code, jt, jf, k = insns[pc]
        if code == seccomp.LD_W_ABS:
            acc = struct.unpack_from("=I", data, k)[0]
        elif code == seccomp.AND_K:
            acc &= k
        elif code == seccomp.JEQ_K:
            pc += jt if acc == k else jf
        elif code == seccomp.JGE_K:
            pc += jt if acc >= k else jf
        elif code == seccomp.RET_K:
            return int(k)
        else:
            raise AssertionError(f"unexpected opcode {code:#x}")
        pc += 1


@pytest.mark.parametrize("arch", sorted(seccomp.ARCHES))
def test_seccomp_filter_blocks_network_ptrace_and_io_uring(arch: str) -> None:
    audit, numbers, _ = seccomp.ARCHES[arch]
    program = seccomp.build_network_filter(arch)
    for name in seccomp.BLOCKED_NAMES:
        assert run_filter(program, numbers[name], audit) == EPERM, name
    assert run_filter(program, numbers["socket"], audit, (2,)) == EPERM  # AF_INET
    assert run_filter(program, numbers["socket"], audit, (10,)) == EPERM  # AF_INET6
    assert run_filter(program, numbers["socket"], audit, (1, 1)) == ALLOW  # AF_UNIX stream
    assert run_filter(program, numbers["socket"], audit, (1, 1 | 0x80800)) == ALLOW  # + flags
    assert run_filter(program, numbers["socketpair"], audit, (1, 1)) == ALLOW
    assert run_filter(program, numbers["socketpair"], audit, (1, 5 | 0x80000)) == ALLOW
    assert run_filter(program, numbers["sendto"], audit, (3, 0, 1, 0, 0)) == ALLOW  # send()
    assert run_filter(program, numbers["sendto"], audit, (3, 0, 1, 0, 0x7FFF0000)) == EPERM
    assert run_filter(program, 0, audit) == ALLOW  # read / io_setup: untouched
    assert run_filter(program, numbers["socket"], audit, (1, 2 | 0x80000)) == EPERM  # unix dgram
    assert run_filter(program, numbers["socketpair"], audit, (1, 2)) == EPERM
    # SOCK_RAW is SOCK_DGRAM for AF_UNIX; RDM and unknown types are refused by allow-list.
    for kind in (0, 2, 3, 4, 6, 10, 15):
        for flags in (0, 0x800, 0x80000):
            assert run_filter(program, numbers["socket"], audit, (1, kind | flags)) == EPERM
            assert run_filter(program, numbers["socketpair"], audit, (1, kind | flags)) == EPERM
    assert run_filter(program, numbers["socket"], audit, (1, 5)) == EPERM  # nothing to reach


@pytest.mark.parametrize("arch", sorted(seccomp.ARCHES))
def test_seccomp_filter_denies_tiocsti_tioclinux_and_host_unix_with_network(arch: str) -> None:
    audit, numbers, _ = seccomp.ARCHES[arch]
    program = seccomp.build_filter(arch, network=True, deny_sysv=True)
    ioctl = numbers["ioctl"]
    assert run_filter(program, ioctl, audit, (0, seccomp.TIOCSTI)) == EPERM
    assert run_filter(program, ioctl, audit, (0, 0xFFFFFFFF00000000 | seccomp.TIOCSTI)) == EPERM
    assert run_filter(program, ioctl, audit, (0, seccomp.TIOCLINUX)) == EPERM
    assert run_filter(program, ioctl, audit, (0, 0x5401)) == ALLOW  # TCGETS
    assert run_filter(program, numbers["socket"], audit, (1, 1)) == EPERM  # host unix sockets
    assert run_filter(program, numbers["socket"], audit, (2, 1)) == ALLOW  # TCP
    assert run_filter(program, numbers["connect"], audit) == ALLOW
    assert run_filter(program, numbers["socketpair"], audit, (1, 1)) == ALLOW
    assert run_filter(program, numbers["socketpair"], audit, (1, 3)) == EPERM  # raw = dgram
    assert run_filter(program, numbers["socketpair"], audit, (1, 2)) == EPERM
    assert run_filter(program, numbers["shmget"], audit) == EPERM
    assert run_filter(program, numbers["ptrace"], audit) == EPERM


def test_seccomp_filter_kills_foreign_arch_and_x32_syscalls() -> None:
    program = seccomp.build_network_filter("x86_64")
    assert run_filter(program, 3, 0x40000003) == KILL  # i386
    assert run_filter(program, 0x40000000 | 42, seccomp.ARCHES["x86_64"][0]) == KILL


def test_seccomp_filter_refuses_unknown_architecture() -> None:
    with pytest.raises(seccomp.SeccompError, match="riscv64"):
        seccomp.build_network_filter("riscv64")


def test_bwrap_version_is_read_from_its_binary_without_running_it(tmp_path: object) -> None:
    from pathlib import Path

    from sandbox_helper.bwrap import _embedded_version, bundled_bwrap

    fake = Path(str(tmp_path)) / "bwrap"
    fake.write_bytes(b"\x7fELF...usage: bwrap\0bubblewrap 0.12.1\0bubblewrap.c\0")
    assert _embedded_version(str(fake)) == (0, 12, 1)
    fake.write_bytes(b"\x7fELF no version here bubblewrap \0")
    assert _embedded_version(str(fake)) == ()
    bundled = bundled_bwrap()
    if bundled is not None:
        assert _embedded_version(bundled) >= (0, 11, 0)
