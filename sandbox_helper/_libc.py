"""The few C library calls the helper's second stage makes, on `_ctypes` directly.

`import ctypes` costs ~3.5 ms under the helper's isolated start (it pulls in os, types,
struct and ctypes._endian) and the helper runs before every sandboxed command, which
only needs `syscall`, `prctl` and `ioctl` with errno, a few integer types and two
structures. These are built the way Lib/ctypes/__init__.py builds them (CDLL with
use_errno=True, c_long, c_uint64, ...), cut down to that.

Integer arguments are passed as C `long`: `syscall` and `prctl` read every argument as
a long (or unsigned long) through varargs, so a plain C `int` would leave the upper half
of the register to the calling convention.
"""

import _ctypes
from _ctypes import FUNCFLAG_CDECL, FUNCFLAG_USE_ERRNO, CFuncPtr, Structure, byref, get_errno

__all__ = [
    "Libc",
    "Structure",
    "byref",
    "c_char_p",
    "c_int",
    "c_int32",
    "c_long",
    "c_uint32",
    "c_uint64",
    "c_ushort",
    "get_errno",
]

RTLD_LOCAL = 0  # ctypes' DEFAULT_MODE on Linux; _ctypes.dlopen adds RTLD_NOW itself


# The runtime `_SimpleCData` cannot be subscripted; the stubs make it generic in its value.
class c_int(_ctypes._SimpleCData):  # type: ignore[type-arg]
    """C `int` (32 bits)."""

    _type_ = "i"


c_int32 = c_int


class c_long(_ctypes._SimpleCData):  # type: ignore[type-arg]
    """C `long` (64 bits on the supported machines)."""

    _type_ = "l"


class c_ushort(_ctypes._SimpleCData):  # type: ignore[type-arg]
    """C `unsigned short`."""

    _type_ = "H"


class c_uint32(_ctypes._SimpleCData):  # type: ignore[type-arg]
    """C `unsigned int` (32 bits)."""

    _type_ = "I"


class c_uint64(_ctypes._SimpleCData):  # type: ignore[type-arg]
    """C `unsigned long long` (64 bits)."""

    _type_ = "Q"


class c_char_p(_ctypes._SimpleCData):  # type: ignore[type-arg]
    """C `char *`; a bytes value stays referenced by the structure holding it."""

    _type_ = "z"


class _Function(CFuncPtr):
    """A cdecl C function returning `int` whose errno `get_errno()` reports."""

    _flags_ = FUNCFLAG_CDECL | FUNCFLAG_USE_ERRNO
    _restype_ = c_int


def _longs(args: "tuple[int | _ctypes._CArgObject | None, ...]") -> list[object]:
    return [c_long(a) if isinstance(a, int) else a for a in args]


class Libc:
    """`syscall`, `prctl` and `ioctl` of the C library this interpreter runs on."""

    __slots__ = ("_ioctl", "_prctl", "_syscall")

    def __init__(self) -> None:
        """Look the functions up in the process's global symbols (`CDLL(None)`)."""
        handle = _ctypes.dlopen(None, RTLD_LOCAL)  # type: ignore[arg-type]  # NULL: the program
        self._syscall = _Function(_ctypes.dlsym(handle, "syscall"))
        self._syscall.restype = c_long
        self._prctl = _Function(_ctypes.dlsym(handle, "prctl"))
        self._ioctl = _Function(_ctypes.dlsym(handle, "ioctl"))

    def syscall(self, number: int, *args: "int | _ctypes._CArgObject | None") -> int:
        """`syscall(number, args...)`: the result, or -1 with errno set."""
        return int(self._syscall(c_long(number), *_longs(args)))

    def prctl(self, option: int, *args: "int | _ctypes._CArgObject") -> int:
        """`prctl(option, args...)`, the arguments up to the fifth 0: the result, or -1."""
        if len(args) > 4:
            raise TypeError("prctl takes at most 5 arguments")
        return int(self._prctl(c_int(option), *_longs((*args, 0, 0, 0, 0)[:4])))

    def ioctl(self, fd: int, request: int, arg: "int | _ctypes._CArgObject | None") -> int:
        """`ioctl(fd, request, arg)`: the result, or -1 with errno set."""
        return int(self._ioctl(c_int(fd), c_long(request), *_longs((arg,))))
