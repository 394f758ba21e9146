"""Websocket authentication of `codex app-server`: capability tokens and signed JWT bearers.

Both read `Authorization: Bearer <token>` from the upgrade request (the scheme in any case;
a `?token=` query is not looked at). The refusals are HTTP 401 with a plain-text body in
Codex 0.169's words (observed side by side):

* capability token: the SHA-256 of the token must equal the configured digest (given, or of
  the token file's trimmed text), compared in constant time;
* signed bearer: an HS256 JWT under the shared secret (the file's trimmed text, at least 32
  bytes) with an integer `exp`; `exp` and `nbf` get the clock skew (30 s unless
  `--ws-max-clock-skew-seconds`); `iss` and `aud` (a string or a list) must match when
  `--ws-issuer` / `--ws-audience` are set.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

DEFAULT_CLOCK_SKEW_SECONDS = 30


class AuthConfigError(ValueError):
    """Bad `--ws-*` flags or an unreadable secret (0.169's startup error text)."""


@dataclass(frozen=True)
class AuthFlags:
    """The `--ws-*` options as given."""

    mode: Literal["capability-token", "signed-bearer-token"] | None = None
    token_file: str | None = None
    token_sha256: str | None = None
    shared_secret_file: str | None = None
    issuer: str | None = None
    audience: str | None = None
    max_clock_skew_seconds: int | None = None


@dataclass(frozen=True)
class WebsocketAuth:
    """A checker of upgrade requests; `check` returns None or the 401 body."""

    token_digest: bytes | None = None
    secret: bytes | None = None
    issuer: str | None = None
    audience: str | None = None
    skew: int = DEFAULT_CLOCK_SKEW_SECONDS

    def check(self, headers: Mapping[str, str]) -> str | None:
        """None when the request may connect, else why not (the 401 body)."""
        header = headers.get("authorization")
        if header is None:
            return "missing websocket bearer token"
        scheme, _, token = header.strip().partition(" ")
        token = token.strip()
        if scheme.lower() != "bearer" or not token:
            return "invalid authorization header"
        if self.token_digest is not None:
            digest = hashlib.sha256(token.encode()).digest()
            if hmac.compare_digest(digest, self.token_digest):
                return None
            return "invalid websocket bearer token"
        return self._check_jwt(token)

    def _check_jwt(self, token: str) -> str | None:
        import jwt

        assert self.secret is not None
        try:
            claims: dict[str, Any] = jwt.decode(
                token,
                self.secret,
                algorithms=["HS256"],
                options={
                    "require": ["exp"],
                    "verify_exp": False,
                    "verify_nbf": False,
                    "verify_iat": False,
                    "verify_aud": False,
                    "verify_iss": False,
                },
            )
        except jwt.PyJWTError:
            return "invalid websocket jwt"
        exp, nbf = claims.get("exp"), claims.get("nbf")
        if not isinstance(exp, int) or isinstance(exp, bool):
            return "invalid websocket jwt"
        if nbf is not None and (not isinstance(nbf, int) or isinstance(nbf, bool)):
            return "invalid websocket jwt"
        now = int(time.time())
        if exp < now - self.skew:
            return "expired websocket jwt"
        if isinstance(nbf, int) and nbf > now + self.skew:
            return "websocket jwt is not valid yet"
        if self.issuer is not None and claims.get("iss") != self.issuer:
            return "websocket jwt issuer mismatch"
        if self.audience is not None:
            aud = claims.get("aud")
            audiences = aud if isinstance(aud, list) else [aud]
            if self.audience not in audiences:
                return "websocket jwt audience mismatch"
        return None


def _read_secret(name: str) -> bytes:
    path = Path(name).absolute()
    try:
        data = path.read_bytes().strip()
    except OSError as err:
        raise AuthConfigError(
            f"failed to read websocket auth secret {path}: {err.strerror} (os error {err.errno})"
        ) from None
    if not data:
        raise AuthConfigError(f"websocket auth secret {path} must not be empty")
    return data


def build_auth(flags: AuthFlags) -> WebsocketAuth | None:
    """The checker the flags configure (None: no auth); raises AuthConfigError."""
    token_flags = flags.token_file is not None or flags.token_sha256 is not None
    jwt_flags = (
        flags.shared_secret_file is not None
        or flags.issuer is not None
        or flags.audience is not None
        or flags.max_clock_skew_seconds is not None
    )
    if flags.token_file is not None and flags.token_sha256 is not None:
        raise AuthConfigError("`--ws-token-file` and `--ws-token-sha256` are mutually exclusive")
    if flags.mode is None:
        if token_flags or jwt_flags:
            raise AuthConfigError(
                "websocket auth flags require `--ws-auth capability-token` or "
                "`--ws-auth signed-bearer-token`"
            )
        return None
    if flags.mode == "capability-token":
        if jwt_flags:
            raise AuthConfigError(
                "`--ws-shared-secret-file`, `--ws-issuer`, `--ws-audience`, and "
                "`--ws-max-clock-skew-seconds` require `--ws-auth signed-bearer-token`"
            )
        if flags.token_sha256 is not None:
            if not re.fullmatch(r"[0-9a-fA-F]{64}", flags.token_sha256):
                raise AuthConfigError("--ws-token-sha256 must be a 64-character hex SHA-256 digest")
            return WebsocketAuth(token_digest=bytes.fromhex(flags.token_sha256))
        if flags.token_file is None:
            raise AuthConfigError(
                "`--ws-token-file` or `--ws-token-sha256` is required when "
                "`--ws-auth capability-token` is set"
            )
        return WebsocketAuth(token_digest=hashlib.sha256(_read_secret(flags.token_file)).digest())
    if token_flags:
        raise AuthConfigError(
            "`--ws-token-file` and `--ws-token-sha256` require `--ws-auth capability-token`, "
            "not `signed-bearer-token`"
        )
    if flags.shared_secret_file is None:
        raise AuthConfigError(
            "`--ws-shared-secret-file` is required when `--ws-auth signed-bearer-token` is set"
        )
    secret = _read_secret(flags.shared_secret_file)
    if len(secret) < 32:
        path = Path(flags.shared_secret_file).absolute()
        raise AuthConfigError(f"signed websocket bearer secret {path} must be at least 32 bytes")
    skew = flags.max_clock_skew_seconds
    return WebsocketAuth(
        secret=secret,
        issuer=flags.issuer,
        audience=flags.audience,
        skew=DEFAULT_CLOCK_SKEW_SECONDS if skew is None else skew,
    )
