"""Request URLs for the model client's HTTP/1.1 connections, read as httpx read them.

The model client sent its requests through httpx until issue 29; what a server sees must not
change, so a URL is split, checked and normalised the way httpx 0.28 did for us: lower-case
scheme and host, the scheme's default port left out of `Host`, the path's unsafe characters
percent-encoded (existing escapes kept), dot segments dropped; query parameters, when given,
replace the URL's query, in the `application/x-www-form-urlencoded` form (space as `+`).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from urllib.parse import unquote, urlencode

DEFAULT_PORTS = {"http": 80, "https": 443}
_UNRESERVED = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
_PATH_SAFE = _UNRESERVED + "".join(chr(i) for i in range(0x20, 0x7F) if chr(i) not in ' "#<>?`{}')
_QUERY_SAFE = _UNRESERVED + "".join(chr(i) for i in range(0x20, 0x7F) if chr(i) not in ' "#<>')
_HOST_SAFE = _UNRESERVED + "!$&'()*+,;=" + '"`{}%|\\'


class InvalidUrl(ValueError):
    """A URL the client cannot send to; `str()` says why in a few words."""


@functools.cache
def _url_pattern() -> re.Pattern[str]:
    return re.compile(
        r"(?:(?P<scheme>[a-zA-Z][a-zA-Z0-9+.-]*):)?(?://(?P<authority>[^/?#]*))?"
        r"(?P<path>[^?#]*)(?:\?(?P<query>[^#]*))?(?:#.*)?",
        re.DOTALL,
    )


@functools.cache
def _authority_pattern() -> re.Pattern[str]:
    return re.compile(r"(?:(?P<userinfo>.*)@)?(?P<host>\[.*\]|[^:@]*):?(?P<port>.*)", re.DOTALL)


@dataclass(frozen=True)
class Url:
    """An absolute http(s) URL, split for sending."""

    scheme: str
    host: str
    """Lower-case; IPv6 without brackets; IDNA names in their ASCII form."""
    port: int
    """The port to connect to (the scheme's default when the URL names none)."""
    explicit_port: bool
    """Whether the port differs from the scheme's default (and so appears in `Host`)."""
    target: str
    """The path and query, as the request line carries them."""
    userinfo: tuple[str, str] | None = None
    """The (user, password) of the URL, percent-decoded."""

    @property
    def netloc(self) -> str:
        """The `Host` header's value: the host and the port unless it is the default."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}" if self.explicit_port else host

    @property
    def origin(self) -> tuple[str, str, int]:
        """(scheme, host, port): what a kept-alive connection is reused for."""
        return self.scheme, self.host, self.port

    def absolute(self) -> str:
        """The whole URL without credentials (the request line through a forward proxy)."""
        return f"{self.scheme}://{self.netloc}{self.target}"


def _percent_encoded(text: str, safe: str) -> str:
    if not text.rstrip(safe):
        return text
    return "".join(
        c if c in safe else "".join(f"%{b:02X}" for b in c.encode("utf-8")) for c in text
    )


def _normalize_path(path: str) -> str:
    if "." not in path:
        return path
    parts = path.split("/")
    if "." not in parts and ".." not in parts:
        return path
    out: list[str] = []
    for part in parts:
        if part == "..":
            if out and out != [""]:
                out.pop()
        elif part != ".":
            out.append(part)
    return "/".join(out)


def _encode_host(host: str) -> str:
    if not host:
        return ""
    if host.startswith("[") and host.endswith("]"):
        import ipaddress

        try:
            ipaddress.IPv6Address(host[1:-1])
        except ValueError:
            raise InvalidUrl(f"Invalid IPv6 address: {host!r}") from None
        return host[1:-1]
    octets = host.split(".")
    if len(octets) == 4 and all(o.isascii() and o.isdigit() for o in octets):
        if any(int(o) > 255 or (len(o) > 1 and o[0] == "0") for o in octets):
            raise InvalidUrl(f"Invalid IPv4 address: {host!r}")
        return host
    if host.isascii():
        return _percent_encoded(host.lower(), _HOST_SAFE)
    try:
        import idna  # httpx's dependency: only for internationalised names

        return str(idna.encode(host.lower()).decode("ascii"))
    except ImportError:  # pragma: no cover - idna comes with httpx
        return host.lower().encode("idna").decode("ascii")
    except Exception:
        raise InvalidUrl(f"Invalid IDNA hostname: {host!r}") from None


def parse_url(text: str, params: dict[str, str] | None = None) -> Url:
    """Split an absolute http(s) URL; `params` (if any) replace its query, as in httpx 0.28.

    Raises:
        InvalidUrl: not an http(s) URL with a host (the text says what is wrong).
    """
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in text):
        raise InvalidUrl("Invalid non-printable ASCII character in URL")
    match = _url_pattern().fullmatch(text)
    assert match is not None  # every part of the pattern is optional
    scheme = (match["scheme"] or "").lower()
    if not scheme:
        raise InvalidUrl("Request URL is missing an 'http://' or 'https://' protocol.")
    if scheme not in DEFAULT_PORTS:
        raise InvalidUrl(f"Request URL has an unsupported protocol '{scheme}://'.")
    authority = _authority_pattern().fullmatch(match["authority"] or "")
    assert authority is not None
    host = _encode_host(authority["host"])
    if not host:
        raise InvalidUrl("Request URL is missing a host.")
    port_text = authority["port"]
    try:
        port = int(port_text) if port_text else DEFAULT_PORTS[scheme]
    except ValueError:
        raise InvalidUrl(f"Invalid port: {port_text!r}") from None
    if not 0 < port < 65536:
        raise InvalidUrl(f"Invalid port: {port_text!r}")
    path = match["path"]
    if path and not path.startswith("/"):
        raise InvalidUrl("For absolute URLs, path must be empty or begin with '/'")
    path = _normalize_path(_percent_encoded(path, _PATH_SAFE)) or "/"
    query = match["query"]
    if params:  # as httpx 0.28 took them: instead of the URL's own query
        query = urlencode(list(params.items()))
    elif query is not None:
        query = _percent_encoded(query, _QUERY_SAFE + "%")
    target = path + (f"?{query}" if query else "")
    userinfo = None
    if authority["userinfo"] is not None:
        user, _, password = authority["userinfo"].partition(":")
        userinfo = (unquote(user), unquote(password))
    return Url(scheme, host, port, port != DEFAULT_PORTS[scheme], target, userinfo)
