"""Signed worker tokens, image tickets and completion codes (HMAC with the study secret)."""

from __future__ import annotations

import hashlib
import hmac
import time
from collections.abc import Callable

from itsdangerous import BadSignature, SignatureExpired, TimestampSigner, URLSafeTimedSerializer


class TokenError(Exception):
    """A token was forged, tampered with or expired; ``code`` names which."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _signer_on(clock: Callable[[], float]) -> type[TimestampSigner]:
    """itsdangerous' timestamp signer reading ``clock`` (it dates tokens and measures their age)."""

    class ClockSigner(TimestampSigner):
        def get_timestamp(self) -> int:
            return int(clock())

    return ClockSigner


class Signer:
    """Worker tokens and image tickets, valid for ``max_age`` whole seconds after they are issued.

    ``clock`` (seconds since the epoch) both dates new tokens and measures the age of presented
    ones; the server uses the wall clock, tests pass their own to age a token without waiting.
    """

    def __init__(
        self, secret: str, study: str, max_age: int, *, clock: Callable[[], float] = time.time
    ) -> None:
        self._secret = secret.encode()
        self._study = study
        self._max_age = max_age
        signer = _signer_on(clock)
        self._workers = URLSafeTimedSerializer(secret, salt=f"worker:{study}", signer=signer)
        self._images = URLSafeTimedSerializer(secret, salt=f"image:{study}", signer=signer)

    def worker_token(self, worker_id: str) -> str:
        return self._workers.dumps({"w": worker_id})

    def worker_from_token(self, token: str) -> str:
        try:
            data = self._workers.loads(token, max_age=self._max_age)
        except SignatureExpired as exc:
            raise TokenError("expired_token", "Your session has expired; reload the page.") from exc
        except BadSignature as exc:
            raise TokenError("bad_token", "This session token is not valid.") from exc
        return str(data["w"])

    def image_ticket(self, dialog_id: str, worker_id: str) -> str:
        return self._images.dumps({"d": dialog_id, "w": worker_id})

    def image_from_ticket(self, ticket: str) -> tuple[str, str]:
        try:
            data = self._images.loads(ticket, max_age=self._max_age)
        except BadSignature as exc:
            raise TokenError("bad_ticket", "Unknown image.") from exc
        return str(data["d"]), str(data["w"])

    def worker_id(self, provider: str, platform_id: str) -> str:
        """A stable pseudonym for a platform worker, so raw platform ids stay out of the data."""
        digest = hmac.new(self._secret, f"{provider}:{platform_id}".encode(), hashlib.sha256)
        return "w" + digest.hexdigest()[:20]

    def completion_code(self, dialog_id: str, worker_id: str) -> str:
        digest = hmac.new(self._secret, f"done:{dialog_id}:{worker_id}".encode(), hashlib.sha256)
        return digest.hexdigest()[:12].upper()
