"""Which proxy a model request goes through: the environment's, chosen as httpx chose it.

httpx (the model client's HTTP stack until issue 29) read HTTPS_PROXY, HTTP_PROXY and
ALL_PROXY (lower case wins, as `urllib.request.getproxies` reads them; on macOS and Windows
the system's settings when the environment names none) and NO_PROXY, and users configured
codex that way. Its NO_PROXY rules differ from urllib's `proxy_bypass`, so they are httpx's:
`*` turns proxies off; `example.com` matches it and its subdomains, `.example.com` only the
subdomains; an IP address (v4 or v6, a `/prefix` ignored) or `localhost` matches exactly; an
entry with `://` is a URL pattern (scheme, host, port: the scheme's default port matches any,
and a bare `http://`, `https://` or `all://` turns that variable's proxy off). The most
specific rule wins: one with a port, then the longest host, then the longest scheme (https's
proxy before ALL_PROXY's).
"""

from __future__ import annotations

import base64
import os
import re
import sys
from dataclasses import dataclass

from codex_core.client.http_url import DEFAULT_PORTS, InvalidUrl, Url, parse_url


class ProxyUnsupported(ValueError):
    """A proxy setting codex cannot use; `str()` is one sentence saying what to change."""


@dataclass(frozen=True)
class Proxy:
    """An http:// or https:// (TLS to the proxy) proxy: where to connect, and the
    `Proxy-Authorization` its URL implies."""

    url: Url
    authorization: str | None


@dataclass(frozen=True)
class _Rule:
    scheme: str  # "" for any
    host: str  # "" for any
    port: int | None
    host_regex: re.Pattern[str] | None
    proxy: Proxy | None  # None: go direct
    problem: str | None = None  # set for a proxy codex cannot use

    @property
    def priority(self) -> tuple[int, int, int]:
        return (0 if self.port is not None else 1, -len(self.host), -len(self.scheme))

    def matches(self, url: Url) -> bool:
        if self.scheme and self.scheme != url.scheme:
            return False
        if self.host and self.host_regex is not None and not self.host_regex.match(url.host):
            return False
        return self.port is None or (url.explicit_port and self.port == url.port)


def _environment_proxies() -> dict[str, str]:
    """`urllib.request.getproxies()` without importing urllib.request where it reads only
    the environment (everywhere but macOS and Windows)."""
    if sys.platform in ("darwin", "win32"):
        from urllib.request import getproxies

        return dict(getproxies())
    proxies: dict[str, str] = {}
    for name, value in os.environ.items():
        if value and name[-6:].lower() == "_proxy":
            proxies[name[:-6].lower()] = value
    if "REQUEST_METHOD" in os.environ:  # a CGI script: HTTP_PROXY is a request header
        proxies.pop("http", None)
    for name, value in os.environ.items():
        if name[-6:] == "_proxy":
            if value:
                proxies[name[:-6].lower()] = value
            else:
                proxies.pop(name[:-6].lower(), None)
    return proxies


def _pattern(text: str, proxy: Proxy | None, problem: str | None = None) -> _Rule:
    """A rule from an httpx URL pattern such as `all://*example.com:8080` or `https://`."""
    scheme, _, rest = text.partition("://")
    rest = rest.split("/", 1)[0]
    host, port = rest, None
    if rest.startswith("["):
        host, _, tail = rest[1:].partition("]")
        port = int(tail[1:]) if tail.startswith(":") and tail[1:].isdigit() else None
    elif ":" in rest:
        host, _, port_text = rest.rpartition(":")
        port = int(port_text) if port_text.isdigit() else None
    host = host.lower()
    if port is not None and port == DEFAULT_PORTS.get(scheme.lower()):
        port = None  # httpx's URL dropped a scheme's default port: any port then matches
    if host == "*":
        host = ""
    regex = None
    if host.startswith("*."):
        regex = re.compile(rf"^.+\.{re.escape(host[2:])}$")
    elif host.startswith("*"):
        regex = re.compile(rf"^(.+\.)?{re.escape(host[1:])}$")
    elif host:
        regex = re.compile(rf"^{re.escape(host)}$")
    return _Rule("" if scheme == "all" else scheme.lower(), host, port, regex, proxy, problem)


def _is_ip(text: str) -> int:
    """4 or 6 for an IP address (a `/prefix` ignored), else 0."""
    import ipaddress

    try:
        return ipaddress.ip_address(text.split("/")[0]).version
    except ValueError:
        return 0


def _proxy(value: str, variable: str) -> tuple[Proxy | None, str | None]:
    url_text = value if "://" in value else f"http://{value}"
    scheme = url_text.partition("://")[0].lower()
    if scheme.startswith("socks"):
        return None, (
            f"{variable} names a SOCKS proxy ({scheme}://), which codex does not support; "
            "use an http:// proxy, or add the provider's host to NO_PROXY."
        )
    if scheme not in ("http", "https"):
        return None, (
            f"{variable} names a proxy codex cannot use ({scheme}://); use an http:// or "
            "https:// proxy, or add the provider's host to NO_PROXY."
        )
    try:
        url = parse_url(url_text)
    except InvalidUrl as err:
        return None, f"{variable} is not a valid proxy URL ({err}); fix or unset it."
    authorization = None
    if url.userinfo is not None:
        user, password = url.userinfo
        token = base64.b64encode(f"{user}:{password}".encode()).decode("ascii")
        authorization = f"Basic {token}"
    return Proxy(url, authorization), None


def environment_rules() -> list[_Rule]:
    """The environment's proxy rules, most specific first (empty: always direct)."""
    found = _environment_proxies()
    # Keyed by pattern as httpx's mounts were: a NO_PROXY entry naming a proxy's own pattern
    # (`http://`, `all://`) replaces that proxy.
    rules: dict[str, _Rule] = {}
    for scheme in ("http", "https", "all"):
        value = found.get(scheme)
        if value:
            proxy, problem = _proxy(value, f"{scheme.upper()}_PROXY")
            rules[f"{scheme}://"] = _pattern(f"{scheme}://", proxy, problem)
    for entry in (h.strip() for h in found.get("no", "").split(",")):
        if entry == "*":
            return []
        if not entry:
            continue
        if "://" in entry:
            key = entry
        elif _is_ip(entry) == 4 or entry.lower() == "localhost":
            key = f"all://{entry}"
        elif _is_ip(entry) == 6:
            key = f"all://[{entry.split('/')[0]}]"
        else:
            key = f"all://*{entry}"
        rules[key] = _pattern(key, None)
    return sorted(rules.values(), key=lambda rule: rule.priority)


def proxy_for(rules: list[_Rule], url: Url) -> Proxy | None:
    """The proxy `url` goes through, None for a direct connection.

    Raises:
        ProxyUnsupported: the proxy that applies is one codex cannot use.
    """
    for rule in rules:
        if rule.matches(url):
            if rule.problem is not None:
                raise ProxyUnsupported(rule.problem)
            return rule.proxy
    return None
