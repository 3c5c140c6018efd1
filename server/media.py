"""Where stimulus images live: a local directory by default, S3 (boto3) when configured.

Keys are random, so an image's address never reveals which stimulus it belongs to.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Protocol

from server.settings import Settings


class MediaStore(Protocol):
    def put(self, key: str, data: bytes, content_type: str) -> None: ...
    def get(self, key: str) -> bytes: ...
    def exists(self, key: str) -> bool: ...
    def delete(self, key: str) -> None: ...


class LocalMediaStore:
    def __init__(self, root: Path) -> None:
        self.root = root
        root.mkdir(parents=True, exist_ok=True)

    def _path(self, key: str) -> Path:
        if "/" in key or key.startswith("."):
            raise ValueError(f"bad media key {key!r}")
        return self.root / key

    def put(self, key: str, data: bytes, content_type: str) -> None:
        tmp = self._path(key).with_suffix(".tmp")
        tmp.write_bytes(data)
        tmp.replace(self._path(key))

    def get(self, key: str) -> bytes:
        return self._path(key).read_bytes()

    def exists(self, key: str) -> bool:
        return self._path(key).exists()

    def delete(self, key: str) -> None:
        self._path(key).unlink(missing_ok=True)


class S3MediaStore:
    def __init__(self, bucket: str, prefix: str, endpoint_url: str | None = None) -> None:
        import boto3

        self.bucket = bucket
        self.prefix = prefix
        self.client = boto3.client("s3", endpoint_url=endpoint_url)

    def put(self, key: str, data: bytes, content_type: str) -> None:
        self.client.put_object(Bucket=self.bucket, Key=self.prefix + key, Body=data, ContentType=content_type)

    def get(self, key: str) -> bytes:
        return self.client.get_object(Bucket=self.bucket, Key=self.prefix + key)["Body"].read()

    def exists(self, key: str) -> bool:
        from botocore.exceptions import ClientError

        try:
            self.client.head_object(Bucket=self.bucket, Key=self.prefix + key)
        except ClientError:
            return False
        return True

    def delete(self, key: str) -> None:
        self.client.delete_object(Bucket=self.bucket, Key=self.prefix + key)


def media_store(settings: Settings) -> MediaStore:
    if settings.media_backend == "s3":
        if not settings.s3_bucket:
            raise ValueError("AVD_S3_BUCKET is required when AVD_MEDIA_BACKEND=s3")
        return S3MediaStore(settings.s3_bucket, settings.s3_prefix, settings.s3_endpoint_url)
    return LocalMediaStore(settings.resolved_media_dir)


async def read_media(store: MediaStore, key: str) -> bytes:
    return await asyncio.to_thread(store.get, key)
