"""Researcher log-in: scrypt password hashes, a signed session cookie and a CSRF token.

Workers hold worker tokens, never this cookie, so no worker route leads here. Every
request that changes something must echo the session's CSRF token in ``X-CSRF-Token``.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from fastapi import HTTPException, Request
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

COOKIE = "avd_admin"
SESSION_SECONDS = 12 * 3600
_N, _R, _P = 2**14, 8, 1


def hash_password(password: str) -> str:
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, n=_N, r=_R, p=_P, dklen=32)
    return f"scrypt${salt.hex()}${digest.hex()}"


def verify_password(password: str, stored: str) -> bool:
    try:
        scheme, salt, digest = stored.split("$")
    except ValueError:
        return False
    if scheme != "scrypt":
        return False
    candidate = hashlib.scrypt(password.encode(), salt=bytes.fromhex(salt), n=_N, r=_R, p=_P, dklen=32)
    return hmac.compare_digest(candidate.hex(), digest)


class AdminSessions:
    def __init__(self, secret: str, study: str) -> None:
        self._serializer = URLSafeTimedSerializer(secret, salt=f"admin:{study}")

    def issue(self, username: str) -> tuple[str, str]:
        """A cookie value and the CSRF token bound to it."""
        csrf = secrets.token_urlsafe(24)
        return self._serializer.dumps({"u": username, "c": csrf}), csrf

    def read(self, cookie: str | None) -> dict[str, str] | None:
        if not cookie:
            return None
        try:
            return self._serializer.loads(cookie, max_age=SESSION_SECONDS)
        except (BadSignature, SignatureExpired):
            return None


def current_admin(request: Request, sessions: AdminSessions) -> str:
    """The logged-in researcher; mutating methods must also pass the CSRF check."""
    session = sessions.read(request.cookies.get(COOKIE))
    if session is None:
        raise HTTPException(401, "Please log in.")
    if request.method not in ("GET", "HEAD", "OPTIONS"):
        sent = request.headers.get("x-csrf-token", "")
        if not hmac.compare_digest(sent, session["c"]):
            raise HTTPException(403, "Missing or wrong CSRF token.")
    return session["u"]
